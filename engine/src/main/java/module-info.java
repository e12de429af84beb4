/**
 * Orrery's engine, the module a typical user requires: the simulation and its tick loop,
 * resources, a host ticking many simulations on one pool, the input pipeline, the journal, record and replay, counter-based randomness,
 * JFR events and Chrome traces. It reads the scheduler and the ecs transitively, so
 * {@code requires dev.orrery.engine;} is enough.
 *
 * <p>Neighbours: it depends on the scheduler (and through it the ecs) and the LMAX Disruptor;
 * the explorer, the test kit and the cluster build on it, each reaching only the internal
 * packages exported to it.
 */
module dev.orrery.engine {
    requires transitive dev.orrery.scheduler;
    requires transitive jdk.jfr;
    requires com.lmax.disruptor;

    exports dev.orrery.engine;
    exports dev.orrery.engine.host;

    exports dev.orrery.engine.internal to dev.orrery.testkit, dev.orrery.cluster, dev.orrery.explorer;
    exports dev.orrery.engine.jfr to jdk.jfr;
    exports dev.orrery.engine.journal to dev.orrery.explorer, dev.orrery.cluster, dev.orrery.testkit;
}
