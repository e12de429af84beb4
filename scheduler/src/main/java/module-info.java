/**
 * Orrery's scheduler: system declarations and their access sets, the dependency graph, the
 * systems users write, and the executors that run them as chunk jobs.
 *
 * <p>The facade, exported to everyone, is {@code dev.orrery.scheduler}: {@code Schedule} and
 * its builders, resource keys, jobs, events, states, fixed timesteps and sums. The layers
 * below it (declared access, the graph, the executors, events and flow, the checked mode) are
 * exported only to the Orrery modules that build on them.
 *
 * <p>Neighbours: it depends on {@code dev.orrery.ecs} (read transitively, and its storage
 * through the packages the ecs exports to the scheduler only) and JCTools;
 * {@code dev.orrery.engine} builds its tick loop on it.
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
