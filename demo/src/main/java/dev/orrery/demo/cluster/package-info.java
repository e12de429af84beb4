/**
 * The demo as a cluster node ({@code --cluster}): arena worlds run as sharded entities of an
 * Orrery cluster ({@code dev.orrery.cluster}), each restored from the shared store when it
 * moves between nodes.
 *
 * <p>Neighbours: builds worlds with {@code dev.orrery.demo.arena}; started by
 * {@code dev.orrery.demo.Main}.
 *
 * <p><b>Threading:</b> the node's progress loop runs on the calling thread; worlds tick on
 * Pekko's dispatcher.
 */
package dev.orrery.demo.cluster;
