/**
 * Orrery's cluster: worlds as sharded entities on Apache Pekko Cluster Sharding, restored on
 * another node from a shared store (snapshot plus journal) when they move. It reads the
 * engine and Pekko's typed actors transitively ({@code ClusterNode} hands out actor systems
 * and references); Pekko's jars are automatic modules named by their manifests.
 *
 * <p>What it holds: {@code dev.orrery.cluster} is the node; {@code cluster.sharding} the world
 * entity actor; {@code cluster.protocol} its messages and serializer; {@code cluster.world} a
 * world's incarnation (claim, restore, replay, durable ticks); {@code cluster.store} the
 * snapshots, journals and epochs behind the shared store. The demo runs it with
 * {@code --cluster}.
 */
module dev.orrery.cluster {
    requires transitive dev.orrery.engine;
    requires transitive pekko.actor.typed;
    requires transitive pekko.actor;
    requires pekko.cluster;
    requires pekko.cluster.typed;
    requires transitive pekko.cluster.sharding.typed;
    requires scala.library;
    requires typesafe.config;

    exports dev.orrery.cluster;
    exports dev.orrery.cluster.protocol;
    exports dev.orrery.cluster.sharding;
    exports dev.orrery.cluster.store;
    exports dev.orrery.cluster.world;
}
