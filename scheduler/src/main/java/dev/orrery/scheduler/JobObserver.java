package dev.orrery.scheduler;

/**
 * Sees every job an executor runs, with its start and end time: the hook for traces
 * (a Chrome trace with one track per worker) and per-system metrics. An exclusive system is
 * reported as one job of worker 0 with chunk range {@code [-1, -1)}; a range system's job
 * with its index range, a level system's with its slot range.
 *
 * <p><b>Threading:</b> called on the worker thread that ran the job, right after it, so
 * calls for different workers arrive at the same time; keep state per worker id (0 ..
 * {@code workerCount() - 1}) and do not block. Two threads can report under one id: a job
 * the executor abandoned at a run's deadline ({@code ScheduleExecutor.runDeadline}) reports its
 * {@code jobRan} when it returns, if ever, while the worker that replaced it, under its id, runs
 * jobs of its own; state kept per worker id should match the job's {@code startNanos} before it
 * clears anything. {@link #syncPointApplied} is called on the thread that called {@code ScheduleExecutor.run}, while no job runs. Set the observer between
 * runs: the next run's job hand-off publishes it to the workers.
 */
@FunctionalInterface
public interface JobObserver {
    /**
     * Worker {@code workerId} ran chunks {@code [fromChunk, toChunk)} (indices, for a range
     * system) of the system at graph position {@code systemIndex} (its name is
     * {@code schedule.systemNames().get(systemIndex)}) from {@code startNanos} to
     * {@code endNanos} ({@link System#nanoTime()}).
     *
     * @param workerId the worker, 0 to {@code workerCount() - 1}
     * @param systemIndex the system's graph position, an index into {@code schedule.systemNames()}
     * @param fromChunk the first chunk (or index, or slot) of the job, inclusive; -1 for an
     *     exclusive system
     * @param toChunk the end of the job's range, exclusive; -1 for an exclusive system
     * @param startNanos when the job started, {@link System#nanoTime()}
     * @param endNanos when it ended, {@link System#nanoTime()}, at least {@code startNanos}
     */
    void jobRan(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos, long endNanos);

    /**
     * Worker {@code workerId} starts the job that {@link #jobRan} will report (same arguments),
     * at {@code startNanos}: lets a watchdog name the job a long tick is stuck in. Called on
     * the worker, like {@code jobRan}. Does nothing by default.
     *
     * @param workerId the worker, 0 to {@code workerCount() - 1}
     * @param systemIndex the system's graph position, an index into {@code schedule.systemNames()}
     * @param fromChunk the first chunk (or index, or slot) of the job, inclusive; -1 for an
     *     exclusive system
     * @param toChunk the end of the job's range, exclusive; -1 for an exclusive system
     * @param startNanos when the job starts, {@link System#nanoTime()}; {@code jobRan} reports the
     *     same value
     */
    default void jobStarted(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos) {
    }

    /**
     * A sync point applied the workers' command buffers: {@code commands} commands, making
     * {@code moves} archetype moves, from {@code startNanos} to {@code endNanos}
     * ({@link System#nanoTime()}). Not called for sync points with nothing to apply. Does
     * nothing by default.
     *
     * @param commands the commands applied
     * @param moves the archetype moves they made, 0 or more
     * @param startNanos when playback started, {@link System#nanoTime()}
     * @param endNanos when it ended, {@link System#nanoTime()}
     */
    default void syncPointApplied(long commands, long moves, long startNanos, long endNanos) {
    }
}
