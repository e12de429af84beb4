package dev.orrery.scheduler;

import dev.orrery.ecs.PlaybackReport;
import java.util.List;

/**
 * Runs a {@link Schedule}: every system once per {@link #run}, phase by phase, with
 * a sync point at the end of each phase and of the run. Whatever the implementation and the
 * number of workers, a run gives the same world as running the systems one by one in the
 * graph's linear order.
 *
 * <p><b>Threading:</b> {@link #run} is called by the executor's owner thread only (it is
 * worker 0): the thread of its first run, or the thread given to {@link #bindOwner}; under
 * {@code -ea} a run from another thread fails an assertion, and a run started while another
 * is in progress (from a job or a sync point) throws. One world is run by one executor at a
 * time: a run of any executor over the same world started on another thread while a run is
 * in progress is refused at its start with an {@link IllegalStateException} naming the world
 * and the running thread, and changes nothing (hand the world over between runs); a run
 * nested on the running thread (a sub-schedule stepped from an exclusive system) goes ahead.
 * Everything the caller did before
 * {@code run} happens-before every job of that run, and every job happens-before {@code run}
 * returns (or throws), with one exception: a job abandoned at the {@link #runDeadline} is
 * ordered before nothing after the run (see there). {@link #close} is called once, by the
 * owner, when no run is in progress.
 *
 * <p><b>After close</b> only {@link #run} is refused ({@link IllegalStateException}: create a
 * new executor). The other calls are taken as between runs, with their usual argument checks:
 * {@link #runDeadline}, {@link #observe} and {@link #finishPhaseOnFailure} keep a setting that no
 * run will read and start nothing (no worker thread comes back), the reads answer as before, and
 * {@link #bindOwner} still binds the world's owner thread. An owner that shuts down in steps
 * (a simulation closed, then its settings handed back) need not order them around the close.
 */
public interface ScheduleExecutor extends AutoCloseable {
    /** Runs every system once, with no sync-point work. */
    default void run() {
        run(SyncPoint.NONE);
    }

    /**
     * Runs every system once, calling {@code syncPoint} on this thread at the end of each
     * phase and of the run. The workers' command buffers are applied to the world before
     * each phase's sync point, before each exclusive system and before each system declared
     * {@code afterStructuralChanges()}; after a failure they are discarded.
     *
     * @param syncPoint called on this thread after each phase and at the end of the run
     * @throws dev.orrery.scheduler.SystemFailedException when a system throws, when a sync point
     *     fails (an observer hook throws, or a cascade of hooks is refused) or when a job is still
     *     out at the {@link #runDeadline}; the run stops, and the message says what it left
     * @throws IllegalStateException when called during a run or after {@link #close}, or while
     *     another thread runs an executor over the same world
     */
    void run(SyncPoint syncPoint);

    /**
     * Hands the executor to {@code owner}, which alone may call {@link #run} from now on (and
     * whose thread records worker 0's commands); call between runs. Without it the owner is
     * the thread of the first run. The hand-over needs a happens-before edge from the old
     * owner's last run to the new owner's first (a queue, a lock, {@code Thread.start}).
     *
     * @param owner the thread that alone may run the executor from now on
     * @throws IllegalStateException when called during a run
     */
    void bindOwner(Thread owner);

    /**
     * What a run does after a system throws (default {@code false}): stop handing out jobs at
     * once (the jobs already started finish), or, with {@code on}, run the failing phase to its
     * end first: every job of every system of that phase runs, each chunk of a failing job is
     * tried even after an earlier chunk of it threw, and the failure with the lowest (graph
     * position, chunk ordinal) is the one thrown, the others suppressed. Either way the
     * phase's pending command buffers are discarded and later phases do not run.
     *
     * <p>With {@code on}, which jobs ran no longer depends on timing or the worker count, so the
     * columns a failed run leaves are deterministic (for chunk and exclusive systems; a range
     * system's job stops at its first throwing index, and its index ranges depend on the
     * worker count). A tick loop that skips failed ticks needs that to replay them. Call
     * between runs.
     *
     * @param on true to run the failing phase to its end, false to stop handing out jobs at once
     */
    void finishPhaseOnFailure(boolean on);

    /**
     * Ends a run that, {@code nanos} after it began, still waits for a job on a worker thread
     * (0, the default: a run waits for its jobs for ever). Past the deadline no more jobs go
     * out, the jobs not yet taken are not run, and each worker still in a job is interrupted
     * (a job blocked in an interruptible wait ends there) and given a grace of a tenth of the
     * deadline (1 ms to 1 s). A worker whose job has still not returned is abandoned: the
     * executor starts a new worker in its place and drops the old one's command buffer, so it
     * stays usable and nothing the stuck job records is applied. The run then fails with a
     * {@link SystemFailedException} naming each stuck system, its job (worker, chunks or
     * indices) and how long it ran, with a {@link java.util.concurrent.TimeoutException} as its
     * cause; the failing phase's pending commands are discarded as for any failure.
     *
     * <p>Why abandon and not stop: Java cannot end a thread safely ({@code Thread.stop} released
     * the thread's locks mid-update and is gone from Java 20 on), so a job that never looks at
     * its interrupt keeps its thread. If such a job ever returns, its thread ends at once, but
     * what it wrote to columns meanwhile raced with later runs: the deadline is a way to keep a
     * server up and report the bug, not a way to undo it. A job that runs on the calling
     * thread (on one worker every job does; with more, an exclusive system, a system too small
     * to split, or a job the caller took while waiting) cannot be ended this way. Call between
     * runs. After {@link #close} it is taken, as the other settings are, and ends nothing (no
     * run comes).
     *
     * @param nanos the deadline from the run's start, in nanoseconds, 0 for none
     * @throws IllegalArgumentException if {@code nanos} is negative (after close too)
     */
    void runDeadline(long nanos);

    /**
     * Reports every job from the next run on to {@code observer} ({@code null}: none); call between runs.
     *
     * @param observer called on the workers for every job, or {@code null} for none
     */
    void observe(JobObserver observer);

    /**
     * Totals of the command playbacks made at this executor's sync points, updated by each run; read between runs.
     *
     * @return the running totals since the executor was made
     */
    PlaybackReport commandTotals();

    /**
     * Threads that run jobs, counting the calling thread.
     *
     * @return the thread count, 1 to 256
     */
    int workerCount();

    /**
     * How each system is split into jobs, as decided so far, in graph order (see
     * {@link BatchDecision}; {@link BatchDecision#toText} prints them). Empty on one worker,
     * where every job runs on the calling thread. Call between runs; allocates the list.
     *
     * @return a new list, one decision per system in graph order; empty on one worker
     */
    List<BatchDecision> batching();

    /** Stops and joins the worker threads; the executor cannot run again. */
    @Override
    void close();
}
