/**
 * The messages between clients and sharded worlds, and their Pekko serializer: a
 * {@link dev.orrery.cluster.protocol.SubmitInput} (client id, sequence, payload) is answered
 * by an {@link dev.orrery.cluster.protocol.InputReply} in three words: accepted at tick N
 * once durable, refused when it will never apply, unknown (send it again with the same
 * sequence); {@link dev.orrery.cluster.protocol.GetStatus} and
 * {@link dev.orrery.cluster.protocol.Hold} by a {@link dev.orrery.cluster.protocol.WorldStatus}.
 * {@link dev.orrery.cluster.protocol.ProtocolSerializer} writes them in a small binary form
 * (bound to {@link dev.orrery.cluster.protocol.WorldMessage} in the node's configuration), so
 * no general-purpose serializer (Java serialization, Jackson) is needed, and reads them as
 * hostile bytes: every length checked against the bytes present and a configured maximum
 * before anything is allocated.
 *
 * <p>Neighbours: used by {@code dev.orrery.cluster.sharding} (the entity) and
 * {@code dev.orrery.cluster} (the node's client methods); depends only on Pekko (typed actor
 * references, and the serializer's base class and configuration).
 *
 * <p><b>Threading:</b> messages are immutable records (a payload array is copied in and must
 * not be changed after sending); the serializer is thread-safe.
 */
package dev.orrery.cluster.protocol;
