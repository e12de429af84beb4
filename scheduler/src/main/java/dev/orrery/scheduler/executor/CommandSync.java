package dev.orrery.scheduler.executor;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.PlaybackReport;
import dev.orrery.ecs.RefusedCommandException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.internal.Playback;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The executor's side of the command buffers: one buffer per worker (its id is the worker
 * id), applied together at each sync point by one {@link CommandPlayback}. Which worker
 * recorded which chunk does not matter: playback merges by the (system, chunk, sequence)
 * key that {@link JobContext} sets before each chunk.
 *
 * <p>Every playback's report (one per sync point, with the per-kind outcome counts) is
 * added to {@link #totals()}; in strict mode ({@link CommandPlayback}'s, on under {@code -ea})
 * a refused command throws a {@code RefusedCommandException} naming the system that recorded
 * it, by the names given to {@link #systemNames}, after the sync point was applied in full.
 *
 * <p><b>Threading:</b> {@link #apply} and {@link #discard} run on the calling thread of
 * {@code ScheduleExecutor.run}, when no job runs; every job's recording happened-before
 * (the job came back through the executor's completion queue, or ran on this thread).
 */
final class CommandSync {
    private final List<CommandBuffer> buffers = new ArrayList<>();
    private final Playback playback = new Playback();
    private final PlaybackReport totals = new PlaybackReport();
    private long lastApplied;
    /** Hears of each playback; set between runs, like the jobs' observer. */
    JobObserver observer;
    /** Called after each playback that applied commands (the single-threaded executor's diagnostic hook); set between runs. */
    Runnable afterApply;

    /**
     * Names the systems in playback's descriptions and strict-mode errors: {@code names} maps
     * a schedule position to the system's name (or {@code null} when out of range).
     */
    void systemNames(IntFunction<String> names) {
        playback.systemNames(names);
    }

    /** Turns playback's strict mode on or off (see {@link Playback#strict(boolean)}). */
    void strict(boolean on) {
        playback.strict(on);
    }

    /** Lends playback the executor's workers for writing spawn values (see {@link Playback#parallel}). */
    void parallel(dev.orrery.ecs.ParallelFor threads) {
        playback.parallel(threads);
    }

    /** Adds a worker's buffer. */
    void add(CommandBuffer buffer) {
        buffers.add(buffer);
    }

    /**
     * Applies every recorded command to {@code world} (structure unlocked) and empties the
     * buffers; returns how many commands were applied (0 when none was recorded). When the
     * playback or an observer hook throws, what it applied until then is still counted, in
     * {@link #totals()} and {@link #lastApplied()}.
     */
    long apply(World world) {
        lastApplied = 0;
        for (int i = 0, n = buffers.size(); i < n; i++) {
            if (!buffers.get(i).isEmpty()) {
                JobObserver obs = observer;
                long start = obs != null ? System.nanoTime() : 0L;
                PlaybackReport r;
                try {
                    r = playback.apply(world, buffers);
                } catch (RefusedCommandException refused) {
                    counted(refused.report()); // applied in full before the throw: count it
                    throw refused;
                } catch (RuntimeException | Error e) {
                    counted(playback.lastReport()); // what the playback applied before it (or a hook) threw
                    throw e;
                }
                counted(r);
                if (obs != null) {
                    obs.syncPointApplied(r.applied(), r.moves(), start, System.nanoTime());
                }
                if (afterApply != null) {
                    afterApply.run();
                }
                return lastApplied;
            }
        }
        return 0;
    }

    private void counted(PlaybackReport r) {
        totals.add(r);
        lastApplied = r.applied();
    }

    /** The commands the last {@link #apply} applied, also when it threw. */
    long lastApplied() {
        return lastApplied;
    }

    /**
     * Drops every recorded command (after a failed run: none of them is applied); returns how
     * many were dropped.
     */
    long discard() {
        long dropped = 0;
        for (int i = 0, n = buffers.size(); i < n; i++) {
            dropped += buffers.get(i).commandCount();
            buffers.get(i).clear();
        }
        return dropped;
    }

    /**
     * Replaces {@code old} (the buffer of a worker the executor abandoned, which its stuck
     * thread may still write) with {@code fresh}, the buffer of the worker that replaces it:
     * nothing the old one holds, or is given later, is ever applied.
     */
    void replace(CommandBuffer old, CommandBuffer fresh) {
        int i = buffers.indexOf(old);
        if (i < 0) {
            throw new IllegalStateException("command buffer " + old.id() + " is not one of this executor's");
        }
        buffers.set(i, fresh);
    }

    /** Totals over every playback so far (a running sum, one {@link PlaybackReport} for all). */
    PlaybackReport totals() {
        return totals;
    }
}
