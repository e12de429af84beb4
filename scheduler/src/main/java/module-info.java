/**
 * Orrery's scheduler: system declarations and their access sets, the dependency graph, the
 * systems users write, and the executors that run them as chunk jobs.
 *
 * <p>The facade, exported to everyone, is {@code dev.orrery.scheduler}: {@code Schedule} and
 * its builders, resource keys, jobs, events, states, fixed timesteps and sums. The layers
 * below it are exported only to the Orrery modules that use them, each package to those that
 * do: declared access, the event channels and the phase rules to the engine; the graph and
 * the internal door to the engine and the explorer; the executors to those and the test kit.
 * The checked mode ({@code scheduler.check}) is used only inside the scheduler and exported
 * to no module.
 *
 * <p>Neighbours: it depends on {@code dev.orrery.ecs} (read transitively, and its storage
 * through the packages the ecs exports to Orrery modules only) and JCTools;
 * {@code dev.orrery.engine} builds its tick loop on it.
 */
module dev.orrery.scheduler {
    requires transitive dev.orrery.ecs;
    requires org.jctools.core;

    exports dev.orrery.scheduler;

    // Each package to the modules that use it (what the compiler asks: the engine reaches
    // scheduler.flow only through SystemGraph.phaseRule, never importing it); the checked mode
    // (scheduler.check) is the scheduler's own and exported to no one.
    exports dev.orrery.scheduler.access to dev.orrery.engine;
    exports dev.orrery.scheduler.event to dev.orrery.engine;
    exports dev.orrery.scheduler.flow to dev.orrery.engine;
    exports dev.orrery.scheduler.executor to dev.orrery.engine, dev.orrery.explorer, dev.orrery.testkit;
    exports dev.orrery.scheduler.graph to dev.orrery.engine, dev.orrery.explorer;
    exports dev.orrery.scheduler.internal to dev.orrery.engine, dev.orrery.explorer;
}
