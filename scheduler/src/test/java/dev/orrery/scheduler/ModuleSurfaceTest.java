package dev.orrery.scheduler;

import dev.orrery.surface.ModuleSurfaceContract;
import java.util.Map;
import java.util.Set;

/**
 * Module {@code dev.orrery.scheduler}: the schedule, the systems users write and what they receive, resources, events and flow to everyone; the graph, access sets, executors and flow internals only to the engine and the explorer; see {@link ModuleSurfaceContract}.
 */
class ModuleSurfaceTest extends ModuleSurfaceContract {
    private static final Set<String> ENGINE_AND_EXPLORER = Set.of("dev.orrery.engine", "dev.orrery.explorer");

    @Override
    protected Class<?> anchor() {
        return Schedule.class;
    }

    @Override
    protected Set<String> exportedToAll() {
        return Set.of("dev.orrery.scheduler");
    }

    @Override
    protected Map<String, Set<String>> qualifiedExports() {
        return Map.of(
                "dev.orrery.scheduler.access", ENGINE_AND_EXPLORER,
                "dev.orrery.scheduler.check", Set.of("dev.orrery.engine"),
                "dev.orrery.scheduler.event", ENGINE_AND_EXPLORER,
                "dev.orrery.scheduler.executor", Set.of("dev.orrery.engine", "dev.orrery.explorer", "dev.orrery.testkit"),
                "dev.orrery.scheduler.flow", ENGINE_AND_EXPLORER,
                "dev.orrery.scheduler.graph", ENGINE_AND_EXPLORER,
                "dev.orrery.scheduler.internal", ENGINE_AND_EXPLORER);
    }
}
