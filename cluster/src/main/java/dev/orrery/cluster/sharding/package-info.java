/**
 * The sharded world entity: {@link dev.orrery.cluster.sharding.WorldEntity} is the Pekko
 * actor that owns one world's {@code WorldRuntime} on the node where Cluster Sharding placed
 * it, ticks it from a fixed-rate timer on the node's world dispatcher
 * ({@code orrery.world-dispatcher}, not the one that carries heartbeats), answers inputs in the
 * protocol's three words (accepted once durable, refused, unknown), and on a hand-off
 * (rebalance, node leaving) closes the world with a snapshot so its next node replays
 * nothing.
 *
 * <p>Where a one-process world host would slot in: the entity would register its runtime
 * with the node's host and let the host's shared workers call {@code tick()} at the world's
 * rate, keeping only message handling (inputs, acknowledgements, hand-off) in the actor.
 *
 * <p>Neighbours: drives {@code dev.orrery.cluster.world}, speaks
 * {@code dev.orrery.cluster.protocol}; {@code dev.orrery.cluster.ClusterNode} registers it
 * with Cluster Sharding.
 *
 * <p><b>Threading:</b> an actor: its messages are handled one at a time, on varying
 * dispatcher threads, each handling happening-before the next.
 */
package dev.orrery.cluster.sharding;
