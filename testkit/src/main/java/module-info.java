/**
 * Orrery's determinism test kit: runs a game's own simulation on several worker counts and
 * forced batch sizes, through a snapshot and restore and through record and replay, compares
 * the state hash on every tick, and on a difference names the first tick, the system after
 * which the worlds first differ, and the entities, components and fields that differ. Use it
 * from a JUnit 5 test in test scope ({@code orrery-testkit}).
 */
module dev.orrery.testkit {
    requires transitive dev.orrery.engine;

    exports dev.orrery.testkit;
}
