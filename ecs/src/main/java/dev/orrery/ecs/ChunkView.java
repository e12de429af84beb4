package dev.orrery.ecs;

import dev.orrery.ecs.access.AccessPolicy;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.storage.SparseColumn;
import dev.orrery.ecs.structure.ProvisionalRefs;
import dev.orrery.ecs.structure.SparseColumns;

/**
 * A cursor over one chunk at a time, through which a system reads and writes columns. It
 * hands out the chunk's primitive field arrays, so a system's loop is a plain indexed loop:
 *
 * <pre>{@code
 * float[] px = chunk.writeFloats(posX);
 * float[] vx = chunk.readFloats(velX);
 * for (int i = 0, n = chunk.size(); i < n; i++) px[i] += vx[i] * dt;
 * }</pre>
 *
 * <p>Each accessor checks the field's type and, when the view carries an
 * {@link AccessPolicy}, that the owner declared the access: {@code read...} needs a
 * declared read or write, {@code write...} a declared write. Checks cost a few comparisons
 * per call and nothing per row; no accessor allocates.
 *
 * <p><b>Sparse columns</b> ({@code Storage.SPARSE}) are not in the chunk: a loop reads and
 * writes them per row, {@link #has(Component, int)}, {@link #get} and {@link #set}, checked
 * against the policy like table columns ({@code get} needs a declared read, {@code set} a
 * declared write; membership, like the archetype's columns, needs none). The array
 * accessors serve table columns only.
 *
 * <p><b>Read-only views</b> ({@link Query#forEachChunkReadOnly}, {@link Query#forEachReadOnly})
 * refuse every write: a {@code write...} accessor, {@link #set}, {@link #markChanged} and
 * {@link #markRows} throw an {@link IllegalStateException} naming the component.
 *
 * <p><b>Threading:</b> a view is used by one thread at a time; the scheduler keeps one per
 * worker and {@link #bind binds} it to each chunk of a job.
 *
 * <p>(Over 500 lines on purpose: a read and a write accessor per primitive field type, each
 * documented, and the change tests that share the view's marks.)
 */
public final class ChunkView {
    private final AccessPolicy policy;
    private final SparseColumns sparse;
    private final boolean readOnly;
    private Chunk chunk;
    // The tick a write through this view stamps on the chunk column (0: no stamp), and the
    // tick of the owner's previous run, which added(c)/changed(c) compare against.
    private long changeTick;
    private long lastRun;
    // Rows found by firstChanged (a bit per row; grown once to the largest chunk, then reused),
    // or, for a column without row versions, -1 in rowsMode: every row when the chunk changed.
    private long[] changedBits = new long[0];
    private int changedLimit;
    private boolean everyRow;
    // Or the rows are log[logAt .. logEnd) of the chunk's row log, ascending (logRowsMode).
    private int[] log;
    private int logAt;
    private int logEnd;
    // Slots (below 64) whose rows the caller marks one by one (markRows), reset at bind: their
    // write accessors stamp the chunk but not every row.
    private long markedSlots;

    /** A view with no access checks, for single-threaded code outside the scheduler. */
    ChunkView() {
        this(null);
    }

    /** A view that checks every access against {@code policy} ({@code null}: no checks); it reads no sparse column. */
    ChunkView(AccessPolicy policy) {
        this(policy, null);
    }

    /**
     * A view that checks every access against {@code policy} ({@code null}: no checks) and
     * reads sparse columns from {@code sparse} (the world's, {@code world.storage().sparse()}).
     */
    ChunkView(AccessPolicy policy, SparseColumns sparse) {
        this(policy, sparse, false);
    }

    /** A view as {@link #ChunkView(AccessPolicy, SparseColumns)}; with {@code readOnly} every write is refused. */
    ChunkView(AccessPolicy policy, SparseColumns sparse, boolean readOnly) {
        this.policy = policy;
        this.sparse = sparse;
        this.readOnly = readOnly;
    }

    /**
     * Sets the change ticks of the view's owner: {@code tick} is stamped on every chunk
     * column written through a {@code write...} accessor or {@link #set} (0: nothing is
     * stamped), {@code lastRun} is what {@link #added(Component)} and
     * {@link #changed(Component)} compare against. The scheduler and {@link Query} set them
     * before each run; returns this view.
     */
    ChunkView changeTicks(long tick, long lastRun) {
        this.changeTick = tick;
        this.lastRun = lastRun;
        return this;
    }

    /**
     * True when table column {@code column} of the bound chunk may have been added to one of
     * its rows since the owner last ran (chunk granularity: every row of the chunk answers
     * alike). Needs a declared read (or write) of {@code column}, like a read: the system must be
     * ordered after the column's writers for the answer not to depend on timing.
     *
     * @param column a table column; a column the chunk lacks answers false
     * @return true when the chunk's column was added to a row after the owner's last run
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public boolean added(Component<?> column) {
        checkChangeTest(column);
        int slot = chunk.archetype().slotOf(column);
        return slot >= 0 && chunk.addedVersion(slot) > lastRun;
    }

    /**
     * True when table column {@code column} of the bound chunk may have been written (or a
     * row brought it in) since the owner last ran; chunk granularity. Needs a declared read (or
     * write), as {@link #added} says.
     *
     * @param column a table column; a column the chunk lacks answers false
     * @return true when the chunk's column was written or brought in after the owner's last run
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public boolean changed(Component<?> column) {
        checkChangeTest(column);
        int slot = chunk.archetype().slotOf(column);
        return slot >= 0 && chunk.changedVersion(slot) > lastRun;
    }

    /**
     * Marks table column {@code column} of the bound chunk changed without handing out an
     * array: for a loop that wrote through an array it took earlier. Needs a declared write.
     *
     * @param column a table column the chunk holds, declared as written
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IllegalStateException in a read-only view
     */
    public void markChanged(Component<?> column) {
        slot(column, true);
    }

    /**
     * True when row {@code row} of table column {@code column} may have been written (or
     * arrived) since the owner last ran: exact for a row-tracked column
     * ({@code World.trackRowChanges}), the chunk's answer ({@link #changed(Component)}) for
     * the others. Needs a declared read (or write), as {@link #added} says.
     *
     * @param column a table column; a column the chunk lacks answers false
     * @param row a live row of the chunk, in {@code [0, size())}
     * @return true when the row (or, for a column without row versions, the chunk) changed after the
     *     owner's last run
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IndexOutOfBoundsException naming the chunk's size when {@code row} is not in {@code [0, size())}
     */
    public boolean changed(Component<?> column, int row) {
        checkChangeTest(column);
        ChunkRows.live(chunk, row);
        int slot = chunk.archetype().slotOf(column);
        return slot >= 0 && chunk.rowVersion(slot, row) > lastRun;
    }

    /**
     * Marks row {@code row} of table column {@code column} changed: the chunk column, and the
     * row itself when the column tracks rows. For a loop that reads the arrays and writes a
     * few rows, so a {@code changed(column)} reader visits only those. Needs a declared write.
     *
     * @param column a table column the chunk holds, declared as written
     * @param row the live row written, in {@code [0, size())}
     * @throws IndexOutOfBoundsException naming the chunk's size when {@code row} is not in {@code [0, size())}
     */
    public void markChanged(Component<?> column, int row) {
        int slot = checkedSlot(column, true);
        ChunkRows.live(chunk, row);
        if (changeTick != 0) {
            chunk.markRowChanged(slot, row, changeTick);
        }
    }

    /**
     * Promises that, in the bound chunk, the caller marks each row of row-tracked column
     * {@code column} it writes with {@link #markChanged(Component, int)}: the write accessors
     * ({@code writeFloats} and the like) of {@code column} then stamp only the chunk, not
     * every row, until the view is bound to another chunk. Without it a write accessor of a
     * row-tracked column stamps every live row, since it may write any. Needs a declared write;
     * a column at archetype slot 64 or later keeps stamping every row.
     *
     * <pre>{@code
     * chunk.markRows(pos);
     * float[] x = chunk.writeFloats(posX);
     * for (int i = 0; i < chunk.size(); i++) if (hit[i]) { x[i] -= 1; chunk.markChanged(pos, i); }
     * }</pre>
     *
     * @param column a table column, declared as written; a column the chunk lacks changes nothing
     * @throws UndeclaredAccessException naming the system when the write is not declared
     * @throws IllegalStateException in a read-only view
     */
    public void markRows(Component<?> column) {
        refuseIfReadOnly(column, "marking rows of");
        int slot = chunk.archetype().slotOf(column);
        if (policy != null && !policy.canWrite(column)) {
            throw new UndeclaredAccessException(policy.owner(), column, true);
        }
        if (slot >= 0 && slot < 64) {
            markedSlots |= 1L << slot;
        }
    }

    /**
     * The first row of the bound chunk whose table column {@code column} changed since the
     * owner last ran, or -1; walk on with {@link #nextChanged}:
     * {@code for (int i = view.firstChanged(pos); i >= 0; i = view.nextChanged(i + 1))}.
     * Rows come in ascending order. For a row-tracked column only the rows written since are
     * visited, found from the chunk's row log without a scan when the owner ran recently;
     * for another column every row when the chunk changed, none when not. No allocation once
     * the view has met its largest chunk. Needs a declared read (or write), as {@link #added}
     * says.
     *
     * @param column a table column; a column the chunk lacks gives -1
     * @return the lowest changed row, in {@code [0, size())}, or -1 when no row changed
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public int firstChanged(Component<?> column) {
        checkChangeTest(column);
        int slot = chunk.archetype().slotOf(column);
        int size = chunk.size();
        changedLimit = size;
        everyRow = false;
        log = null;
        if (slot < 0 || chunk.changedVersion(slot) <= lastRun) {
            changedLimit = 0;
            return -1;
        }
        if (!chunk.tracksRows(slot)) {
            everyRow = true;
            return size > 0 ? 0 : -1;
        }
        int from = chunk.changedRowsAscendingFrom(slot, lastRun);
        if (from >= 0) {
            log = chunk.changedRowLog(slot);
            logAt = from;
            logEnd = chunk.changedRowLogEnd(slot);
            return nextChanged(0);
        }
        int words = (size + 63) >>> 6;
        if (changedBits.length < words) {
            changedBits = new long[Math.max(words, (chunk.capacity() + 63) >>> 6)];
        } else {
            java.util.Arrays.fill(changedBits, 0, words, 0L);
        }
        return chunk.collectChangedRows(slot, lastRun, changedBits) == 0 ? -1 : nextChanged(0);
    }

    /**
     * The first changed row at or after {@code from} found by the last {@link #firstChanged}, or -1.
     *
     * @param from the row to search from, 0 or more (the last row returned plus one)
     * @return the next changed row at or after {@code from}, ascending, or -1 when none is left
     */
    public int nextChanged(int from) {
        if (from >= changedLimit) {
            return -1;
        }
        if (everyRow) {
            return from;
        }
        if (log != null) {
            while (logAt < logEnd && log[logAt] < from) {
                logAt++;
            }
            return logAt < logEnd && log[logAt] < changedLimit ? log[logAt] : -1;
        }
        int w = from >>> 6;
        long bits = changedBits[w] & (-1L << from);
        while (bits == 0) {
            if (++w << 6 >= changedLimit) {
                return -1;
            }
            bits = changedBits[w];
        }
        int row = (w << 6) + Long.numberOfTrailingZeros(bits);
        return row < changedLimit ? row : -1;
    }

    /** Points the view at {@code chunk}; returns this view. */
    ChunkView bind(Chunk chunk) {
        this.chunk = chunk;
        this.markedSlots = 0;
        return this;
    }

    /**
     * The chunk the view is bound to. Package-private on purpose: a system reaches column
     * arrays only through the checked accessors below, never through the raw chunk.
     */
    Chunk chunk() {
        return chunk;
    }

    /**
     * Number of live rows in the chunk.
     *
     * @return the live rows, 0 or more: rows {@code [0, size())} of every array are live
     */
    public int size() {
        return chunk.size();
    }

    /**
     * The entity at {@code row}.
     *
     * @param row a live row, in {@code [0, size())}
     * @return the id of the entity stored at {@code row}
     * @throws IndexOutOfBoundsException naming the chunk's size when {@code row} is not in {@code [0, size())}
     */
    public long entity(int row) {
        return chunk.entity(ChunkRows.live(chunk, row));
    }

    /**
     * The entity ids of the chunk (read-only by contract); rows {@code [0, size())} are live.
     *
     * @return the chunk's own array, not a copy (do not write it); longer than {@code size()} when the
     *     chunk has free rows
     */
    public long[] entities() {
        return chunk.entities();
    }

    /**
     * True when the chunk's archetype holds table column {@code column} (for optional query
     * terms).
     *
     * @param column a table column
     * @return true when every row of the chunk holds it
     * @throws IllegalArgumentException for a sparse column, which rows hold one by one: use
     *     {@link #has(Component, int)}
     */
    public boolean has(Component<?> column) {
        if (column.isSparse()) {
            throw new IllegalArgumentException("component " + column + " is sparse: whether a row holds it differs row by "
                    + "row; test has(" + column + ", row)");
        }
        return chunk.archetype().slotOf(column) >= 0;
    }

    /**
     * True when the entity at {@code row} holds {@code column} (table or sparse).
     *
     * @param column a table or sparse column
     * @param row a live row, in {@code [0, size())}
     * @return true when that row's entity holds the column
     * @throws IndexOutOfBoundsException naming the chunk's size when {@code row} is not in {@code [0, size())}
     */
    public boolean has(Component<?> column, int row) {
        ChunkRows.live(chunk, row);
        if (column.isSparse()) {
            return sparseSet(column).contains(Entity.index(chunk.entity(row)));
        }
        return chunk.archetype().slotOf(column) >= 0;
    }

    /**
     * The component value at {@code row} as a new record (cold code; hot loops use the
     * arrays); for a sparse column, the value the row's entity holds.
     *
     * @param <T> the column's value type
     * @param column a column the row holds, declared as read
     * @param row a live row, in {@code [0, size())}
     * @return a new record (writing to it changes nothing), the stored object of a reference column, or
     *     null for a tag
     * @throws IllegalArgumentException if the row does not hold the column
     * @throws IndexOutOfBoundsException naming the chunk's size when {@code row} is not in {@code [0, size())}
     * @throws UndeclaredAccessException naming the system when the read is not declared
     */
    public <T> T get(Component<T> column, int row) {
        ChunkRows.live(chunk, row);
        if (column.isSparse()) {
            SparseColumn s = sparseSet(column, row, false);
            return column.type().read(s.arrays(), s.positionOf(Entity.index(chunk.entity(row))));
        }
        return column.type().read(chunk.columnArrays(slot(column, false)), row);
    }

    /**
     * Overwrites the component value at {@code row} from a record or, for a reference column,
     * an object; for a sparse column, the value the row's entity holds (a value write, not a
     * structural change).
     *
     * @param <T> the column's value type
     * @param column a column the row holds, declared as written
     * @param row a live row, in {@code [0, size())}
     * @param value the new value, copied into the row's fields (a reference column stores it)
     * @throws IllegalArgumentException if the row does not hold the column
     * @throws IndexOutOfBoundsException naming the chunk's size when {@code row} is not in {@code [0, size())}
     * @throws UndeclaredAccessException naming the system when the write is not declared
     * @throws IllegalStateException in a read-only view
     */
    public <T> void set(Component<T> column, int row, T value) {
        ChunkRows.live(chunk, row);
        if (column.isSparse()) {
            SparseColumn s = sparseSet(column, row, true);
            ProvisionalRefs.refuse(column, value);
            column.type().write(value, s.arrays(), s.positionOf(Entity.index(chunk.entity(row))));
            return;
        }
        int slot = checkedSlot(column, true);
        ProvisionalRefs.refuse(column, value); // a job's handle from its commands.spawn() is resolved only there
        column.type().write(value, chunk.columnArrays(slot), row);
        if (changeTick != 0) {
            chunk.markRowChanged(slot, row, changeTick);
        }
    }

    /** The sparse set of {@code column} after the access check, when the row's entity holds it. */
    private SparseColumn sparseSet(Component<?> column, int row, boolean write) {
        if (write) {
            refuseIfReadOnly(column, "setting");
        }
        if (policy != null && !(write ? policy.canWrite(column) : policy.canRead(column))) {
            throw new UndeclaredAccessException(policy.owner(), column, write);
        }
        SparseColumn s = sparseSet(column);
        if (!s.contains(Entity.index(chunk.entity(row)))) {
            throw new IllegalArgumentException("entity " + Entity.toString(chunk.entity(row)) + " at row " + row
                    + " does not hold sparse component " + column + "; test has(" + column + ", row) first");
        }
        return s;
    }

    private SparseColumn sparseSet(Component<?> column) {
        if (sparse == null) {
            throw new IllegalStateException("this chunk view was made without the world's sparse storage, so it cannot "
                    + "read sparse component " + column + "; iterate a query built by world.query()");
        }
        return sparse.of(column);
    }

    /**
     * The object array of a reference column, for reading.
     *
     * @param column a reference column the chunk holds, declared as read
     * @return the chunk's own array (not a copy); rows {@code [0, size())} are live; do not write it
     * @throws IllegalArgumentException for a value or tag column, or one the chunk lacks
     */
    public Object[] readObjects(Component<?> column) {
        requireReference(column);
        return (Object[]) chunk.array(slot(column, false), 0);
    }

    /**
     * The object array of a reference column, for writing.
     *
     * @param column a reference column the chunk holds, declared as written
     * @return the chunk's own array (not a copy); the chunk's column counts as changed
     * @throws IllegalArgumentException for a value or tag column, or one the chunk lacks
     * @throws IllegalStateException in a read-only view
     */
    public Object[] writeObjects(Component<?> column) {
        requireReference(column);
        return (Object[]) chunk.array(slot(column, true), 0);
    }

    /**
     * The boolean array of {@code field} for reading; rows {@code [0, size())} are live.
     *
     * @param field a {@code boolean} field of a table column the chunk holds, declared as read (or written)
     * @return the chunk's own array (not a copy), indexed by row; do not write it
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code boolean},
     *     or the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public boolean[] readBooleans(Field field) {
        return (boolean[]) array(field, FieldType.BOOLEAN, false);
    }

    /**
     * The boolean array of {@code field} for writing; rows {@code [0, size())} are live.
     *
     * @param field a {@code boolean} field of a table column the chunk holds, declared as written
     * @return the chunk's own array (not a copy), indexed by row; the chunk's column counts as changed
     *     (every row, for a row-tracked column unless {@link #markRows} was called)
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code boolean},
     *     or the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IllegalStateException in a read-only view
     */
    public boolean[] writeBooleans(Field field) {
        return (boolean[]) array(field, FieldType.BOOLEAN, true);
    }
    /**
     * The byte array of {@code field} for reading; rows {@code [0, size())} are live.
     *
     * @param field a {@code byte} field of a table column the chunk holds, declared as read (or written)
     * @return the chunk's own array (not a copy), indexed by row; do not write it
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code byte}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public byte[] readBytes(Field field) {
        return (byte[]) array(field, FieldType.BYTE, false);
    }

    /**
     * The byte array of {@code field} for writing; rows {@code [0, size())} are live.
     *
     * @param field a {@code byte} field of a table column the chunk holds, declared as written
     * @return the chunk's own array (not a copy), indexed by row; the chunk's column counts as changed
     *     (every row, for a row-tracked column unless {@link #markRows} was called)
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code byte}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IllegalStateException in a read-only view
     */
    public byte[] writeBytes(Field field) {
        return (byte[]) array(field, FieldType.BYTE, true);
    }
    /**
     * The short array of {@code field} for reading; rows {@code [0, size())} are live.
     *
     * @param field a {@code short} field of a table column the chunk holds, declared as read (or written)
     * @return the chunk's own array (not a copy), indexed by row; do not write it
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code short}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public short[] readShorts(Field field) {
        return (short[]) array(field, FieldType.SHORT, false);
    }

    /**
     * The short array of {@code field} for writing; rows {@code [0, size())} are live.
     *
     * @param field a {@code short} field of a table column the chunk holds, declared as written
     * @return the chunk's own array (not a copy), indexed by row; the chunk's column counts as changed
     *     (every row, for a row-tracked column unless {@link #markRows} was called)
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code short}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IllegalStateException in a read-only view
     */
    public short[] writeShorts(Field field) {
        return (short[]) array(field, FieldType.SHORT, true);
    }
    /**
     * The char array of {@code field} for reading; rows {@code [0, size())} are live.
     *
     * @param field a {@code char} field of a table column the chunk holds, declared as read (or written)
     * @return the chunk's own array (not a copy), indexed by row; do not write it
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code char}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public char[] readChars(Field field) {
        return (char[]) array(field, FieldType.CHAR, false);
    }

    /**
     * The char array of {@code field} for writing; rows {@code [0, size())} are live.
     *
     * @param field a {@code char} field of a table column the chunk holds, declared as written
     * @return the chunk's own array (not a copy), indexed by row; the chunk's column counts as changed
     *     (every row, for a row-tracked column unless {@link #markRows} was called)
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code char}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IllegalStateException in a read-only view
     */
    public char[] writeChars(Field field) {
        return (char[]) array(field, FieldType.CHAR, true);
    }
    /**
     * The int array of {@code field} for reading; rows {@code [0, size())} are live.
     *
     * @param field a {@code int} field of a table column the chunk holds, declared as read (or written)
     * @return the chunk's own array (not a copy), indexed by row; do not write it
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code int}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public int[] readInts(Field field) {
        return (int[]) array(field, FieldType.INT, false);
    }

    /**
     * The int array of {@code field} for writing; rows {@code [0, size())} are live.
     *
     * @param field a {@code int} field of a table column the chunk holds, declared as written
     * @return the chunk's own array (not a copy), indexed by row; the chunk's column counts as changed
     *     (every row, for a row-tracked column unless {@link #markRows} was called)
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code int}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IllegalStateException in a read-only view
     */
    public int[] writeInts(Field field) {
        return (int[]) array(field, FieldType.INT, true);
    }
    /**
     * The float array of {@code field} for reading; rows {@code [0, size())} are live.
     *
     * @param field a {@code float} field of a table column the chunk holds, declared as read (or written)
     * @return the chunk's own array (not a copy), indexed by row; do not write it
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code float}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public float[] readFloats(Field field) {
        return (float[]) array(field, FieldType.FLOAT, false);
    }

    /**
     * The float array of {@code field} for writing; rows {@code [0, size())} are live.
     *
     * @param field a {@code float} field of a table column the chunk holds, declared as written
     * @return the chunk's own array (not a copy), indexed by row; the chunk's column counts as changed
     *     (every row, for a row-tracked column unless {@link #markRows} was called)
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code float}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IllegalStateException in a read-only view
     */
    public float[] writeFloats(Field field) {
        return (float[]) array(field, FieldType.FLOAT, true);
    }
    /**
     * The long array of {@code field} for reading; rows {@code [0, size())} are live.
     *
     * @param field a {@code long} field of a table column the chunk holds, declared as read (or written)
     * @return the chunk's own array (not a copy), indexed by row; do not write it
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code long}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public long[] readLongs(Field field) {
        return (long[]) array(field, FieldType.LONG, false);
    }

    /**
     * The long array of {@code field} for writing; rows {@code [0, size())} are live.
     *
     * @param field a {@code long} field of a table column the chunk holds, declared as written
     * @return the chunk's own array (not a copy), indexed by row; the chunk's column counts as changed
     *     (every row, for a row-tracked column unless {@link #markRows} was called)
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code long}, or
     *     the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IllegalStateException in a read-only view
     */
    public long[] writeLongs(Field field) {
        return (long[]) array(field, FieldType.LONG, true);
    }
    /**
     * The double array of {@code field} for reading; rows {@code [0, size())} are live.
     *
     * @param field a {@code double} field of a table column the chunk holds, declared as read (or written)
     * @return the chunk's own array (not a copy), indexed by row; do not write it
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code double},
     *     or the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     */
    public double[] readDoubles(Field field) {
        return (double[]) array(field, FieldType.DOUBLE, false);
    }

    /**
     * The double array of {@code field} for writing; rows {@code [0, size())} are live.
     *
     * @param field a {@code double} field of a table column the chunk holds, declared as written
     * @return the chunk's own array (not a copy), indexed by row; the chunk's column counts as changed
     *     (every row, for a row-tracked column unless {@link #markRows} was called)
     * @throws IllegalArgumentException naming the accessor to use when the field is not a {@code double},
     *     or the chunk lacks its column
     * @throws UndeclaredAccessException naming the system and the declaration to add
     * @throws IllegalStateException in a read-only view
     */
    public double[] writeDoubles(Field field) {
        return (double[]) array(field, FieldType.DOUBLE, true);
    }

    private Object array(Field field, FieldType expected, boolean write) {
        if (field.type() != expected) {
            String t = field.type().javaType().getSimpleName(), p = Character.toUpperCase(t.charAt(0)) + t.substring(1) + "s";
            throw new IllegalArgumentException("field " + field + " is " + field.type() + ", not " + expected + "; use "
                    + (field.type() == FieldType.OBJECT ? "readObjects/writeObjects(component)" : "read" + p + "/write" + p));
        }
        return chunk.array(slot(field.component(), write), field.index());
    }

    private int slot(Component<?> column, boolean write) {
        int slot = checkedSlot(column, write);
        if (write && changeTick != 0) {
            if (slot < 64 && (markedSlots & (1L << slot)) != 0) {
                chunk.markChanged(slot, changeTick);
            } else {
                chunk.markAllRowsChanged(slot, changeTick);
            }
        }
        return slot;
    }

    private void checkChangeTest(Component<?> column) {
        if (policy != null && !policy.canRead(column)) {
            throw UndeclaredAccessException.changeTest(policy.owner(), column);
        }
    }

    /** The slot of table column {@code column} after the access check; stamps nothing. */
    private int checkedSlot(Component<?> column, boolean write) {
        if (write) {
            refuseIfReadOnly(column, "writing");
            column.refuseIfRelationMarker("writing the chunk array of");
        }
        if (policy != null && !(write ? policy.canWrite(column) : policy.canRead(column))) {
            throw new UndeclaredAccessException(policy.owner(), column, write);
        }
        int slot = chunk.archetype().slotOf(column);
        if (slot < 0 && column.isSparse()) {
            throw new IllegalArgumentException("component " + column + " is sparse, so its values are not in the chunk's "
                    + "arrays; use it per row with has(" + column + ", row), get(" + column + ", row) and set(" + column
                    + ", row, value)");
        }
        if (slot < 0) {
            throw new IllegalArgumentException("chunk of " + chunk.archetype() + " has no component " + column
                    + "; list it in the query's with(...) terms, or test has(" + column + ") first for an optional term");
        }
        return slot;
    }

    private void refuseIfReadOnly(Component<?> column, String what) {
        if (readOnly) {
            throw new IllegalStateException(what + " component " + column + " in a read-only iteration is refused "
                    + "(forEachChunkReadOnly and forEachReadOnly write nothing); iterate with forEachChunk(...) or "
                    + "forEach(...) to write");
        }
    }

    private static void requireReference(Component<?> column) {
        if (column.kind() != ComponentKind.REFERENCE) {
            throw new IllegalArgumentException("component " + column + " is a " + column.kind()
                    + " component; readObjects/writeObjects serve reference components only");
        }
    }
}
