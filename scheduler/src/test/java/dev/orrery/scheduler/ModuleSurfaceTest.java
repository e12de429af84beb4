package dev.orrery.scheduler;

import dev.orrery.surface.ModuleSurfaceContract;
import java.util.Map;
import java.util.Set;

/**
 * Module {@code dev.orrery.scheduler}: the schedule, the systems users write and what they receive, resources, events and flow to everyone; access sets and event channels only to the engine, the graph and the internal door only to the engine and the explorer, the executors only to those and the test kit; the phase rules only to the engine; the checked mode to no one; see {@link ModuleSurfaceContract}.
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
                "dev.orrery.scheduler.access", Set.of("dev.orrery.engine"),
                "dev.orrery.scheduler.event", Set.of("dev.orrery.engine"),
                "dev.orrery.scheduler.executor", Set.of("dev.orrery.engine", "dev.orrery.explorer", "dev.orrery.testkit"),
                "dev.orrery.scheduler.flow", Set.of("dev.orrery.engine"),
                "dev.orrery.scheduler.graph", ENGINE_AND_EXPLORER,
                "dev.orrery.scheduler.internal", ENGINE_AND_EXPLORER);
    }
}
