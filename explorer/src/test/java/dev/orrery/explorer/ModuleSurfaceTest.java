package dev.orrery.explorer;

import dev.orrery.surface.ModuleSurfaceContract;
import java.util.Map;
import java.util.Set;

/**
 * Module {@code dev.orrery.explorer}: the explorer endpoint to everyone, nothing else; see {@link ModuleSurfaceContract}.
 */
class ModuleSurfaceTest extends ModuleSurfaceContract {

    @Override
    protected Class<?> anchor() {
        return Explorer.class;
    }

    @Override
    protected Set<String> exportedToAll() {
        return Set.of("dev.orrery.explorer");
    }

    @Override
    protected Map<String, Set<String>> qualifiedExports() {
        return Map.of();
    }
}
