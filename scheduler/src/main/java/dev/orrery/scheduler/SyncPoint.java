package dev.orrery.scheduler;

import dev.orrery.ecs.World;

/**
 * The hook where deferred work (the per-worker command buffers of structural changes) is
 * applied. The executor calls it at the end of each phase and at the end of the run, when
 * no job is running and the world's structure is unlocked, so it may change the world's
 * structure directly. Every method does nothing by default.
 *
 * <p><b>Threading:</b> every method is called on the thread that called
 * {@link dev.orrery.scheduler.ScheduleExecutor#run}. Everything the jobs of the phase did happens-before the
 * call (the executor has received each job's completion through a queue), and everything
 * the call does happens-before the jobs of the next phase (they are handed out after it).
 */
public interface SyncPoint {
    /** A sync point that does nothing. */
    SyncPoint NONE = new SyncPoint() {
    };

    /**
     * Every system of {@code phase} has finished; {@code world} may be changed structurally.
     *
     * @param phase the phase that just finished
     * @param world the schedule's world, its structure unlocked for this call
     */
    default void afterPhase(Phase phase, World world) {
    }

    /**
     * Every phase has finished (called after the last {@link #afterPhase}).
     *
     * @param world the schedule's world, its structure unlocked for this call
     */
    default void afterRun(World world) {
    }

    /**
     * A system failed and the run stopped; called after the running jobs finished and
     * before {@code failure} is thrown to the caller, so deferred work recorded since the
     * last sync point can be discarded (or kept) as the owner decides.
     *
     * @param failure the exception the run is about to throw, naming the system
     * @param world the schedule's world, no job running on it
     */
    default void afterFailure(SystemFailedException failure, World world) {
    }
}
