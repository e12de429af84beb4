package dev.orrery.ecs;

import dev.orrery.surface.ModuleSurfaceContract;
import java.util.Map;
import java.util.Set;

/**
 * Module {@code dev.orrery.ecs}: the facade and the component vocabulary to everyone, each
 * package below only to the Orrery modules that use it (the engine's archetype, prototype and
 * storage uses are its tests'), the state hash to no one; see {@link ModuleSurfaceContract}.
 */
class ModuleSurfaceTest extends ModuleSurfaceContract {
    private static final Set<String> SCHEDULER = Set.of("dev.orrery.scheduler");
    private static final Set<String> SCHEDULER_AND_ENGINE = Set.of("dev.orrery.scheduler", "dev.orrery.engine");

    @Override
    protected Class<?> anchor() {
        return World.class;
    }

    @Override
    protected Set<String> exportedToAll() {
        return Set.of("dev.orrery.ecs", "dev.orrery.ecs.component");
    }

    @Override
    protected Map<String, Set<String>> qualifiedExports() {
        return Map.of(
                "dev.orrery.ecs.access", SCHEDULER,
                "dev.orrery.ecs.archetype", SCHEDULER_AND_ENGINE,
                "dev.orrery.ecs.internal", SCHEDULER_AND_ENGINE,
                "dev.orrery.ecs.ownership", SCHEDULER,
                "dev.orrery.ecs.prototype", Set.of("dev.orrery.engine"),
                "dev.orrery.ecs.storage", SCHEDULER_AND_ENGINE,
                "dev.orrery.ecs.structure", SCHEDULER_AND_ENGINE);
    }
}
