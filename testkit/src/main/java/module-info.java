/**
 * Orrery's determinism test kit: runs a game's own simulation on several worker counts and
 * forced batch sizes, through a snapshot and restore and through record and replay, compares
 * the state hash on every tick, and on a difference names the first tick, the system after
 * which the worlds first differ, and the entities, components and fields that differ. Use it
 * from a JUnit 5 test in test scope ({@code orrery-testkit}).
 *
 * <p>Neighbours: it depends on the engine (and through it the scheduler and the ecs), and
 * reaches past their user packages only through the packages exported to it: the engine's
 * door to a simulation's executor ({@code dev.orrery.engine.internal}), the journal format
 * ({@code dev.orrery.engine.journal}) and the scheduler's executors
 * ({@code dev.orrery.scheduler.executor}: forced batch sizes, reversed job and tie orders, the
 * per-system hook).
 */
module dev.orrery.testkit {
    requires transitive dev.orrery.engine;

    exports dev.orrery.testkit;
}
