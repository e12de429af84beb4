package dev.orrery.scheduler.executor;

import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.command.CommandBuffer;
import dev.orrery.ecs.query.ChunkView;

/**
 * The per-worker context handed to a job body: which worker runs it, which system and
 * which chunk, and the {@link ChunkView} bound to that chunk. The view checks every column
 * request against the system's declared access, so reading an undeclared column, or
 * writing one declared read-only, throws {@code UndeclaredAccessException} naming the
 * system and the component.
 *
 * <p>The tuple (system index, chunk ordinal, row) depends only on the schedule and the
 * world, never on which worker ran the job, so it is the sort key for deferred work: the
 * per-worker command buffers will hang off this object and record under that key.
 *
 * <p><b>Threading:</b> one context per worker, owned by that worker's thread (worker 0 is
 * the thread that calls {@link ScheduleExecutor#run}); a body must not keep it, or its view,
 * beyond the call.
 */
public final class JobContext {
    private final int workerId;
    private final ChunkView[] views;
    private final CommandBuffer commands;
    private int systemIndex = -1;
    private String systemName;
    private int chunkOrdinal = -1;
    private ChunkView current;
    JobObserver observer;

    JobContext(int workerId, ExecutionPlan plan) {
        this.workerId = workerId;
        if (workerId > 255) {
            throw new IllegalArgumentException("at most 256 workers: worker " + workerId
                    + " would need command buffer id " + workerId + " (0..255)");
        }
        this.commands = new CommandBuffer(workerId);
        this.views = new ChunkView[plan.size()];
        for (int i = 0; i < views.length; i++) {
            views[i] = new ChunkView(plan.system(i).declaration().access());
        }
    }

    /** The worker running the job: 0 is the calling thread, 1.. the executor's threads. */
    public int workerId() {
        return workerId;
    }

    /** The system's position in the schedule's linear order (its graph position). */
    public int systemIndex() {
        return systemIndex;
    }

    /** The system's name. */
    public String systemName() {
        return systemName;
    }

    /** Which of the system's matching chunks this is, counted from 0 in query order. */
    public int chunkOrdinal() {
        return chunkOrdinal;
    }

    /**
     * This worker's command buffer, for structural changes (spawn, despawn, add, remove):
     * they are applied at the next sync point, in an order that does not depend on which
     * worker ran which chunk. The buffer's key is already set to this system and chunk.
     */
    public CommandBuffer commands() {
        return commands;
    }

    CommandBuffer buffer() {
        return commands;
    }

    /** The bound chunk, through the system's access checks; {@code null} in a range system's body. */
    public ChunkView chunk() {
        return current;
    }

    /** Runs {@code job}'s chunks through its system's body; records a failure in the job instead of throwing. */
    void run(Job job) {
        SystemRun r = job.run;
        if (r.rangeBody != null) {
            runRange(job, r);
            return;
        }
        ChunkSystem body = r.body;
        Chunk[] chunks = r.chunks;
        ChunkView view = views[r.position];
        systemIndex = r.position;
        systemName = r.name;
        current = view;
        int k = job.from;
        JobObserver obs = observer;
        long start = obs != null ? System.nanoTime() : 0L;
        try {
            for (int end = job.to; k < end; k++) {
                chunkOrdinal = k;
                commands.beginChunk(r.position, k);
                view.bind(chunks[k]);
                body.run(this);
            }
        } catch (Throwable t) {
            job.fail(t, k, workerId);
        } finally {
            view.bind(null);
            current = null;
            chunkOrdinal = -1;
            if (obs != null) {
                obs.jobRan(workerId, r.position, job.from, job.to, start, System.nanoTime());
            }
        }
    }

    /**
     * Runs a range system's job over indices {@code [from, to)}, or records the failure of
     * its count (such a run has one empty job, run inline). Its commands are keyed by the
     * job's ordinal: the jobs cover ascending ranges in ordinal order, so playback applies
     * them in index order however many jobs the indices were split into.
     */
    private void runRange(Job job, SystemRun r) {
        if (r.countFailure != null) { // the count threw or was negative: no indices to run
            job.fail(r.countFailure, -1, workerId);
            return;
        }
        systemIndex = r.position;
        systemName = r.name;
        JobObserver obs = observer;
        long start = obs != null ? System.nanoTime() : 0L;
        try {
            if (job.from < job.to) {
                commands.beginChunk(r.position, job.ordinal);
                r.rangeBody.run(this, job.from, job.to);
            }
        } catch (Throwable t) {
            job.fail(t, job.from, workerId);
        } finally {
            if (obs != null) {
                obs.jobRan(workerId, r.position, job.from, job.to, start, System.nanoTime());
            }
        }
    }

    /** Runs an exclusive system's body on this (the calling) thread, reporting it to the observer. */
    void runExclusive(ScheduledSystem system, int position, dev.orrery.ecs.World world) {
        JobObserver obs = observer;
        long start = obs != null ? System.nanoTime() : 0L;
        try {
            system.exclusiveBody().run(world);
        } finally {
            if (obs != null) {
                obs.jobRan(workerId, position, -1, -1, start, System.nanoTime());
            }
        }
    }
}
