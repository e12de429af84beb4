package dev.orrery.engine;

/**
 * What a {@link Simulation} does when a system throws during a tick; set with
 * {@link SimulationBuilder#onSystemFailure(FailurePolicy)}.
 *
 * <p><b>What a skipped tick leaves.</b> A tick runs its phases in order, and each phase's
 * systems write columns in place while their structural changes wait in command buffers
 * until the phase's sync point. When a system of phase P throws under {@link #SKIP_TICK}:
 * <ul>
 *   <li>the phases before P ran completely: their column writes and their structural
 *       changes (applied at their sync points) stay;
 *   <li>phase P runs to its end: every job of every system in P runs, on every chunk, and a
 *       failing job goes on with its next chunk. Column writes of P stay, including what the
 *       failing chunk wrote before it threw; structural changes applied inside P (before an
 *       exclusive system or one declared {@code afterStructuralChanges()}) stay; the command
 *       buffers still pending at P's end are discarded;
 *   <li>the phases after P do not run this tick;
 *   <li>the tick counts: its inputs were consumed (and journaled), the clock moves on, the
 *       state hash is taken as after any tick, and the next tick runs normally.
 * </ul>
 * So a skipped tick is not undone: it is a tick in which part of the schedule ran. Undoing
 * it would mean copying every column every tick.
 *
 * <p><b>Why a replay still matches.</b> Running P to its end makes the set of jobs that ran
 * independent of timing and of the worker count, and each job's work on its chunk is as
 * deterministic as any tick's; the buffers discarded are exactly P's. The failure thrown is
 * the one with the lowest (system, chunk), also independent of timing. A recording notes the
 * policy and every skipped tick with that system; the replay adopts the recorded policy,
 * skips the same ticks (a tick skipped in one and not the other is reported as a
 * divergence) and checks the recorded hashes. One exception: a range system's job stops at
 * its first throwing index, and how indices are split into jobs depends on the worker count,
 * so a failing range system replays bit for bit only with the recorded worker count.
 */
public enum FailurePolicy {
    /**
     * The tick throws the {@link dev.orrery.scheduler.SystemFailedException} and the
     * caller decides (the default; right for tests). The executor stops handing out jobs at the
     * first failure, so which columns were written depends on timing.
     */
    STOP,
    /**
     * The tick is skipped as described above: the failure is counted
     * ({@link Simulation#skippedTicks()}), emitted as a {@code dev.orrery.SkippedTick} JFR
     * event, reported to the {@link Simulation.FailureListener} (once per system by default),
     * noted in a recording, and the simulation goes on.
     */
    SKIP_TICK
}
