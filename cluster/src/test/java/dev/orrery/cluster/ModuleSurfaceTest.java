package dev.orrery.cluster;

import dev.orrery.surface.ModuleSurfaceContract;
import java.util.Map;
import java.util.Set;

/**
 * Module {@code dev.orrery.cluster}: the node, the replies of its protocol, the store and the
 * world runtime, to everyone (the sharded world entity, its commands and serializer to no one);
 * see {@link ModuleSurfaceContract}.
 */
class ModuleSurfaceTest extends ModuleSurfaceContract {
    @Override
    protected Class<?> anchor() {
        return ClusterNode.class;
    }

    @Override
    protected Set<String> exportedToAll() {
        return Set.of("dev.orrery.cluster", "dev.orrery.cluster.protocol", "dev.orrery.cluster.store",
                "dev.orrery.cluster.world");
    }

    @Override
    protected Map<String, Set<String>> qualifiedExports() {
        return Map.of();
    }

    /**
     * None: no exported signature names a Pekko, Scala or config type. The node's stages are of
     * {@code Void}; the world entity, its commands (which carry Pekko's actor references) and the
     * protocol's serializer (a Pekko class) sit in {@code dev.orrery.cluster.sharding}, which is
     * not exported.
     */
    @Override
    protected Set<String> packagesNamingLibraryTypesOnPurpose() {
        return Set.of();
    }
}
