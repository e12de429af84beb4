package dev.orrery.testkit;

import dev.orrery.surface.ModuleSurfaceContract;
import java.util.Map;
import java.util.Set;

/**
 * Module {@code dev.orrery.testkit}: the determinism check, golden recordings and the recording
 * comparison, to everyone, and nothing else; see {@link ModuleSurfaceContract}.
 */
class ModuleSurfaceTest extends ModuleSurfaceContract {
    @Override
    protected Class<?> anchor() {
        return DeterminismCheck.class;
    }

    @Override
    protected Set<String> exportedToAll() {
        return Set.of("dev.orrery.testkit");
    }

    @Override
    protected Map<String, Set<String>> qualifiedExports() {
        return Map.of();
    }
}
