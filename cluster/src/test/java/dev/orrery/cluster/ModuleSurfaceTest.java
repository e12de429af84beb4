package dev.orrery.cluster;

import dev.orrery.surface.ModuleSurfaceContract;
import java.util.Map;
import java.util.Set;

/**
 * Module {@code dev.orrery.cluster}: the node, its protocol, the sharded world entity, the store
 * and the world runtime, to everyone; see {@link ModuleSurfaceContract}.
 */
class ModuleSurfaceTest extends ModuleSurfaceContract {
    @Override
    protected Class<?> anchor() {
        return ClusterNode.class;
    }

    @Override
    protected Set<String> exportedToAll() {
        return Set.of("dev.orrery.cluster", "dev.orrery.cluster.protocol", "dev.orrery.cluster.sharding",
                "dev.orrery.cluster.store", "dev.orrery.cluster.world");
    }

    @Override
    protected Map<String, Set<String>> qualifiedExports() {
        return Map.of();
    }

    /**
     * The node's package names no Pekko type ({@code leave()} and {@code crash()} return stages
     * of {@code Void}). The protocol's actor messages and serializer and the world entity still
     * show Pekko's types; they stay listed here only until they leave the exported surface.
     */
    @Override
    protected Set<String> packagesNamingLibraryTypesOnPurpose() {
        return Set.of("dev.orrery.cluster.protocol", "dev.orrery.cluster.sharding");
    }
}
