/**
 * Where a world's durable state lives while it moves between nodes: its snapshots, its input
 * journal segments and its epochs (the fence against an old writer), behind the small
 * {@link dev.orrery.cluster.store.WorldStore} interface, with
 * {@link dev.orrery.cluster.store.DirectoryWorldStore} keeping them in a directory that every
 * node mounts.
 *
 * <p>Neighbours: the store knows nothing of simulations or actors; it stores bytes, hands
 * out journal paths and deletes what it is told to. {@code dev.orrery.cluster.world} decides
 * which snapshot and which journal ticks are valid, and what retention deletes (see
 * {@code JournalHistory}).
 *
 * <p><b>Threading:</b> a store is shared by every world of a node and called from many
 * threads; implementations are thread-safe, and several nodes (processes) may use one store
 * at once.
 */
package dev.orrery.cluster.store;
