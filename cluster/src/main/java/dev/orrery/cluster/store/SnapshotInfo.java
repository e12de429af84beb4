package dev.orrery.cluster.store;

/**
 * A stored snapshot of a world: the tick it was taken before (the next tick to run after a
 * restore) and the epoch of the incarnation that wrote it.
 *
 * @param tick the simulation's {@code currentTick()} when the snapshot was taken
 * @param epoch the epoch of the writer
 */
public record SnapshotInfo(long tick, long epoch) {
}
