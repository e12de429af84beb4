package dev.orrery.ecs.component;

/**
 * Where a column's values live. Chosen once, when the column is registered
 * ({@code World.component(Marker.class, Storage.SPARSE)}); the default is {@link #TABLE}.
 *
 * <p>Choose {@link #SPARSE} for components that are added and removed often on a few
 * entities at a time: status effects ("Burning", "Stunned"), markers, "can see player",
 * per-tick flags. Adding or removing a sparse column never moves the entity's row, so it
 * costs about as much as a hash-free set insert, whatever else the entity holds. Choose
 * {@link #TABLE} (the default) for everything read in hot loops: only table columns are
 * handed to chunk loops as plain arrays, and a query that requires or excludes a sparse
 * column must visit entities one by one ({@code Query.forEach}).
 */
public enum Storage {
    /**
     * In the entity's archetype, one array per field per chunk: the fastest to iterate;
     * adding or removing it moves the entity's row to another archetype.
     */
    TABLE,
    /**
     * In a per-column sparse set beside the archetypes (dense field arrays, dense entity
     * ids, an entity-index table): adding or removing it is O(1) and never moves the
     * entity's row; it never appears in an archetype, so a chunk loop cannot filter by it.
     */
    SPARSE
}
