package dev.orrery.scheduler.executor;

/**
 * A batch of consecutive matching chunks of one system, {@code [from, to)} in the system's
 * chunk list; or, with no system, one task of a {@link dev.orrery.ecs.ParallelFor}
 * the executor lends (task {@code from}). Preallocated and reused every run.
 *
 * <p><b>Threading:</b> written by the calling thread before it is queued, by the one
 * worker that runs it (failure fields), then read by the calling thread after the
 * completion queue hands it back: each hand-off is a queue release/acquire pair. {@link #out}
 * and {@link #writtenOff} are the calling thread's own bookkeeping.
 */
final class Job {
    /** The system, or {@code null} for a lent task. */
    final SystemRun run;
    /** The lent task to run with {@code from}, or {@code null} for a system's job. */
    java.util.function.IntConsumer task;
    /** This job's place among its system's jobs: a range system's jobs cover ascending ranges in this order. */
    final int ordinal;
    /**
     * The job of the next system of a chunk pipeline over the same chunks, run right after
     * this one by the same worker; null outside a pipeline (see {@link ChunkPipelines}).
     */
    Job fused;
    int from;
    int to;
    /**
     * When a worker thread began this job ({@link System#nanoTime}), or 0 when the calling
     * thread ran it: written by the worker before it hands the job back, read by the caller
     * after (the completion queue orders the two), to time how long jobs wait for a worker.
     */
    long startedAt;
    Throwable failure;
    int failedOrdinal;
    int failedWorker;
    /** Caller only: handed out to the workers and not yet back (what a deadline looks for). */
    boolean out;
    /**
     * Caller only: given up at a run's deadline, its stuck thread abandoned; if it is ever handed
     * back it is ignored, and its system runs on a new job object from then on.
     */
    boolean writtenOff;

    Job(SystemRun run, int ordinal) {
        this.run = run;
        this.ordinal = ordinal;
    }

    void reset(int from, int to) {
        this.from = from;
        this.to = to;
        this.failure = null;
    }

    void fail(Throwable t, int ordinal, int worker) {
        this.failure = t;
        this.failedOrdinal = ordinal;
        this.failedWorker = worker;
    }
}
