/**
 * The sharded world entity and the Pekko side of its protocol; not exported, because no
 * user reaches it: {@code ClusterNode} registers the entity with Cluster Sharding and builds
 * every command it sends.
 *
 * <p>{@link dev.orrery.cluster.sharding.WorldEntity} is the Pekko actor that owns one world's
 * {@code WorldRuntime} on the node where Cluster Sharding placed it, ticks it from a
 * fixed-rate timer on the node's world dispatcher ({@code orrery.world-dispatcher}, not the
 * one that carries heartbeats), answers inputs in the protocol's three words (accepted once
 * durable, refused, unknown), and on a hand-off (rebalance, node leaving) closes the world
 * with a snapshot so its next node replays nothing. The commands it takes
 * ({@link dev.orrery.cluster.sharding.SubmitInput}, answered by an {@code InputReply};
 * {@link dev.orrery.cluster.sharding.GetStatus} and {@link dev.orrery.cluster.sharding.Hold},
 * by a {@code WorldStatus}) carry Pekko's reply-to actor references.
 * {@link dev.orrery.cluster.sharding.ProtocolSerializer} writes every
 * {@code dev.orrery.cluster.protocol.WorldMessage} in a small binary form and reads them as
 * hostile bytes: every length checked against the bytes present and a configured maximum
 * before anything is allocated. Pekko builds it by name from the node's configuration, so the
 * module opens this package to Pekko.
 *
 * <p>Where a one-process world host would slot in: the entity would register its runtime
 * with the node's host and let the host's shared workers call {@code tick()} at the world's
 * rate, keeping only message handling (inputs, acknowledgements, hand-off) in the actor.
 *
 * <p>Neighbours: drives {@code dev.orrery.cluster.world}, answers with
 * {@code dev.orrery.cluster.protocol}; {@code dev.orrery.cluster.ClusterNode} registers it
 * with Cluster Sharding.
 *
 * <p><b>Threading:</b> the entity is an actor: its messages are handled one at a time, on
 * varying dispatcher threads, each handling happening-before the next. Commands are
 * immutable records (a payload array is handed over and must not be changed after sending);
 * the serializer is thread-safe.
 */
package dev.orrery.cluster.sharding;
