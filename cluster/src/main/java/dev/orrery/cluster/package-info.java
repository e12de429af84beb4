/**
 * Orrery worlds across machines on Apache Pekko Cluster Sharding: a
 * {@link dev.orrery.cluster.ClusterNode} joins a cluster, runs the worlds sharding places on
 * it and routes a client's inputs by world id to whichever node holds the world;
 * {@link dev.orrery.cluster.NodeSettings} says where it binds, which seed nodes it joins,
 * how a dead node is detected and downed, and how worlds tick;
 * {@link dev.orrery.cluster.WorldClient} sends each input until it is accepted or refused,
 * so it applies exactly once.
 *
 * <p>The layers below: {@code dev.orrery.cluster.sharding} (the world entity actor, its
 * commands and the protocol's serializer; not exported),
 * {@code dev.orrery.cluster.protocol} (the replies a world sends),
 * {@code dev.orrery.cluster.world} (a world's incarnation: restore, replay, durable ticks)
 * and {@code dev.orrery.cluster.store} (snapshots, journals and epochs behind
 * {@code WorldStore}).
 *
 * <p>The node's public signatures name only Orrery and JDK types; Pekko stays inside it.
 *
 * <p><b>Threading:</b> a node's methods may be called from any thread; replies complete on
 * Pekko's threads.
 */
package dev.orrery.cluster;
