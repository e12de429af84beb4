/**
 * What a world answers a client: an {@link dev.orrery.cluster.protocol.InputReply} to an
 * input, in three words (accepted at tick N once durable, refused when it will never apply,
 * unknown: send it again with the same sequence), and a
 * {@link dev.orrery.cluster.protocol.WorldStatus} (where the world runs, its tick and state
 * hash, what its last move cost). {@code ClusterNode} and {@code WorldClient} return them;
 * {@link dev.orrery.cluster.protocol.WorldMessage} marks every message of the world protocol,
 * which the node's configuration binds to the protocol's own binary serializer (no Java
 * serialization, no Jackson).
 *
 * <p>The commands a world entity takes (an input, a status request, a hold), which carry
 * Pekko's reply-to actor references, and the serializer, a Pekko class, sit in the
 * non-exported {@code dev.orrery.cluster.sharding}: this package names no Pekko type, so code
 * that reads a reply compiles against Orrery and the JDK alone.
 *
 * <p>Neighbours: returned by {@code dev.orrery.cluster} (the node's client methods), sent by
 * {@code dev.orrery.cluster.sharding} (the entity); depends on nothing else.
 *
 * <p><b>Threading:</b> immutable records, safe to share between threads.
 */
package dev.orrery.cluster.protocol;
