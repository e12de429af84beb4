package dev.orrery.ecs;

import dev.orrery.surface.ModuleSurfaceContract;
import java.util.Map;
import java.util.Set;

/**
 * Module {@code dev.orrery.ecs}: the facade and the component vocabulary to everyone, the
 * layers below only to the Orrery modules that build on them; see {@link ModuleSurfaceContract}.
 */
class ModuleSurfaceTest extends ModuleSurfaceContract {
    private static final Set<String> ORRERY = Set.of("dev.orrery.scheduler", "dev.orrery.engine");

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
                "dev.orrery.ecs.access", ORRERY,
                "dev.orrery.ecs.archetype", ORRERY,
                "dev.orrery.ecs.hash", ORRERY,
                "dev.orrery.ecs.internal", ORRERY,
                "dev.orrery.ecs.ownership", ORRERY,
                "dev.orrery.ecs.prototype", ORRERY,
                "dev.orrery.ecs.storage", ORRERY,
                "dev.orrery.ecs.structure", ORRERY);
    }
}
