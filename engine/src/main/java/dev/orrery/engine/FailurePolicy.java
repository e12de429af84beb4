package dev.orrery.engine;

/**
 * What a {@link Simulation} does when a tick fails (a system throws, a sync point fails, a job
 * passes the tick deadline); set with
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
 * <p><b>Every failure of a tick, not only a system's.</b> The same policy covers:
 * <ul>
 *   <li>a sync point that fails: an observer hook throws, or a cascade of hooks is refused
 *       ({@link dev.orrery.ecs.ObserverCascadeException}, bounded by the commands it records,
 *       see {@link dev.orrery.ecs.World#observerCascadeLimit(int)}). The sync point's own
 *       commands were applied in full before its hooks fired, and stay with what the hooks
 *       that ran changed; the commands hooks recorded in the failing round are dropped, the
 *       rest of the phase does not run (a sync point before a system ends its phase there),
 *       and later phases do not run. {@code failure.system()} names the sync point
 *       ({@code "sync point ending phase Update"}, {@code "sync point before system 'b'"});
 *   <li>a system's run condition that throws: that system fails, as if it had thrown;
 *   <li>a job still out at the {@linkplain SimulationBuilder#tickDeadline tick deadline}:
 *       the stuck system fails (its worker is abandoned and replaced). Such a tick replays
 *       bit for bit only if the job was stuck before it wrote anything. A recording notes the
 *       skip but not the deadline, and a replay has no stuck job of its own to end: build the
 *       replaying simulation with the same deadline, and replay where the job sticks again.
 *       Without a deadline the replay waits for the job (for ever if it never returns); a job
 *       that does not stick runs that tick in full, which the replay reports as a divergence
 *       (a tick the recording skipped and the replay did not).
 * </ul>
 * Each failure's message ends by saying what the tick left: the structural changes applied at
 * its sync points before the failure, the pending commands discarded, the column values kept.
 * Strict command playback's {@link dev.orrery.ecs.RefusedCommandException} (on under
 * {@code -ea}, off by default) is not absorbed: it reports a recording bug, after the sync
 * point was applied in full, so the world is consistent when it reaches the caller.
 *
 * <p><b>Why a replay still matches.</b> Running P to its end makes the set of jobs that ran
 * independent of timing and of the worker count, and each job's work on its chunk is as
 * deterministic as any tick's; the buffers discarded are exactly P's. The failure thrown is
 * the one with the lowest (system, chunk), also independent of timing. A recording notes the
 * policy and every skipped tick with that system; the replay adopts the recorded policy,
 * skips the same ticks (a tick skipped in one and not the other is reported as a
 * divergence, and so is a tick both skipped because different systems failed: the journal
 * keeps the failing system's name, cut to 1 024 bytes of UTF-8, and the replay's is compared
 * cut the same way; it keeps no exception, so what the systems threw is not compared) and
 * checks the recorded hashes. One exception: a range system's job stops at
 * its first throwing index, and how indices are split into jobs depends on the worker count,
 * so a failing range system replays bit for bit only with the recorded worker count.
 */
public enum FailurePolicy {
    /**
     * The tick throws the {@link dev.orrery.scheduler.SystemFailedException} and the
     * caller decides (the default; right for tests). The executor stops handing out jobs at the
     * first failure, so which columns were written depends on timing. The tick does not count:
     * {@link Simulation#tick()} again runs it again, with the inputs the failed attempt was handed.
     * Nothing the failed attempt changed is undone: the columns it wrote, the structural changes
     * of the sync points it passed, a fixed-step phase's accumulator (advanced for the attempt,
     * so the retry adds another run's time) and a state transition it applied all stay, and the
     * retry starts from there. Use {@link #SKIP_TICK} where a run must replay bit for bit.
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
