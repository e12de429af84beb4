/**
 * Orrery's cluster: worlds as sharded entities on Apache Pekko Cluster Sharding, restored on
 * another node from a shared store (snapshot plus journal) when they move. It reads the
 * engine and Pekko's typed actors transitively ({@code ClusterNode} hands out actor systems
 * and references); Pekko's jars are automatic modules named by their manifests.
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
