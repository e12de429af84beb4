/**
 * Orrery's cluster: worlds as sharded entities on Apache Pekko Cluster Sharding, restored on
 * another node from a shared store (snapshot plus journal) when they move. It reads the
 * engine transitively; Pekko, Scala and the configuration library only for itself: no
 * exported signature names their types, so a user compiles against Orrery and the JDK.
 * Pekko's jars are automatic modules named by their manifests.
 *
 * <p>What it holds: {@code dev.orrery.cluster} is the node; {@code cluster.protocol} the
 * replies a world sends a client; {@code cluster.world} a world's incarnation (claim, restore,
 * replay, durable ticks); {@code cluster.store} the snapshots, journals and epochs behind the
 * shared store. Not exported: {@code cluster.sharding}, the world entity actor, its commands
 * and the protocol's serializer, opened to Pekko, which builds the serializer by name. The
 * demo runs it with {@code --cluster}.
 */
module dev.orrery.cluster {
    requires transitive dev.orrery.engine;
    requires pekko.actor.typed;
    requires pekko.actor;
    requires pekko.cluster;
    requires pekko.cluster.typed;
    requires pekko.cluster.sharding.typed;
    requires scala.library;
    requires typesafe.config;

    exports dev.orrery.cluster;
    exports dev.orrery.cluster.protocol;
    exports dev.orrery.cluster.store;
    exports dev.orrery.cluster.world;

    opens dev.orrery.cluster.sharding to pekko.actor;
}
