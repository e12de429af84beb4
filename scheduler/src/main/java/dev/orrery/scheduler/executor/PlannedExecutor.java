package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.ScheduleExecutor;

/**
 * An executor together with the plan it runs: what Orrery's engine, tools and tests read of an
 * executor beyond the user's {@link ScheduleExecutor}. Both executors implement it.
 *
 * <p><b>Threading:</b> {@link #plan()} is immutable once the executor is built;
 * {@link #activity()} says its own; the rest as {@link ScheduleExecutor} says.
 */
public interface PlannedExecutor extends ScheduleExecutor {
    /** The plan this executor runs. */
    ExecutionPlan plan();

    /**
     * What the owner thread does outside jobs (a run condition, a sync point), for a tick
     * watchdog; see {@link OwnerActivity}. The same object for the executor's life.
     */
    OwnerActivity activity();

    /**
     * Calls {@code hook} after each system of every run from now on ({@code null}: stops), for
     * diagnostics; call between runs.
     *
     * @throws UnsupportedOperationException on an executor that runs systems side by side
     */
    default void afterEachSystem(SystemHook hook) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " runs systems side by side, so there is no "
                + "world between one system and the next; use a single-threaded executor (1 worker) for this diagnostic");
    }

    /**
     * An executor for {@code plan}: the single-threaded one when {@code workers == 1}, else
     * the parallel one with {@code workers} threads (the caller's counted).
     */
    static PlannedExecutor create(ExecutionPlan plan, int workers) {
        return workers == 1 ? new SingleThreadedExecutor(plan) : new ParallelExecutor(plan, workers);
    }
}
