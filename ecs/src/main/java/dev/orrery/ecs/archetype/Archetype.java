package dev.orrery.ecs.archetype;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.FieldType;
import java.util.Arrays;
import java.util.List;

/**
 * The set of entities that hold exactly the same columns. The column ids are kept sorted;
 * the entities live in chunks of one power-of-two capacity, all full except the last
 * one in use. Add and remove edges to neighbouring archetypes are cached
 * ({@link ArchetypeEdges}), so a repeated structural change finds its target without a
 * search; block moves of many rows live in {@code RowBlocks}.
 *
 * <p><b>Threading:</b> mutated only by the thread that applies structural changes.
 */
public final class Archetype {
    private final int id;
    private final int[] columns;
    // Slot of each column id up to the largest one held, -1 for the others: playback and
    // the world look a slot up for every value they write, and one load beats a binary
    // search. Columns never change after construction, so the table never goes stale.
    private final int[] slotByColumn;
    private final Component<?>[] components;
    // Field types per slot, resolved once: the row-move loops (here and in RowBlocks) read
    // them for every field.
    final FieldType[][] fieldTypes;
    private final boolean hasReferences;
    // The flat field layout every chunk's Chunk.fields follows: slot s owns fields
    // fieldBase[s] .. fieldBase[s+1]-1, of types flatTypes[...].
    private final int[] fieldBase;
    private final FieldType[] flatTypes;
    // Swap-with-last removal copies every field; references of the vacated row are cleared.
    private final int[] typedIndex;
    private final int[] typedCount = new int[4];
    private final FieldCopies allFields;
    private final FieldCopies referenceFields;
    /** Rows the first chunk starts with; it doubles up to the full capacity before a second chunk is made. */
    static final int FIRST_CHUNK_ROWS = 64;
    private final int capacity;
    private final int shift;
    // Chunks, the ones in use and the row count: package-private for RowBlocks' block moves.
    Chunk[] chunks = new Chunk[0];
    int usedChunks;
    int size;
    /** The add and remove edges and the move plans out of this archetype; filled by {@link Archetypes}. */
    final ArchetypeEdges edges = new ArchetypeEdges(this);

    // The slots whose columns hold at least one field, one bit per slot (the first 64 slots).
    private final long slotsWithFields;

    /** The world's change clock: appends stamp their chunk with its tick. */
    final ChangeClock clock;

    Archetype(int id, Component<?>[] sortedComponents, int chunkBytes, ChangeClock clock) {
        this.id = id;
        this.clock = clock;
        this.components = sortedComponents;
        this.columns = new int[sortedComponents.length];
        this.fieldTypes = new FieldType[sortedComponents.length][];
        boolean references = false;
        for (int i = 0; i < sortedComponents.length; i++) {
            columns[i] = sortedComponents[i].id();
            fieldTypes[i] = new FieldType[sortedComponents[i].type().fieldCount()];
            for (int f = 0; f < fieldTypes[i].length; f++) {
                fieldTypes[i][f] = sortedComponents[i].type().fieldType(f);
            }
            references |= sortedComponents[i].kind() == ComponentKind.REFERENCE;
        }
        this.hasReferences = references;
        long withFields = 0;
        for (int i = 0; i < sortedComponents.length && i < Long.SIZE; i++) {
            if (fieldTypes[i].length > 0) {
                withFields |= 1L << i;
            }
        }
        this.slotsWithFields = withFields; // only read for archetypes of at most 64 columns
        this.fieldBase = new int[sortedComponents.length + 1];
        for (int i = 0; i < sortedComponents.length; i++) {
            fieldBase[i + 1] = fieldBase[i] + fieldTypes[i].length;
        }
        int fields = fieldBase[sortedComponents.length];
        this.flatTypes = new FieldType[fields];
        int[] all = new int[fields];
        int refs = 0;
        for (int i = 0; i < sortedComponents.length; i++) {
            for (int f = 0; f < fieldTypes[i].length; f++) {
                flatTypes[fieldBase[i] + f] = fieldTypes[i][f];
                all[fieldBase[i] + f] = fieldBase[i] + f;
                refs += fieldTypes[i][f] == FieldType.OBJECT ? 1 : 0;
            }
        }
        this.typedIndex = new int[fields];
        for (int k = 0; k < fields; k++) {
            int kind = FieldCopies.kindOf(flatTypes[k]);
            typedIndex[k] = kind < 4 ? typedCount[kind]++ : -1;
        }
        this.allFields = new FieldCopies(this, this, all, all);
        int[] refIdx = new int[refs];
        for (int k = 0, r = 0; k < fields; k++) {
            if (flatTypes[k] == FieldType.OBJECT) {
                refIdx[r++] = k;
            }
        }
        this.referenceFields = new FieldCopies(this, this, refIdx, refIdx);
        this.slotByColumn = new int[columns.length == 0 ? 0 : columns[columns.length - 1] + 1];
        Arrays.fill(slotByColumn, -1);
        for (int i = 0; i < columns.length; i++) {
            slotByColumn[columns[i]] = i;
        }
        this.capacity = capacityFor(chunkBytes, rowBytesOf(sortedComponents));
        this.shift = Integer.numberOfTrailingZeros(capacity);
    }

    /** Total number of fields over all columns (the length of each chunk's flat field array). */
    int fieldCount() {
        return flatTypes.length;
    }

    /** The flat index of the first field of slot {@code slot}; {@code fieldBase(columnCount())} is {@link #fieldCount}. */
    int fieldBase(int slot) {
        return fieldBase[slot];
    }

    /** Flat field {@code k}'s index among the fields of its type (float, int, long, double), else -1. */
    int typedIndex(int k) {
        return typedIndex[k];
    }

    /** The number of fields of type kind {@code kind} (see {@link FieldCopies#kindOf}), for kinds 0..3. */
    int typedCount(int kind) {
        return typedCount[kind];
    }

    /** The type of flat field {@code k}. */
    FieldType flatType(int k) {
        return flatTypes[k];
    }

    /**
     * The plan for moving rows from this archetype to {@code target}, built on first use
     * and kept (archetypes never change their columns, so it never goes stale).
     */
    public MovePlan planTo(Archetype target) {
        return edges.planTo(target);
    }

    /** The id of the archetype the add edge for {@code columnId} leads to, or -1 (tests). */
    int addEdgeTarget(int columnId) {
        return edges.addEdgeTarget(columnId);
    }

    /** The id of the archetype the remove edge for {@code columnId} leads to, or -1 (tests). */
    int removeEdgeTarget(int columnId) {
        return edges.removeEdgeTarget(columnId);
    }

    /** The bytes one row of these columns takes, its entity id included. */
    static int rowBytesOf(Component<?>[] columns) {
        int rowBytes = Long.BYTES;
        for (Component<?> c : columns) {
            rowBytes += c.type().rowBytes();
        }
        return rowBytes;
    }

    /** Rows per chunk: the byte budget over the row size, rounded down to a power of two, at least 16. */
    static int capacityFor(int chunkBytes, int rowBytes) {
        int rows = Math.max(16, chunkBytes / rowBytes);
        return Math.min(Integer.highestOneBit(rows), 1 << 16);
    }

    /** Dense id, in creation order. */
    public int id() {
        return id;
    }

    /** Number of columns. */
    public int columnCount() {
        return columns.length;
    }

    /** Column id at slot {@code slot}. */
    public int columnId(int slot) {
        return columns[slot];
    }

    /** The column at slot {@code slot}. */
    public Component<?> component(int slot) {
        return components[slot];
    }

    Component<?>[] componentArray() {
        return components;
    }

    /** The columns in slot (id) order, as a new list. */
    public List<Component<?>> components() {
        return List.of(components);
    }

    /** The slot of column {@code columnId}, or a negative number when the archetype lacks it. */
    public int slotOf(int columnId) {
        int[] slots = slotByColumn;
        return columnId >= 0 && columnId < slots.length ? slots[columnId] : -1;
    }

    /**
     * The slot of {@code column}, or -1 when the archetype lacks it; refuses a handle of
     * another world whose id names a different column here (its arrays would be read as the
     * handle's), as the world's own calls refuse foreign handles.
     *
     * @throws IllegalArgumentException naming both columns
     */
    public int slotOf(Component<?> column) {
        int slot = slotOf(column.id());
        if (slot >= 0 && components[slot] != column) {
            throw new IllegalArgumentException("component " + column + " was registered by another world (in this "
                    + "archetype's world its id is " + components[slot] + "); use this world's component handles");
        }
        return slot;
    }

    /** True when the archetype has column {@code columnId}. */
    public boolean has(int columnId) {
        return slotOf(columnId) >= 0;
    }

    /** Rows per chunk (the first chunk starts at {@value #FIRST_CHUNK_ROWS} rows and grows to this). */
    public int chunkCapacity() {
        return capacity;
    }

    /**
     * Starts per-row change versions for {@code column} in the chunks this archetype already
     * made (those made later see {@code column.rowsTracked()} themselves). Set-up only.
     *
     * @throws IllegalStateException if a row is held: versions must start with a column's first row
     */
    public void trackRows(Component<?> column) {
        if (size() != 0) {
            throw new IllegalStateException(this + " holds " + size() + " rows; per-row versions of " + column
                    + " must start before its first row");
        }
        int slot = slotOf(column.id());
        for (Chunk c : chunks) {
            if (c != null) {
                c.trackRows(slot);
            }
        }
    }

    /** Chunks that hold at least one row; they are chunks {@code 0 .. chunkCount()-1}. */
    public int chunkCount() {
        return usedChunks;
    }

    /** Chunk {@code i}, {@code 0 <= i < chunkCount()}. */
    public Chunk chunk(int i) {
        Chunk c = i < chunks.length ? chunks[i] : null; // emptied chunks stay, kept for reuse
        if (c == null) {
            throw new IndexOutOfBoundsException("chunk " + i + " of " + usedChunks + " in " + this);
        }
        return c;
    }

    /** Number of entities in this archetype. */
    public int size() {
        return size;
    }

    /**
     * True when {@code slots} (slot {@code s} is bit {@code s}) holds every slot whose column
     * has a field, so values written to those slots fill a whole row; always false for an
     * archetype of more than 64 columns (a caller then zeroes the row as usual).
     */
    public boolean fieldsAllIn(long slots) {
        return components.length <= Long.SIZE && (slots & slotsWithFields) == slotsWithFields;
    }

    /**
     * Appends a row for {@code entity}, zeroing its column data, and returns its location
     * packed as {@code chunk << 32 | row}.
     */
    public long appendRow(long entity) {
        return appendRow(entity, true);
    }

    /**
     * Appends a row for {@code entity} as {@link #appendRow(long)} does, zeroing its column
     * data only when {@code clear}: a caller that writes every field of the new row at once
     * passes false and skips a pass over the fields.
     */
    public long appendRow(long entity, boolean clear) {
        Chunk c = chunkForAppend();
        int row = c.size++;
        boolean fresh = row >= c.touched;
        c.appended();
        c.stampArrival(clock.now(), row, row + 1);
        c.entities[row] = entity;
        if (!clear || fresh) { // a fresh row is still zero
            size++;
            return ((long) c.index() << 32) | row;
        }
        for (int s = 0; s < components.length; s++) {
            Object[] arrays = c.data[s];
            FieldType[] types = fieldTypes[s];
            for (int f = 0; f < arrays.length; f++) {
                types[f].clear(arrays[f], row);
            }
        }
        size++;
        return ((long) c.index() << 32) | row;
    }

    /**
     * Appends a row for {@code entity} that takes the values of row ({@code chunk},
     * {@code row}) of {@code source} in every column the two archetypes share and is zero in
     * the others; returns its location as {@link #appendRow} does. The same result as
     * {@code appendRow} then {@code source.copyShared}, in one pass that zeroes only the
     * columns new to the entity (a structural move's hot path).
     */
    public long appendRowFrom(long entity, Archetype source, int chunk, int row) {
        return appendRowFrom(entity, source.planTo(this), source.chunks[chunk], row, true);
    }

    /**
     * {@link #appendRowFrom(long, Archetype, int, int)} with the pair's plan and the source
     * chunk resolved; without {@code zero} a reused row's new columns are left for the caller
     * to write.
     */
    long appendRowFrom(long entity, MovePlan plan, Chunk src, int row, boolean zero) {
        Chunk c = chunkForAppend();
        int to = c.size++;
        boolean fresh = to >= c.touched;
        c.appended();
        c.stampArrival(clock.now(), to, to + 1);
        c.entities[to] = entity;
        plan.copies.copy(src, row, c, to);
        if (zero && !fresh) { // a fresh row's new columns are still zero
            plan.clears.clear(c, to);
        }
        size++;
        return ((long) c.index() << 32) | to;
    }

    /**
     * Appends {@code n} rows (for bulk spawn) filling each column field with the given raw
     * bits ({@code bits[slot][field]}, see {@link FieldType#bits}); reference columns are
     * filled with {@code refs[slot]}. Entity ids come from {@code ids[from .. from+n)}.
     * Each new row's location is reported to {@code sink}.
     */
    public void appendRows(long[] ids, int from, int n, long[][] bits, Object[] refs, RowSink sink) {
        RowBlocks.appendRows(this, ids, from, n, bits, refs, sink);
    }

    /** Receives the location of each row placed by a bulk operation (append, take, permute). */
    @FunctionalInterface
    public interface RowSink {
        /** Entity {@code entity} now lives at ({@code chunk}, {@code row}). */
        void placed(long entity, int chunk, int row);
    }

    /**
     * Makes room for {@code n} more rows: the first chunk grows to full capacity if the rows
     * would pass it, and empty chunks are made for the rest, so the next {@code n} appends
     * allocate nothing.
     */
    public void reserve(int n) {
        long rows = (long) size + n;
        if (n <= 0) {
            return;
        }
        long needChunks = (rows + capacity - 1) / capacity;
        if (needChunks > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("cannot reserve " + n + " more rows in " + this);
        }
        if (chunks.length < needChunks) {
            chunks = Arrays.copyOf(chunks, (int) Math.max(needChunks, 4));
        }
        int first = needChunks > 1 ? capacity
                : (int) Math.min(capacity, Math.max(FIRST_CHUNK_ROWS, Long.highestOneBit(rows - 1) << 1));
        if (chunks[0] == null) {
            chunks[0] = new Chunk(this, 0, first);
        } else if (chunks[0].capacity() < first) {
            chunks[0].grow(first);
        }
        for (int i = 1; i < needChunks; i++) {
            if (chunks[i] == null) {
                chunks[i] = new Chunk(this, i, capacity);
            }
        }
    }

    /** The chunk the next row goes into: the last one if it has room, else grown or a new one. */
    Chunk chunkForAppend() {
        if (usedChunks > 0) {
            Chunk last = chunks[usedChunks - 1];
            if (last.size < last.capacity()) {
                return last;
            }
            if (usedChunks == 1 && last.capacity() < capacity) {
                last.grow(Math.min(capacity, last.capacity() * 2));
                return last;
            }
        }
        if (usedChunks == chunks.length) {
            chunks = Arrays.copyOf(chunks, Math.max(4, chunks.length * 2));
        }
        if (chunks[usedChunks] == null) {
            chunks[usedChunks] = new Chunk(this, usedChunks,
                    usedChunks == 0 ? Math.min(capacity, FIRST_CHUNK_ROWS) : capacity);
        }
        return chunks[usedChunks++];
    }

    /**
     * Removes the row at ({@code chunk}, {@code row}) by moving the archetype's last row into
     * it. Returns the entity that moved into the hole, or {@link Entity#NULL} if the removed
     * row was the last one. Reference slots left behind are cleared so nothing leaks.
     */
    public long removeRow(int chunk, int row) {
        Chunk hole = chunks[chunk];
        Chunk last = chunks[usedChunks - 1];
        int lastRow = last.size - 1;
        long moved = Entity.NULL;
        if (hole != last || row != lastRow) {
            if (hole != last) {
                hole.carryVersions(last);
            }
            moved = last.entities[lastRow];
            hole.entities[row] = moved;
            allFields.copy(last, lastRow, hole, row);
            hole.rowMovedIn(row, last, lastRow, clock.now());
        }
        if (hasReferences) {
            referenceFields.clear(last, lastRow);
        }
        last.size--;
        if (last.size == 0) {
            usedChunks--;
        }
        size--;
        return moved;
    }

    /**
     * Copies every column the two archetypes share from a row of this archetype to a row of
     * {@code target}; the target's other columns keep what they hold.
     */
    public void copyShared(int chunk, int row, Archetype target, int targetChunk, int targetRow) {
        Chunk src = chunks[chunk];
        Chunk dst = target.chunks[targetChunk];
        int[] a = columns;
        int[] b = target.columns;
        int i = 0;
        int j = 0;
        while (i < a.length && j < b.length) {
            if (a[i] == b[j]) {
                Object[] sa = src.data[i];
                Object[] da = dst.data[j];
                FieldType[] types = fieldTypes[i];
                for (int f = 0; f < sa.length; f++) {
                    types[f].copy(sa[f], row, da[f], targetRow);
                }
                i++;
                j++;
            } else if (a[i] < b[j]) {
                i++;
            } else {
                j++;
            }
        }
    }

    @Override
    public String toString() {
        return "Archetype#" + id + Arrays.toString(components);
    }
}
