package dev.orrery.scheduler.executor;

import dev.orrery.ecs.World;
import dev.orrery.ecs.command.CommandBuffer;
import dev.orrery.ecs.command.CommandPlayback;
import dev.orrery.ecs.command.PlaybackReport;
import dev.orrery.scheduler.system.JobObserver;
import java.util.ArrayList;
import java.util.List;

/**
 * The executor's side of the command buffers: one buffer per worker (its id is the worker
 * id), applied together at each sync point by one {@link CommandPlayback}. Which worker
 * recorded which chunk does not matter: playback merges by the (system, chunk, sequence)
 * key that {@link JobContext} sets before each chunk.
 *
 * <p><b>Threading:</b> {@link #apply} and {@link #discard} run on the calling thread of
 * {@code ScheduleExecutor.run}, when no job runs; every job's recording happened-before
 * (the job came back through the executor's completion queue, or ran on this thread).
 */
final class CommandSync {
    private final List<CommandBuffer> buffers = new ArrayList<>();
    private final CommandPlayback playback = new CommandPlayback();
    private final PlaybackReport totals = new PlaybackReport();
    /** Hears of each playback; set between runs, like the jobs' observer. */
    JobObserver observer;

    /** Adds a worker's buffer. */
    void add(CommandBuffer buffer) {
        buffers.add(buffer);
    }

    /** Applies every recorded command to {@code world} (structure unlocked) and empties the buffers. */
    void apply(World world) {
        for (int i = 0, n = buffers.size(); i < n; i++) {
            if (!buffers.get(i).isEmpty()) {
                JobObserver obs = observer;
                long start = obs != null ? System.nanoTime() : 0L;
                PlaybackReport r = playback.apply(world, buffers);
                totals.add(r);
                if (obs != null) {
                    obs.syncPointApplied(r.applied(), r.moves(), start, System.nanoTime());
                }
                return;
            }
        }
    }

    /** Drops every recorded command (after a failed run: none of its changes is applied). */
    void discard() {
        for (int i = 0, n = buffers.size(); i < n; i++) {
            buffers.get(i).clear();
        }
    }

    /** Totals over every playback so far (a running sum, one {@link PlaybackReport} for all). */
    PlaybackReport totals() {
        return totals;
    }
}
