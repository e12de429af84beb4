package dev.orrery.ecs.archetype;

/** Computes the sort key of one row, for {@link RowSort#sortRows} ({@code World.sortRows}). */
@FunctionalInterface
public interface RowKey {
    /** The key of row {@code row} of {@code chunk}; rows are ordered by ascending key. */
    long key(Chunk chunk, int row);
}
