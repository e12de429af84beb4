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
    exports dev.orrery.scheduler.access;
    exports dev.orrery.scheduler.event;
    exports dev.orrery.scheduler.executor;
    exports dev.orrery.scheduler.flow;
    exports dev.orrery.scheduler.graph;
    exports dev.orrery.scheduler.resource;
    exports dev.orrery.scheduler.system;

    exports dev.orrery.scheduler.check to dev.orrery.engine;
}
