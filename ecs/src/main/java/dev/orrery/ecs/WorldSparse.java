package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.storage.SparseColumn;
import dev.orrery.ecs.structure.EntityRows;
import dev.orrery.ecs.structure.SparseColumns;
import it.unimi.dsi.fastutil.longs.LongArrayList;

/**
 * The world's structural calls where sparse columns take part: a single add (value
 * checked before anything changes), spawns whose columns mix table and sparse storage
 * (the entity is placed in the archetype of its table columns, then joins its sparse sets;
 * its instance names are registered table columns first, then sparse ones, each in the
 * given order), and the bulk adds and removes that cannot move whole archetypes because the
 * column or the query's filter is sparse. {@code World} dispatches here after its checks
 * (owner thread, structure lock, entity alive), so that the table paths stay as they are.
 *
 * <p><b>Threading:</b> as the world: the owning thread, while the structure is unlocked.
 */
final class WorldSparse {
    private final World world;
    private final Archetypes archetypes;
    private final EntityRows rows;
    private final SparseColumns sparse;
    // Where a mixed spawn reads its sparse values once before anything changes (see checkSparseValues).
    private long[] probe = new long[8];

    WorldSparse(World world, Archetypes archetypes, EntityRows rows, SparseColumns sparse) {
        this.world = world;
        this.archetypes = archetypes;
        this.rows = rows;
        this.sparse = sparse;
    }

    /** True when one of {@code columns} is sparse. */
    static boolean holdsSparse(Component<?>[] columns) {
        for (Component<?> c : columns) {
            if (c.isSparse()) {
                return true;
            }
        }
        return false;
    }

    /** The archetype of the table columns among {@code columns}. */
    Archetype archetypeFor(Component<?>[] columns) {
        return archetypes.of(holdsSparse(columns) ? pick(columns, columns, false, Component<?>[]::new) : columns);
    }

    /** Adds sparse {@code column} to live {@code entity} (index {@code idx}), zeroed or holding {@code value}. */
    void add(int idx, long entity, Component<?> column, Object value) {
        if (value != null) {
            EntityRows.checkValueType(column, value);
        }
        SparseColumn set = sparse.of(column);
        int p = sparse.add(set, idx, entity, value == null); // a value is written over every field next
        if (value != null) {
            try {
                rows.writeValue(column, value, set.arrays(), p); // after the add: it may have grown the arrays
            } catch (RuntimeException | Error e) { // a record accessor that throws: the add did not happen
                sparse.remove(idx, column);
                throw e;
            }
        }
    }

    /** Spawns one entity holding table and sparse columns; {@code a} is the archetype of its table columns. */
    long spawnInto(Archetype a, Component<?>[] columns, Object[] values) {
        checkSparseValues(columns, values);
        long e = rows.spawnInto(a, pick(columns, columns, false, Component<?>[]::new),
                pick(columns, values, false, Object[]::new));
        joinSparse(e, columns, values);
        return e;
    }

    /** Spawns {@code n} entities holding table and sparse columns, every one with the same values. */
    long[] spawnManyInto(Archetype a, int n, Component<?>[] columns, Object[] values) {
        checkSparseValues(columns, values);
        long[] ids = rows.spawnManyInto(a, n, pick(columns, columns, false, Component<?>[]::new),
                pick(columns, values, false, Object[]::new));
        for (long e : ids) {
            joinSparse(e, columns, values);
        }
        return ids;
    }

    /**
     * Checks each sparse value's type and reads its fields once (into a reused scratch array),
     * before the spawn changes anything: a record accessor that throws then leaves no entity,
     * where a throw while the entity joins its sparse sets would leave it half made. The table
     * values are read as their row is written, which takes the row back if one throws.
     */
    private void checkSparseValues(Component<?>[] columns, Object[] values) {
        for (int i = 0; i < columns.length; i++) {
            if (columns[i].isSparse() && values[i] != null) {
                EntityRows.checkValueType(columns[i], values[i]);
                dev.orrery.ecs.structure.ProvisionalRefs.refuse(columns[i], values[i]);
                int fields = columns[i].type().fieldCount();
                if (probe.length < fields) {
                    probe = new long[Math.max(fields, probe.length * 2)];
                }
                rows.readBits(columns[i], values[i], probe, 0);
            }
        }
    }

    private void joinSparse(long e, Component<?>[] columns, Object[] values) {
        int idx = Entity.index(e);
        for (int i = 0; i < columns.length; i++) {
            if (columns[i].isSparse()) {
                add(idx, e, columns[i], values[i]);
            }
        }
    }

    /** The elements of {@code from} whose column is sparse ({@code sparseOnes}) or table. */
    private static <T> T[] pick(Component<?>[] columns, T[] from, boolean sparseOnes,
            java.util.function.IntFunction<T[]> make) {
        int n = 0;
        for (Component<?> c : columns) {
            if (c.isSparse() == sparseOnes) {
                n++;
            }
        }
        T[] out = make.apply(n);
        int k = 0;
        for (int i = 0; i < columns.length; i++) {
            if (columns[i].isSparse() == sparseOnes) {
                out[k++] = from[i];
            }
        }
        return out;
    }

    /**
     * Adds {@code column} (zeroed, or a tag) one entity at a time to every entity {@code query}
     * matches that lacks it; returns how many gained it. The observer events are only queued:
     * {@code World} fires them once, after the last entity, as the block path does, so a hook
     * that despawns or changes a later match (through its commands) acts after the call and
     * not in the middle of the list.
     */
    int addToAll(Query query, Component<?> column) {
        int n = 0;
        for (long e : matching(query)) {
            if (!world.has(e, column)) {
                int idx = world.requireAlive(e, "addToAll", column);
                if (column.isSparse()) {
                    add(idx, e, column, null);
                } else {
                    rows.add(idx, e, column, null); // queues the onAdd events; no hook runs here
                }
                n++;
            }
        }
        return n;
    }

    /**
     * Removes {@code column} one entity at a time from every entity {@code query} matches;
     * returns how many lost it. As {@link #addToAll}, the events (with each value a value hook
     * reads, taken as its row goes) are queued and {@code World} fires them after the call.
     */
    int removeFromAll(Query query, Component<?> column) {
        int n = 0;
        for (long e : matching(query)) {
            int idx = world.requireAlive(e, "removeFromAll", column);
            if (column.isSparse() ? sparse.remove(idx, column) : rows.remove(idx, e, column)) {
                n++;
            }
        }
        return n;
    }

    private static long[] matching(Query query) {
        LongArrayList ids = new LongArrayList();
        query.forEach((view, row) -> ids.add(view.entity(row)));
        return ids.toLongArray();
    }
}
