package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.component.Storage;
import dev.orrery.ecs.prototype.NamedInstances;
import dev.orrery.ecs.prototype.PrototypeIndex;
import dev.orrery.ecs.storage.EntityTable;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Writes a whole world to a versioned, checksummed binary snapshot and restores it into a
 * new world with the same components registered. A restored world has the same entity ids,
 * generations and free list, the same archetypes in the same order, the same rows in the
 * same chunks, and so the same {@link World#stateHash()}; run forward, it has the same
 * future.
 *
 * <p><b>Format</b> (big-endian): magic {@code "ORRSNAP\0"}, format version (int), payload
 * length (long), payload, CRC32C of the payload (int). The payload holds the named extra
 * sections the engine adds (tick, seed, resources; first, so {@link #readExtras} can read
 * them alone), the column table (type class, kind, instance name, field types), the entity
 * table (generations and free list in reuse order), and every archetype in creation order
 * with its rows: entity ids, each row's prototype chain as column ids in registration
 * order, then each field's values as raw bits (reference columns through their
 * {@link ReferenceCodec}).
 *
 * <p><b>Version 2</b> adds sparse columns ({@link Storage#SPARSE}): each column's storage
 * after its field types; each row's prototype chain prefixed by its length (it names the
 * row's sparse columns too, after its table ones, in column-id order; a reader takes them in
 * any order, as earlier writers interleaved them in registration order); and after the archetypes, every sparse column in column-id order
 * with its members by ascending entity index (ids, then each field's values). A world with
 * no sparse column is written as version 1, byte for byte as before; both versions are read
 * (a version 1 snapshot restores only into a world whose columns are all table columns).
 *
 * <p><b>Relations.</b> A world that registered a relation also writes the section
 * {@code "orrery.relations"} ({@code RelationSection}: each relation's name, traits, next
 * sequence number and pairs in pair order); the target must register the same relations in
 * the same order. A world without relations writes none, so its snapshots are unchanged.
 *
 * <p><b>Failure.</b> Reading checks the magic, the version, the length and the checksum
 * before it looks at the payload, and parses the whole payload before it touches the world;
 * a truncated, corrupted or mismatched snapshot throws one {@link SnapshotException} naming
 * the section (the payload itself is the section {@code "world"}), the byte offset and what
 * was wrong, and leaves the target world as it was, so it can take a good snapshot after.
 * Every part is read through a {@link SnapshotInput}: no count or length is trusted before
 * it is checked against the bytes left (each item at its smallest size) and its maximum (at
 * most {@code 536 870 911} entity indices, as many columns as the target registered), no
 * index, column id, entity or enum before it is checked against what it names, and no value
 * the restored world could not run from (a change clock below 1, a negative run count) is
 * let through to fail on a later tick.
 *
 * <p><b>Threading:</b> call from the world's owning thread while nothing else uses the world.
 *
 * <p>(Over 500 lines on purpose: the writer and the reader of one format sit side by side
 * so that they change together; the version 2 sparse section lives in {@code SparseSection},
 * the relations in {@code RelationSection}.)
 */
public final class WorldSnapshot {
    /** The first eight bytes of every snapshot. */
    public static final byte[] MAGIC = {'O', 'R', 'R', 'S', 'N', 'A', 'P', 0};
    /** The newest format version this build writes and reads (it reads 1 too, and writes 1 for worlds without sparse columns). */
    public static final int VERSION = 2;
    /** The format before sparse columns. */
    static final int VERSION_TABLE_ONLY = 1;

    private final Map<Class<?>, ReferenceCodec<?>> codecs = new HashMap<>();

    /** A snapshot writer/reader with no reference codecs yet. */
    public WorldSnapshot() {
    }

    /**
     * Registers the codec for reference component type {@code type}.
     *
     * @param <T> the reference component's type
     * @param type the class the reference column was registered with, not null
     * @param codec writes and reads one object of {@code type}, not null; it replaces a codec
     *     registered before for {@code type}
     * @return this snapshot writer/reader, for the next call
     * @throws NullPointerException if {@code type} or {@code codec} is null, naming the call
     */
    public <T> WorldSnapshot codec(Class<T> type, ReferenceCodec<T> codec) {
        Objects.requireNonNull(type, "reference component type");
        if (codec == null) {
            throw new NullPointerException("WorldSnapshot.codec(" + type.getName() + ") (or SimulationBuilder."
                    + "referenceCodec) was given no codec; pass a ReferenceCodec that writes and reads one "
                    + type.getSimpleName() + " object");
        }
        codecs.put(type, codec);
        return this;
    }

    /**
     * Writes {@code world} with no extra sections.
     *
     * @param world the world to write, not null; not changed by the write
     * @return a new array holding the whole snapshot, framed and checksummed
     * @throws SnapshotException if a reference column has no codec
     */
    public byte[] write(World world) {
        return write(world, Map.of());
    }

    /**
     * Writes {@code world} and the given extra sections (kept in iteration order).
     *
     * @param world the world to write, not null; not changed by the write
     * @param extras the caller's own sections by name, not null (empty for none); their bytes are
     *     copied into the snapshot
     * @return a new array holding the whole snapshot, framed and checksummed
     * @throws SnapshotException if a reference column has no codec
     * @throws IllegalArgumentException if an extra section takes a name the snapshot's own
     *     sections use ({@code orrery.changes}, {@code orrery.relations})
     */
    public byte[] write(World world, Map<String, byte[]> extras) {
        for (String own : new String[] {ChangeSection.NAME, RelationSection.NAME}) {
            if (extras.containsKey(own)) {
                throw new IllegalArgumentException("extra section name '" + own + "' is the snapshot's own (the "
                        + (own.equals(ChangeSection.NAME) ? "change state" : "relations") + "); name your section otherwise");
            }
        }
        Map<String, byte[]> withOwn = new LinkedHashMap<>(extras);
        withOwn.put(ChangeSection.NAME, ChangeSection.write(world));
        if (world.relations().any()) { // so a world without relations writes what it wrote before they existed
            withOwn.put(RelationSection.NAME, RelationSection.write(world));
        }
        return writeWith(world, withOwn);
    }

    private byte[] writeWith(World world, Map<String, byte[]> extras) {
        ComponentRegistry reg = world.components();
        for (Component<?> c : reg.columns()) {
            if (c.kind() == ComponentKind.REFERENCE && !codecs.containsKey(c.type().javaClass())) {
                throw new SnapshotException("reference component " + c + " (" + c.type().javaClass().getName()
                        + ") has no snapshot codec; register one with WorldSnapshot.codec(" + c.type().name() + ".class, ...), "
                        + "or for a Simulation with its builder's referenceCodec(" + c.type().name() + ".class, ...)");
            }
        }
        boolean sparse = world.storage().sparse().any();
        try {
            ByteArrayOutputStream body = new ByteArrayOutputStream(1 << 16);
            DataOutputStream out = new DataOutputStream(body);
            writeExtras(extras, out);
            out.writeInt(reg.columnCount());
            for (Component<?> c : reg.columns()) {
                ComponentType<?> t = c.type();
                out.writeUTF(t.javaClass().getName());
                out.writeByte(t.kind().ordinal());
                out.writeUTF(c.name());
                out.writeInt(t.fieldCount());
                for (int f = 0; f < t.fieldCount(); f++) {
                    out.writeByte(t.fieldType(f).ordinal());
                }
                if (sparse) {
                    out.writeByte(c.storage().ordinal());
                }
            }
            EntityTable table = world.storage().entityTable();
            out.writeInt(table.highWater());
            for (int i = 0; i < table.highWater(); i++) {
                out.writeInt(table.generation(i));
            }
            int[] free = table.freeListInOrder();
            out.writeInt(free.length);
            for (int f : free) {
                out.writeInt(f);
            }
            out.writeInt(world.storage().archetypes().count());
            for (int a = 0; a < world.storage().archetypes().count(); a++) {
                writeArchetype(world.storage().archetypes().get(a), world.storage().namedInstances(), sparse, out);
            }
            if (sparse) {
                SparseSection.write(world.storage().sparse(), codecs, out);
            }
            out.flush();
            return frame(body.toByteArray(), sparse ? VERSION : VERSION_TABLE_ONLY);
        } catch (IOException e) {
            throw new SnapshotException("writing a snapshot failed: " + e.getMessage(), e);
        }
    }

    /** Writes the extra sections, as the payload opens: a count, then each name, length and bytes. */
    static void writeExtras(Map<String, byte[]> extras, DataOutputStream out) throws IOException {
        out.writeInt(extras.size());
        for (Map.Entry<String, byte[]> e : extras.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeInt(e.getValue().length);
            out.write(e.getValue());
        }
    }

    /** The file around {@code payload}: magic, format {@code version}, length, the payload and its CRC32C. */
    static byte[] frame(byte[] payload, int version) throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream(payload.length + 24);
        DataOutputStream fo = new DataOutputStream(file);
        fo.write(MAGIC);
        fo.writeInt(version);
        fo.writeLong(payload.length);
        fo.write(payload);
        CRC32C crc = new CRC32C();
        crc.update(payload);
        fo.writeInt((int) crc.getValue());
        fo.flush();
        return file.toByteArray();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void writeArchetype(Archetype a, NamedInstances names, boolean chainLengths, DataOutputStream out)
            throws IOException {
        out.writeInt(a.columnCount());
        for (int s = 0; s < a.columnCount(); s++) {
            out.writeInt(a.columnId(s));
        }
        out.writeInt(a.size());
        for (int ci = 0; ci < a.chunkCount(); ci++) {
            Chunk c = a.chunk(ci);
            for (int r = 0; r < c.size(); r++) {
                out.writeLong(c.entity(r));
            }
        }
        // The prototype chain of each row: its table columns in the order they were registered,
        // which the archetype (a sorted set) does not keep, then its sparse ones in id order.
        for (int ci = 0; ci < a.chunkCount(); ci++) {
            Chunk c = a.chunk(ci);
            for (int r = 0; r < c.size(); r++) {
                int[] chain = names.instancesOf(Entity.index(c.entity(r)));
                if (chainLengths) {
                    out.writeInt(chain.length);
                }
                for (int col : chain) {
                    out.writeInt(col);
                }
            }
        }
        for (int s = 0; s < a.columnCount(); s++) {
            ComponentType<?> t = a.component(s).type();
            for (int f = 0; f < t.fieldCount(); f++) {
                FieldType ft = t.fieldType(f);
                ReferenceCodec codec = ft == FieldType.OBJECT ? codecs.get(t.javaClass()) : null;
                for (int ci = 0; ci < a.chunkCount(); ci++) {
                    Chunk c = a.chunk(ci);
                    Object arr = c.array(s, f);
                    for (int r = 0; r < c.size(); r++) {
                        writeValue(out, ft, codec, arr, r);
                    }
                }
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void writeValue(DataOutputStream out, FieldType ft, ReferenceCodec codec, Object arr, int r)
            throws IOException {
        if (codec != null) {
            Object v = ((Object[]) arr)[r];
            out.writeBoolean(v != null);
            if (v != null) {
                codec.write(v, out);
            }
        } else {
            out.writeLong(ft.bits(arr, r));
        }
    }

    /**
     * Restores {@code snapshot} into {@code target}, a new world in which the same
     * components were registered in the same order, and returns the extra sections.
     *
     * <p>All or nothing: the whole snapshot is read and checked before anything is placed in
     * {@code target}, so a refused snapshot leaves it new, and a good snapshot can then be
     * restored into it.
     *
     * <p>It fires no observer hook of {@code target}: the rows it puts back are ones the
     * writing world's hooks already reacted to, and what they recorded is in the snapshot.
     * Hooks registered on {@code target} fire for the changes made after it.
     *
     * @param snapshot bytes from {@link #write}, not null; not changed
     * @param target a new world (one that never held an entity), with the writer's components
     *     registered in the same order
     * @return the extra sections given to {@code write}, by name in their order; empty when none
     * @throws SnapshotException if the snapshot is truncated, corrupted, of another version,
     *     or its components differ from the target's, naming the section, the byte offset and
     *     what was wrong; the target is then unchanged
     */
    public Map<String, byte[]> read(byte[] snapshot, World target) {
        int entities = target.entityCount();
        if (target.storage().entityTable().highWater() != 0) {
            throw new SnapshotException("restore needs a world that never held an entity; the target "
                    + (entities > 0 ? "holds " + entities + (entities == 1 ? " entity" : " entities")
                            : "held entities before (despawned ones keep their ids)")
                    + ". Restore into a new World with the same components registered (and the same shapes prepared, "
                    + "if any)");
        }
        int version = verifiedVersion(snapshot);
        Parsed parsed;
        ChangeSection changes;
        try {
            parsed = parse(payload(snapshot), target, version == VERSION);
            // Checked in full before any row is placed, like the rest; a snapshot written before
            // change tracking has none and restores with fresh versions.
            SnapshotInput section = parsed.own.get(ChangeSection.NAME);
            changes = section == null ? null
                    : ChangeSection.parse(section, target, parsed.archetypeColumns, parsed.rows);
        } catch (IOException e) {
            throw new SnapshotException(e.getMessage(), e); // SnapshotInput's: names the section and the offset
        }
        checkPreparedArchetypes(parsed.archetypeColumns, target);
        try {
            apply(parsed, target);
            if (changes != null) {
                changes.apply(target);
            }
        } catch (RuntimeException e) {
            // Everything apply relies on was checked above; reaching this is a bug in those checks.
            throw new SnapshotException("restoring a checked snapshot failed part-way (" + e + "); the target world "
                    + "is left half-built: discard it, and report this as a bug in Orrery", e);
        }
        return parsed.extras;
    }

    /** The payload of a verified {@code snapshot} as the section "world", at its file offset. */
    private static SnapshotInput payload(byte[] snapshot) {
        return SnapshotInput.of(WORLD, snapshot, HEADER, snapshot.length - 4, HEADER);
    }

    /** The name messages give the payload of a snapshot: the world, after the extra sections at its start. */
    static final String WORLD = "world";
    /** Magic, version and payload length. */
    private static final int HEADER = 8 + 4 + 8;

    /** What to do about a damaged frame: nothing was restored. */
    private static final String DAMAGED = "and nothing was restored from it: use an undamaged copy of the snapshot, or take "
            + "it again";

    /** Checks the frame (magic, version, length, checksum) and returns the version, 1 or 2. */
    private static int verifiedVersion(byte[] s) {
        if (s == null) {
            throw new NullPointerException("snapshot is null; pass the bytes a snapshot() call returned or a "
                    + "snapshot file holds");
        }
        if (s.length < HEADER + 4) {
            throw new SnapshotException("snapshot is truncated: " + s.length + " bytes, shorter than the " + (HEADER + 4)
                    + "-byte frame; the file was cut short, write it again");
        }
        if (!Arrays.equals(s, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            throw new SnapshotException("not an Orrery snapshot: the first bytes are not \"ORRSNAP\"; check that the bytes "
                    + "are a snapshot's (what Simulation.snapshot() or WorldSnapshot.write returned, a recording's "
                    + "start.snapshot), not another file");
        }
        SnapshotInput in = SnapshotInput.of("header", s, MAGIC.length, HEADER, MAGIC.length);
        int version;
        long length;
        try {
            version = in.readInt();
            length = in.readLong();
        } catch (IOException e) {
            throw new SnapshotException(e.getMessage(), e); // cannot happen: the length was checked above
        }
        if (version != VERSION && version != VERSION_TABLE_ONLY) {
            throw new SnapshotException("snapshot format version " + version + " is not supported; this build reads "
                    + "versions " + VERSION_TABLE_ONLY + " and " + VERSION + "; read it with the Orrery build that wrote it");
        }
        if (length < 0 || length != s.length - HEADER - 4) {
            throw new SnapshotException("snapshot length field (file offset 12) says " + length + " payload bytes but "
                    + "the file holds " + (s.length - HEADER - 4) + "; it is truncated or corrupted, " + DAMAGED);
        }
        CRC32C crc = new CRC32C();
        crc.update(s, HEADER, (int) length);
        int stored = ((s[s.length - 4] & 0xFF) << 24) | ((s[s.length - 3] & 0xFF) << 16) | ((s[s.length - 2] & 0xFF) << 8)
                | (s[s.length - 1] & 0xFF);
        if ((int) crc.getValue() != stored) {
            throw new SnapshotException("snapshot checksum mismatch (stored 0x" + Integer.toHexString(stored)
                    + " at file offset " + (s.length - 4) + ", computed 0x" + Integer.toHexString((int) crc.getValue())
                    + "): the file is corrupted, " + DAMAGED);
        }
        return version;
    }

    private static final class Parsed {
        int[] generations;
        int[] free;
        int[][] archetypeColumns;
        long[][] rows;
        int[][][] chains; // [archetype][row] -> columns in registration order
        Object[][][] values; // [archetype][slot][field] -> long[] bits or Object[] refs
        SparseSection sparse = new SparseSection();
        RelationSection relations = RelationSection.NONE;
        Map<String, byte[]> extras;
        Map<String, SnapshotInput> own;
    }

    /**
     * The extra sections that open the payload, each as an input over its bytes, in order:
     * a count, then per section its name, its length and its bytes. A count or a length the
     * payload cannot hold, and a name given twice, are refused.
     */
    static Map<String, SnapshotInput> parseExtras(SnapshotInput in) throws IOException {
        in.part("extra sections");
        Map<String, SnapshotInput> out = new LinkedHashMap<>();
        int extras = in.readCount("extra section", 2 + 4, Integer.MAX_VALUE);
        for (int i = 0; i < extras; i++) {
            int at = in.position();
            String name = in.readUTF();
            int length = in.readCount("byte of section " + SnapshotInput.quote(name), 1, Integer.MAX_VALUE);
            if (out.put(name, in.section(name, length)) != null) {
                throw in.corruptAt(at, "section " + SnapshotInput.quote(name) + " is given twice");
            }
        }
        in.part(null);
        return out;
    }

    /** The bytes of each of {@code sections} but the snapshot's own (change state, relations), in order. */
    private static Map<String, byte[]> userExtras(Map<String, SnapshotInput> sections) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (Map.Entry<String, SnapshotInput> e : sections.entrySet()) {
            if (!e.getKey().equals(ChangeSection.NAME) && !e.getKey().equals(RelationSection.NAME)) {
                out.put(e.getKey(), e.getValue().readBytes(e.getValue().remaining()));
            }
        }
        return out;
    }

    /**
     * The extra sections of a snapshot, after checking its frame and checksum, without
     * restoring anything (the engine reads its own sections first).
     *
     * @param snapshot bytes from {@link #write}, not null; not changed
     * @return the extra sections given to {@code write}, by name in their order; empty when none
     * @throws SnapshotException if the snapshot is truncated, corrupted or of another version,
     *     naming the offset and what was wrong
     */
    public Map<String, byte[]> readExtras(byte[] snapshot) {
        verifiedVersion(snapshot);
        try {
            return userExtras(parseExtras(payload(snapshot)));
        } catch (IOException e) {
            throw new SnapshotException(e.getMessage(), e);
        }
    }

    private Parsed parse(SnapshotInput in, World target, boolean sparse) throws IOException {
        ComponentRegistry reg = target.components();
        Parsed p = new Parsed();
        Map<String, SnapshotInput> sections = parseExtras(in);
        p.extras = userExtras(sections);
        p.own = sections;
        // Before the columns: a relation missing from the target is the clearer message than its marker column.
        p.relations = RelationSection.parse(sections.get(RelationSection.NAME), target.relations());
        in.part("column table");
        int at = in.position();
        int columns = in.readCount("column", 2 + 1 + 2 + 4, Integer.MAX_VALUE);
        if (columns != reg.columnCount()) {
            throw in.refuse("the snapshot has " + columns + " component columns but the target world registered "
                    + reg.columnCount() + "; register the same components, in the same order, before restoring");
        }
        for (int i = 0; i < columns; i++) {
            at = in.position();
            String cls = in.readUTF();
            int kind = in.readByte();
            String name = in.readUTF();
            int fields = in.readCount("field", 1, Integer.MAX_VALUE);
            byte[] types = in.readBytes(fields);
            Component<?> c = reg.column(i);
            ComponentType<?> t = c.type();
            boolean same = t.javaClass().getName().equals(cls) && t.kind().ordinal() == kind && c.name().equals(name)
                    && t.fieldCount() == fields;
            for (int f = 0; same && f < fields; f++) {
                same = t.fieldType(f).ordinal() == types[f];
            }
            int storage = sparse ? in.readByte() : Storage.TABLE.ordinal();
            if (same && storage != c.storage().ordinal()) {
                throw in.refuse("snapshot column " + i + " (" + c + ") has "
                        + (storage >= 0 && storage < Storage.values().length ? Storage.values()[storage] : "unknown "
                        + storage) + " storage but the target world registered it with " + c.storage() + " storage"
                        + (sparse ? "" : " (a version 1 snapshot predates sparse storage)")
                        + "; register it with the storage it was written with");
            }
            if (!same) {
                throw in.refuseAt(at, "snapshot column " + i + " is " + SnapshotInput.quote(cls) + " "
                        + SnapshotInput.quote(name) + " but the target "
                        + "world's column " + i + " is " + c + " (" + t.javaClass().getName() + ", " + t.kind()
                        + "); register the same components, in the same order, before restoring");
            }
        }
        in.part("entity table");
        p.generations = new int[in.readCount("entity index", 4, EntityTable.MAX_INDICES)];
        for (int i = 0; i < p.generations.length; i++) {
            p.generations[i] = in.readInt();
        }
        p.free = new int[in.readCount("free index", 4, p.generations.length)];
        boolean[] used = new boolean[p.generations.length];
        for (int i = 0; i < p.free.length; i++) {
            at = in.position();
            int f = in.readInt();
            if (f < 0 || f >= used.length || used[f]) {
                throw in.corruptAt(at, "the free list names entity index " + f + (f < 0 || f >= used.length
                        ? ", beyond the " + used.length + " indices of the table" : " twice"));
            }
            if (p.generations[f] == EntityTable.LAST_GENERATION) {
                throw in.corruptAt(at, "the free list names entity index " + f + ", retired at its last generation "
                        + "(a retired slot is never reused)");
            }
            used[f] = true;
            p.free[i] = f;
        }
        in.part("archetypes");
        int archetypes = in.readCount("archetype", 4 + 4, Integer.MAX_VALUE);
        if (archetypes == 0) {
            throw in.corrupt("the snapshot lists no archetype, not even the empty one every world has");
        }
        p.archetypeColumns = new int[archetypes][];
        p.rows = new long[archetypes][];
        p.chains = new int[archetypes][][];
        p.values = new Object[archetypes][][];
        java.util.Set<String> sets = new java.util.HashSet<>();
        long live = 0;
        for (int a = 0; a < archetypes; a++) {
            in.part("archetype " + a);
            at = in.position();
            int[] cols = readArchetypeColumns(in, reg, columns);
            if ((a == 0) != (cols.length == 0) || !sets.add(Arrays.toString(cols))) {
                throw in.corruptAt(at, "archetype " + a + " " + Arrays.toString(cols) + " is empty out of place or "
                        + "listed twice");
            }
            p.archetypeColumns[a] = cols;
            long[] ids = new long[in.readCount("row", rowBytes(reg, cols, sparse), Integer.MAX_VALUE)];
            for (int r = 0; r < ids.length; r++) {
                at = in.position();
                long id = in.readLong();
                int idx = Entity.index(id);
                if (idx < 0 || idx >= used.length || used[idx] || p.generations[idx] != Entity.generation(id)
                        || Entity.generation(id) == 0) {
                    throw in.corruptAt(at, "the row of entity " + Entity.toString(id) + " names an index beyond the "
                            + used.length + " of the table, or one that is free, repeated, or of another generation");
                }
                used[idx] = true;
                ids[r] = id;
            }
            live += ids.length;
            p.rows[a] = ids;
            int[][] chains = new int[ids.length][];
            for (int r = 0; r < ids.length; r++) {
                at = in.position();
                chains[r] = new int[sparse ? in.readCount("prototype chain column", 4, columns) : cols.length];
                for (int k = 0; k < chains[r].length; k++) {
                    chains[r][k] = in.readInt();
                }
                int[] sorted = sparse ? SparseSection.tableColumnsOf(chains[r], reg, ids[r], in, at)
                        : chains[r].clone();
                Arrays.sort(sorted);
                if (!Arrays.equals(sorted, cols)) {
                    throw in.corruptAt(at, "the prototype chain " + Arrays.toString(chains[r]) + " of entity "
                            + Entity.toString(ids[r]) + " does not match its archetype " + Arrays.toString(cols));
                }
            }
            p.chains[a] = chains;
            p.values[a] = new Object[cols.length][];
            for (int s = 0; s < cols.length; s++) {
                p.values[a][s] = readValues(in, reg.column(cols[s]), ids.length, codecs);
            }
        }
        in.part("archetypes");
        int retired = 0; // dead for good at their last generation: neither live nor free (EntityTable)
        for (int i = 0; i < used.length; i++) {
            if (!used[i] && p.generations[i] == EntityTable.LAST_GENERATION) {
                retired++;
            }
        }
        if (live + p.free.length + retired != used.length) {
            throw in.corrupt("the rows, the free list and the retired slots account for "
                    + (live + p.free.length + retired) + " of the " + used.length + " entity indices of the table");
        }
        if (sparse) {
            in.part("sparse columns");
            p.sparse = SparseSection.parse(in, reg, codecs);
        }
        in.part("sparse columns and relations");
        p.sparse.validate(p.rows, p.chains, reg, in);
        p.relations.validate(p.generations.length, p.rows, p.archetypeColumns, p.values);
        in.part(null);
        in.requireEnd();
        return p;
    }

    /**
     * The sorted column ids of one archetype: table columns of the target, ascending, no two
     * instances of one name.
     */
    private static int[] readArchetypeColumns(SnapshotInput in, ComponentRegistry reg, int columns) throws IOException {
        int[] cols = new int[in.readCount("archetype column", 4, columns)];
        for (int s = 0; s < cols.length; s++) {
            int at = in.position();
            cols[s] = in.readInt();
            if (cols[s] < 0 || cols[s] >= columns || reg.column(cols[s]).isSparse()) {
                throw in.corruptAt(at, "the archetype names column " + cols[s] + ", which does not exist or is sparse");
            }
            if (s > 0 && cols[s] <= cols[s - 1]) {
                throw in.corruptAt(at, "the archetype's columns " + Arrays.toString(Arrays.copyOf(cols, s + 1))
                        + " are not in ascending order");
            }
            for (int t = 0; t < s; t++) {
                if (reg.column(cols[s]).nameHash() == reg.column(cols[t]).nameHash()) {
                    throw in.corruptAt(at, "the archetype holds two instances named '" + reg.column(cols[s]).name()
                            + "'");
                }
            }
        }
        return cols;
    }

    /** The fewest bytes a row of an archetype of {@code cols} takes: its id, its chain and its values. */
    private static int rowBytes(ComponentRegistry reg, int[] cols, boolean chainLength) {
        long n = 8 + (chainLength ? 4 : 0) + 4L * cols.length;
        for (int col : cols) {
            n += valueBytes(reg.column(col));
        }
        return (int) Math.min(n, Integer.MAX_VALUE);
    }

    /** The fewest bytes one row's values of {@code column} take: 8 a field, 1 for a reference (its presence). */
    static int valueBytes(Component<?> column) {
        ComponentType<?> t = column.type();
        int n = 0;
        for (int f = 0; f < t.fieldCount(); f++) {
            n += t.fieldType(f) == FieldType.OBJECT ? 1 : 8;
        }
        return n;
    }

    /** The values of {@code n} rows of {@code column}: per field, a long[] of bits or an Object[] of references. */
    static Object[] readValues(SnapshotInput in, Component<?> column, int n, Map<Class<?>, ReferenceCodec<?>> codecs)
            throws IOException {
        ComponentType<?> t = column.type();
        Object[] perField = new Object[t.fieldCount()];
        for (int f = 0; f < t.fieldCount(); f++) {
            if (t.fieldType(f) == FieldType.OBJECT) {
                ReferenceCodec<?> codec = codecs.get(t.javaClass());
                if (codec == null) {
                    throw new SnapshotException("reference component " + column
                            + " has no snapshot codec; register one with WorldSnapshot.codec(...), or for a Simulation with "
                            + "its builder's referenceCodec(...)");
                }
                Object[] refs = new Object[n];
                String what = "a value of reference component " + column;
                for (int r = 0; r < n; r++) {
                    refs[r] = in.readBoolean() ? in.<Object>read(what, codec::read) : null;
                }
                perField[f] = refs;
            } else {
                if ((long) n * 8 > in.remaining()) {
                    throw in.corrupt(n + " values of " + column + " need " + (long) n * 8 + " bytes but "
                            + in.remaining() + " remain");
                }
                long[] bits = new long[n];
                for (int r = 0; r < n; r++) {
                    bits[r] = in.readLong();
                }
                perField[f] = bits;
            }
        }
        return perField;
    }

    /** Builds the parsed, validated state into {@code target}, a new world (checked by {@link #read}). */
    private static void apply(Parsed p, World target) {
        ComponentRegistry reg = target.components();
        // Create the archetypes first, in order, and check ids before any entity is placed.
        Archetype[] made = new Archetype[p.archetypeColumns.length];
        for (int a = 0; a < made.length; a++) {
            Component<?>[] cols = new Component<?>[p.archetypeColumns[a].length];
            for (int s = 0; s < cols.length; s++) {
                cols[s] = reg.column(p.archetypeColumns[a][s]);
            }
            // The target's own archetypes (the empty one, and those its prepared shapes made) were
            // checked against the snapshot's in checkPreparedArchetypes; the rest are made here, in order.
            made[a] = a < target.storage().archetypes().count() ? target.storage().archetypes().get(a)
                    : target.storage().archetypes().of(cols);
            if (made[a].id() != a || made[a].columnCount() != cols.length) {
                throw new SnapshotException("snapshot archetype " + a + " does not rebuild in order (got "
                        + made[a] + "); the snapshot is corrupted");
            }
        }
        EntityTable table = target.storage().entityTable();
        PrototypeIndex prototypes = target.storage().namedInstances().index();
        table.restore(p.generations, p.free);
        for (int a = 0; a < made.length; a++) {
            Archetype arch = made[a];
            long[] ids = p.rows[a];
            for (int r = 0; r < ids.length; r++) {
                long loc = arch.appendRow(ids[r]);
                int chunk = (int) (loc >>> 32);
                int row = (int) loc;
                table.revive(ids[r], a, chunk, row);
                int[] chain = p.chains[a][r];
                for (int col : chain) {
                    if (!reg.column(col).isSparse()) { // sparse instances are found through their sets
                        prototypes.register(Entity.index(ids[r]), col, reg.column(col).nameHash());
                    }
                }
                Chunk c = arch.chunk(chunk);
                for (int s = 0; s < arch.columnCount(); s++) {
                    setValues(arch.component(s).type(), p.values[a][s], r, c.columnArrays(s), row);
                }
            }
        }
        p.sparse.apply(target);
        p.relations.apply(target.relations()); // after the rows, which carry the marker columns
    }

    /**
     * Checks that the archetypes the target already has (the empty one, and any its set-up made
     * by preparing shapes or adding and removing components) are the snapshot's first archetypes,
     * column for column and in order: archetype ids, and with them the state hash's order, must
     * come out as they were in the world that wrote the snapshot.
     *
     * @throws SnapshotException naming the first archetype that differs, and the fix
     */
    private static void checkPreparedArchetypes(int[][] snapshotColumns, World target) {
        dev.orrery.ecs.archetype.Archetypes have = target.storage().archetypes();
        ComponentRegistry reg = target.components();
        if (have.count() > snapshotColumns.length) {
            throw new SnapshotException("the target world has " + have.count() + " archetypes (its archetype "
                    + have.get(snapshotColumns.length).components() + " and any after it were made by preparing shapes or by "
                    + "spawning before the restore) but the snapshot has " + snapshotColumns.length + "; prepare the same "
                    + "shapes, in the same order, as the world that wrote it (or none), then restore");
        }
        for (int a = 1; a < have.count(); a++) {
            Archetype mine = have.get(a);
            int[] theirs = snapshotColumns[a];
            boolean same = mine.columnCount() == theirs.length;
            for (int s = 0; same && s < theirs.length; s++) {
                same = mine.columnId(s) == theirs[s];
            }
            if (!same) {
                List<String> names = new java.util.ArrayList<>();
                for (int id : theirs) {
                    names.add(id < reg.columnCount() ? reg.column(id).toString() : "column " + id);
                }
                throw new SnapshotException("the target world's archetype " + a + " " + mine.components() + " (made before the "
                        + "restore, by world.shape(...) or a spawn) differs from the snapshot's archetype " + a + " "
                        + names + "; prepare the same shapes, in the same order, as the world that wrote the snapshot "
                        + "(or prepare them after restoring)");
            }
        }
    }

    /** Writes row {@code r} of parsed per-field values into position {@code row} of {@code arrays}. */
    static void setValues(ComponentType<?> t, Object[] fields, int r, Object[] arrays, int row) {
        for (int f = 0; f < fields.length; f++) {
            FieldType ft = t.fieldType(f);
            if (ft == FieldType.OBJECT) {
                ((Object[]) arrays[f])[row] = ((Object[]) fields[f])[r];
            } else {
                ft.setBits(arrays[f], row, ((long[]) fields[f])[r]);
            }
        }
    }
}
