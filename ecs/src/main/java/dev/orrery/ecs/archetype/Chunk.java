package dev.orrery.ecs.archetype;

import dev.orrery.ecs.component.Component;
import java.util.Arrays;

/**
 * A block of rows of one archetype, stored as structure of arrays: for each
 * column of the archetype, one array per field ({@code float[] x}, {@code float[] y}, ...),
 * plus the entity id of each row. Rows {@code [0, size)} are live and dense: removal swaps
 * the archetype's last row into the hole.
 *
 * <p>Systems do not use this class directly; they read columns through a
 * {@code dev.orrery.ecs.ChunkView}, which checks what they declared.
 *
 * <p><b>Threading:</b> the arrays may be read and written by many threads at once only as
 * the scheduler arranges (disjoint chunks, or read-only sharing); {@link #size()} changes
 * only at structural changes, which no job runs beside.
 */
public final class Chunk {
    /** {@code uniformStamp} when the versions differ between slots, or may. */
    private static final long NONE = Long.MIN_VALUE;

    private final Archetype archetype;
    private final int index;
    long[] entities;
    final Object[][] data;
    // Every field array of the row, slot after slot (the archetype's flat field layout), so
    // a single-row move addresses a field with one index; the same arrays as data[s][f].
    final Object[] fields;
    // The float, int, long and double field arrays again, by their index within their type
    // (Archetype.typedIndex), so a row copy needs no cast: see FieldCopies.
    final float[][] floats;
    final int[][] ints;
    final long[][] longs;
    final double[][] doubles;
    int size;
    /**
     * Rows at or past this index have never held data since the chunk's arrays were made
     * (they are still all zero), so appending there needs no clearing. Raised by every
     * append ({@link #appended}); never lowered, since a removed row's data stays behind.
     */
    int touched;
    // Change versions per slot (see ChangeClock): the tick of the last append into the chunk
    // that may have brought the column (added) and of the last write or append (changed).
    final long[] added;
    final long[] changed;
    // The tick every slot's added and changed versions equal, when stampArrival set them all
    // to it and nothing has moved one since; NONE otherwise. A chunk that takes many rows in one
    // tick (a spawn loop, a run of adds) then stamps its versions once, not once per row.
    private long uniformStamp = NONE;
    // Counts the changes to added and changed (any slot), so another chunk can tell whether this
    // one's versions moved since it last carried them. Raised by the jobs that stamp the chunk
    // (at most once per slot and tick; two jobs stamping different slots of one chunk may race
    // on it, but every racing increment still leaves it above the value read before the jobs,
    // which is all a comparison needs) and by structural changes; read at structural changes,
    // after the jobs, which the scheduler's job-completion signal orders.
    private long versionWrites;
    // The chunk (its index in the archetype) whose versions this one last carried, and that
    // chunk's versionWrites then: while both still hold, this chunk's versions are at least
    // that chunk's in every slot (markChanged and carrying only raise its own; stampArrival and
    // restoreVersions may lower them and clear this), so carrying from it again changes
    // nothing. -1: none. A swap-remove carries the last chunk's versions into the hole's chunk:
    // a run of despawns does it once per chunk instead of once per despawn.
    private int carriedFrom = -1;
    private long carriedWrites;
    // Per-row versions of the row-tracked slots (Component.rowsTracked), null for the others;
    // null itself when the archetype tracks no rows, so untracked chunks pay one null check.
    // Set at construction, or by trackRows while the chunk is empty (set-up, owning thread).
    RowVersions[] rows;

    Chunk(Archetype archetype, int index, int capacity) {
        this.archetype = archetype;
        this.index = index;
        this.entities = new long[capacity];
        Component<?>[] cols = archetype.componentArray();
        this.data = new Object[cols.length][];
        for (int s = 0; s < cols.length; s++) {
            data[s] = cols[s].type().newArrays(capacity);
        }
        this.fields = new Object[archetype.fieldCount()];
        this.floats = new float[archetype.typedCount(0)][];
        this.ints = new int[archetype.typedCount(1)][];
        this.longs = new long[archetype.typedCount(2)][];
        this.doubles = new double[archetype.typedCount(3)][];
        this.added = new long[cols.length];
        this.changed = new long[cols.length];
        RowVersions[] tracked = null;
        for (int s = 0; s < cols.length; s++) {
            if (cols[s].rowsTracked()) {
                tracked = tracked == null ? new RowVersions[cols.length] : tracked;
                tracked[s] = new RowVersions(capacity);
            }
        }
        this.rows = tracked;
        flatten();
    }

    /** Starts per-row versions for slot {@code slot}; the chunk holds no row (its archetype checked). */
    void trackRows(int slot) {
        RowVersions[] r = rows == null ? new RowVersions[data.length] : rows;
        if (r[slot] == null) {
            r[slot] = new RowVersions(entities.length);
        }
        rows = r;
    }

    private void flatten() {
        int k = 0;
        for (Object[] arrays : data) {
            for (Object array : arrays) {
                int t = archetype.typedIndex(k);
                if (array instanceof float[] f) {
                    floats[t] = f;
                } else if (array instanceof int[] i) {
                    ints[t] = i;
                } else if (array instanceof long[] l) {
                    longs[t] = l;
                } else if (array instanceof double[] d) {
                    doubles[t] = d;
                }
                fields[k++] = array;
            }
        }
    }

    /**
     * Grows the row capacity to {@code capacity}, keeping the rows. Only an archetype's first
     * chunk grows (so small archetypes stay small); it happens at structural changes only,
     * when no view holds the old arrays.
     */
    void grow(int capacity) {
        entities = Arrays.copyOf(entities, capacity);
        Component<?>[] cols = archetype.componentArray();
        for (int s = 0; s < cols.length; s++) {
            Object[] arrays = data[s];
            for (int f = 0; f < arrays.length; f++) {
                Object bigger = cols[s].type().fieldType(f).newArray(capacity);
                System.arraycopy(arrays[f], 0, bigger, 0, size);
                arrays[f] = bigger;
            }
        }
        if (rows != null) {
            for (RowVersions r : rows) {
                if (r != null) {
                    r.grow(capacity);
                }
            }
        }
        flatten();
    }

    /** Records that rows below {@code size} now hold data (call after every append). */
    void appended() {
        if (size > touched) {
            touched = size;
        }
    }

    /**
     * Stamps every column added and changed at {@code tick}: rows {@code [from, to)} arrived
     * (a spawn or a move); row-tracked columns stamp those rows too.
     */
    void stampArrival(long tick, int from, int to) {
        if (uniformStamp != tick) {
            java.util.Arrays.fill(added, tick);
            java.util.Arrays.fill(changed, tick);
            uniformStamp = tick;
            versionWrites++;
            carriedFrom = -1; // an older tick (a clock set back) would have lowered versions carried before
        }
        if (rows != null) {
            for (RowVersions r : rows) {
                for (int row = from; r != null && row < to; row++) {
                    r.stamp(row, tick, size);
                }
            }
        }
    }

    /**
     * Row {@code fromRow} of {@code from} moved into row {@code row} of this chunk by
     * swap-remove at tick {@code now}: it takes its row versions along, and this chunk's logs
     * no longer cover the row's history.
     */
    void rowMovedIn(int row, Chunk from, int fromRow, long now) {
        if (rows == null) {
            return;
        }
        for (int s = 0; s < rows.length; s++) {
            if (rows[s] != null) {
                long moved = from.rows[s].versionOf(fromRow);
                rows[s].forget(now);
                rows[s].version[row] = moved;
            }
        }
    }

    /** True when column slot {@code slot} keeps a changed version per row. */
    public boolean tracksRows(int slot) {
        return rows != null && rows[slot] != null;
    }

    /**
     * The tick at which row {@code row} of column slot {@code slot} was last written or
     * arrived; the chunk's version for a slot that does not track rows.
     */
    public long rowVersion(int slot, int row) {
        return tracksRows(slot) ? rows[slot].versionOf(row) : changed[slot];
    }

    /**
     * Marks row {@code row} of column slot {@code slot} written at {@code tick}: the chunk's
     * version, and the row's when the slot tracks rows. Call it from the thread that owns
     * the chunk (its job, or the thread applying structural changes); other jobs use
     * {@link #markRowChangedUnlogged}.
     */
    public void markRowChanged(int slot, int row, long tick) {
        markChanged(slot, tick);
        if (rows != null && rows[slot] != null) {
            rows[slot].stamp(row, tick, size);
        }
    }

    /**
     * Marks every live row of column slot {@code slot} written at {@code tick} (a write
     * accessor, which may have written any row): the chunk's version, and every row's when
     * the slot tracks rows.
     */
    public void markAllRowsChanged(int slot, long tick) {
        markChanged(slot, tick);
        if (rows != null && rows[slot] != null) {
            rows[slot].stampAll(size, tick);
        }
    }

    /**
     * {@link #markRowChanged} for a job that does not own this chunk (a by-id write into
     * another chunk): the versions are stamped, the row log is not (readers that last ran
     * before {@code tick} scan the row versions once).
     */
    public void markRowChangedUnlogged(int slot, int row, long tick) {
        markChanged(slot, tick);
        if (rows != null && rows[slot] != null) {
            rows[slot].stampUnlogged(row, tick);
        }
    }

    /**
     * Sets bit {@code r} of {@code bits} ({@code bits[r >>> 6]}) for each live row {@code r}
     * of row-tracked slot {@code slot} written after {@code lastRun}; {@code bits} must be clear
     * over the live rows. Returns the number of rows set.
     */
    public int collectChangedRows(int slot, long lastRun, long[] bits) {
        return rows[slot].collect(lastRun, size, bits);
    }

    /**
     * When the rows of row-tracked slot {@code slot} written after {@code lastRun} are listed
     * in ascending order in {@link #changedRowLog(int)} from the returned index up to
     * {@link #changedRowLogEnd(int)} (entries at or past {@link #size()} to be skipped), that
     * index; else -1, and {@link #collectChangedRows} finds them.
     */
    public int changedRowsAscendingFrom(int slot, long lastRun) {
        return rows[slot].ascendingSince(lastRun);
    }

    /** The row log of row-tracked slot {@code slot} (see {@link #changedRowsAscendingFrom}); callers must not write it. */
    public int[] changedRowLog(int slot) {
        return rows[slot].logRows();
    }

    /** The end of the row log of row-tracked slot {@code slot}. */
    public int changedRowLogEnd(int slot) {
        return rows[slot].logEnd();
    }

    /**
     * Restores the row version of row {@code row} of row-tracked slot {@code slot} (snapshot
     * restore only); the row logs start over at the clock's tick {@code now}.
     */
    public void restoreRowVersion(int slot, int row, long tick, long now) {
        rows[slot].restore(row, tick, now);
    }

    /**
     * A row of {@code from} moved into this chunk with its history: each version becomes the
     * larger of the two, so a change made to the row before it moved is still seen here.
     */
    void carryVersions(Chunk from) {
        if (uniformStamp != NONE && from.uniformStamp == uniformStamp) {
            return; // both chunks hold the same versions in every slot: the maxima are this chunk's own
        }
        if (carriedFrom == from.index && carriedWrites == from.versionWrites) {
            return; // carried from it before, and neither has changed in a way that matters since
        }
        boolean raised = false;
        for (int s = 0; s < added.length; s++) {
            long a = from.added[s];
            long c = from.changed[s];
            if (a > added[s]) {
                added[s] = a;
                raised = true;
            }
            if (c > changed[s]) {
                changed[s] = c;
                raised = true;
            }
        }
        if (raised) {
            uniformStamp = NONE;
            versionWrites++;
        }
        carriedFrom = from.index;
        carriedWrites = from.versionWrites;
    }

    /**
     * The tick at which a row may last have gained column slot {@code slot} in this chunk
     * (a spawn or a move into it); 0 if never. Chunk granularity: a row that arrived earlier
     * shares the version.
     */
    public long addedVersion(int slot) {
        return added[slot];
    }

    /** The tick at which column slot {@code slot} of this chunk may last have been written; 0 if never. */
    public long changedVersion(int slot) {
        return changed[slot];
    }

    /**
     * Marks column slot {@code slot} written at {@code tick} (a write accessor, a by-id write,
     * playback). Keeps the larger version, so a stamp from an older tick never hides a newer one.
     */
    public void markChanged(int slot, long tick) {
        if (tick > changed[slot]) {
            changed[slot] = tick;
            uniformStamp = NONE;
            versionWrites++;
        }
    }

    /** Restores both versions of slot {@code slot} (snapshot restore only). */
    public void restoreVersions(int slot, long addedTick, long changedTick) {
        added[slot] = addedTick;
        changed[slot] = changedTick;
        uniformStamp = NONE;
        versionWrites++;
        carriedFrom = -1; // the versions may have gone down: what this chunk carried before no longer holds
    }

    /** The archetype this chunk belongs to. */
    public Archetype archetype() {
        return archetype;
    }

    /** The chunk's position in its archetype, stable while the chunk holds rows. */
    public int index() {
        return index;
    }

    /** Number of live rows. */
    public int size() {
        return size;
    }

    /** Current row capacity (a power of two; the first chunk of an archetype starts small and grows). */
    public int capacity() {
        return entities.length;
    }

    /** The entity at {@code row}. */
    public long entity(int row) {
        return entities[row];
    }

    /** The entity id array; rows {@code [0, size())} are live. Callers must not write it. */
    public long[] entities() {
        return entities;
    }

    /** The field arrays of the column at archetype slot {@code slot}. */
    public Object[] columnArrays(int slot) {
        return data[slot];
    }

    /** Field array {@code field} of the column at archetype slot {@code slot}. */
    public Object array(int slot, int field) {
        return data[slot][field];
    }
}
