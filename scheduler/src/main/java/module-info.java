/**
 * Orrery's scheduler: system declarations and their access sets, the dependency graph, the
 * systems users write, and the executors that run them as chunk jobs.
 *
 * <p>The facade is every package but {@code dev.orrery.scheduler.check} (the checked mode's
 * per-thread running access), which only the engine reads; the executors' internals are
 * package-private inside {@code dev.orrery.scheduler.executor}.
 */
module dev.orrery.scheduler {
    requires transitive dev.orrery.ecs;
    requires org.jctools.core;

    exports dev.orrery.scheduler;

    exports dev.orrery.scheduler.access to dev.orrery.engine, dev.orrery.explorer;
    exports dev.orrery.scheduler.check to dev.orrery.engine;
    exports dev.orrery.scheduler.event to dev.orrery.engine, dev.orrery.explorer;
    exports dev.orrery.scheduler.executor to dev.orrery.engine, dev.orrery.explorer, dev.orrery.testkit;
    exports dev.orrery.scheduler.flow to dev.orrery.engine, dev.orrery.explorer;
    exports dev.orrery.scheduler.graph to dev.orrery.engine, dev.orrery.explorer;
    exports dev.orrery.scheduler.internal to dev.orrery.engine, dev.orrery.explorer;
}
