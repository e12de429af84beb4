package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * The change state as a snapshot section ({@value #NAME}), so that a world restored from a
 * snapshot filters exactly as the original would have: the change clock, every chunk
 * column's added and changed versions (chunks are restored with the same rows in the same
 * places), each system's last-run tick by name, the removal logs and their retire state.
 * {@link WorldSnapshot} writes it with every snapshot and consumes it on restore, parsed and
 * checked with the rest of the snapshot before any row is placed; it never appears among
 * the extras handed back to the caller.
 *
 * <p><b>Threading:</b> stateless; used on the world's owning thread.
 */
final class ChangeSection {
    /** The section's name among the snapshot's extras. */
    static final String NAME = "orrery.changes";

    /**
     * Marks the trailer with the per-row versions of row-tracked columns (added after the
     * removal logs; a section without it, written before rows were tracked, still reads:
     * every row then takes its chunk's changed version).
     */
    private static final int ROWS_TAG = 0x524f5753; // "ROWS"
    /**
     * Marks the trailer with each removal log's newest retired tick, in the logs' order (added
     * after the row versions, so that {@code RemovedEntities.missed()} reads the same after a
     * restore; a section without it still reads: no log has retired anything then).
     */
    private static final int RETIRED_TAG = 0x52455452; // "RETR"

    // The parsed section (see parse): the clock, then per archetype each chunk's (added,
    // changed) pair per column slot, the systems' last runs, the retire state, the removal
    // logs, and per archetype the slots of row-tracked columns with a version per row.
    private long now;
    private long[][] versions;
    private String[] systemNames;
    private long[] systemTicks;
    private long[] retire;
    private int[] removedIds;
    private long[][][] removed;
    private long[] retiredThrough;
    private int[][] rowColumns;
    private long[][][] rowVersions;

    private ChangeSection() {
    }

    static byte[] write(World world) {
        ChangeTracker changes = world.changes();
        Archetypes archetypes = world.storage().archetypes();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeLong(archetypes.clock().now());
            out.writeInt(archetypes.count());
            for (int a = 0; a < archetypes.count(); a++) {
                Archetype arch = archetypes.get(a);
                out.writeInt(arch.chunkCount());
                for (int c = 0; c < arch.chunkCount(); c++) {
                    Chunk chunk = arch.chunk(c);
                    for (int s = 0; s < arch.columnCount(); s++) {
                        out.writeLong(chunk.addedVersion(s));
                        out.writeLong(chunk.changedVersion(s));
                    }
                }
            }
            List<String> systems = changes.systemNames();
            out.writeInt(systems.size());
            for (int i = 0; i < systems.size(); i++) {
                out.writeUTF(systems.get(i));
                out.writeLong(changes.lastRun(i));
            }
            for (long v : changes.retireState()) {
                out.writeLong(v);
            }
            int[] tracked = changes.trackedRemovedIds();
            out.writeInt(tracked.length);
            for (int id : tracked) {
                long[][] entries = changes.removedEntries(id);
                out.writeInt(id);
                out.writeInt(entries[0].length);
                for (int i = 0; i < entries[0].length; i++) {
                    out.writeLong(entries[0][i]);
                    out.writeLong(entries[1][i]);
                }
            }
            writeRows(out, archetypes);
            out.writeInt(RETIRED_TAG);
            for (int id : tracked) {
                out.writeLong(changes.retiredThrough(id));
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array stream does not fail
        }
    }

    /**
     * Reads and checks the whole section against the layout the snapshot is about to
     * rebuild ({@code archetypeColumns[a]} holding {@code rows[a]} rows), before any row
     * is placed: once this returns, {@link #apply} cannot fail, so a refused section
     * leaves the target world untouched. The clock is at least 1; no version, last run, run
     * start or removal tick is negative, removal ticks ascend; the run count is not negative
     * (it picks the retire slot); no system is named twice.
     *
     * @throws SnapshotException if the section is unreadable or does not fit that layout,
     *     naming the byte offset
     * @throws IOException (a {@link SnapshotInput}'s, naming the offset) if it is cut short
     */
    static ChangeSection parse(SnapshotInput in, World target, int[][] archetypeColumns, long[][] rows)
            throws IOException {
        ComponentRegistry reg = target.components();
        Archetypes archetypes = target.storage().archetypes();
        ChangeSection c = new ChangeSection();
        in.part("clock");
        c.now = in.readLong();
        if (c.now < 1) {
            throw in.corruptAt(0, "the change clock reads " + c.now + "; it starts at 1");
        }
        in.part("chunk versions");
        int at = in.position();
        int count = in.readInt();
        if (count != archetypeColumns.length) {
            throw in.corruptAt(at, "the section lists " + count + " archetypes, the snapshot "
                    + archetypeColumns.length);
        }
        c.versions = new long[count][];
        for (int a = 0; a < count; a++) {
            at = in.position();
            int chunks = in.readInt();
            int expected = archetypes.chunksFor(columns(reg, archetypeColumns[a]), rows[a].length);
            if (chunks != expected) {
                throw in.refuseAt(at, "the section gives " + chunks + " chunks to snapshot archetype " + a
                        + ", whose " + rows[a].length + " rows fill " + expected + " here; the snapshot is corrupted, or "
                        + "the target world has another chunk budget than the writer's (new World(chunkBytes))");
            }
            c.versions[a] = readTicks(in, (long) chunks * archetypeColumns[a].length * 2, c.now, "chunk version");
        }
        in.part("systems");
        int systems = in.readCount("system", 2 + 8, Integer.MAX_VALUE);
        c.systemNames = new String[systems];
        c.systemTicks = new long[systems];
        java.util.Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < systems; i++) {
            at = in.position();
            c.systemNames[i] = in.readUTF();
            if (!names.add(c.systemNames[i])) {
                throw in.corruptAt(at, "system " + SnapshotInput.quote(c.systemNames[i]) + " is listed twice");
            }
            c.systemTicks[i] = readTick(in, c.now, "last run of a system");
        }
        in.part("retire state");
        at = in.position();
        long runs = in.readLong();
        if (runs < 0) {
            throw in.corruptAt(at, "the schedule run count is " + runs + ", negative");
        }
        c.retire = new long[ChangeTracker.RETAINED_RUNS + 1];
        c.retire[0] = runs;
        for (int i = 1; i < c.retire.length; i++) {
            c.retire[i] = readTick(in, c.now, "run start");
        }
        in.part("removal logs");
        int tracked = in.readCount("removal log", 4 + 4, reg.columnCount());
        c.removedIds = new int[tracked];
        c.removed = new long[tracked][][];
        for (int t = 0; t < tracked; t++) {
            at = in.position();
            int id = in.readInt();
            if (id < 0 || id >= reg.columnCount() || reg.column(id).isSparse() || t > 0 && id <= c.removedIds[t - 1]) {
                throw in.refuseAt(at, "the section logs the removals of column " + id + ", which the target world has "
                        + "not registered as a table column, or out of ascending order; the snapshot is corrupted or "
                        + "the components were registered otherwise");
            }
            int n = in.readCount("removal", 16, Integer.MAX_VALUE);
            c.removedIds[t] = id;
            c.removed[t] = new long[][] {new long[n], new long[n]};
            for (int i = 0; i < n; i++) {
                c.removed[t][0][i] = in.readLong();
                long tick = readTick(in, c.now, "removal tick");
                if (i > 0 && tick < c.removed[t][1][i - 1]) {
                    throw in.corruptAt(in.position() - 8, "removal ticks of " + reg.column(id) + " go back from "
                            + c.removed[t][1][i - 1] + " to " + tick);
                }
                c.removed[t][1][i] = tick;
            }
        }
        in.part("row versions");
        c.parseRows(in, reg, archetypeColumns, rows);
        in.part("retired ticks");
        c.retiredThrough = new long[tracked];
        if (in.remaining() > 0) {
            at = in.position();
            if (in.readInt() != RETIRED_TAG) {
                throw in.corruptAt(at, "unknown data after the row versions (a section from a newer Orrery?)");
            }
            for (int t = 0; t < tracked; t++) {
                c.retiredThrough[t] = readTick(in, c.now, "newest retired removal tick");
            }
        }
        in.part(null);
        in.requireEnd();
        return c;
    }

    private static Component<?>[] columns(ComponentRegistry reg, int[] ids) {
        Component<?>[] out = new Component<?>[ids.length];
        for (int s = 0; s < ids.length; s++) {
            out[s] = reg.column(ids[s]);
        }
        return out;
    }

    /** Reads {@code n} ticks (see {@link #readTick}), refusing a count the section cannot hold before allocating. */
    private static long[] readTicks(SnapshotInput in, long n, long now, String what) throws IOException {
        in.checkCount(in.position(), n, what, 8, Integer.MAX_VALUE);
        long[] out = new long[(int) n];
        for (int i = 0; i < out.length; i++) {
            out[i] = readTick(in, now, what);
        }
        return out;
    }

    /**
     * Reads one tick, which must not be negative (0: never). Ticks past the clock ({@code now})
     * are let through: a system's planned tick may run ahead of it, and a later tick only
     * changes what filters see, which the recorded state hashes catch.
     */
    private static long readTick(SnapshotInput in, long now, String what) throws IOException {
        int at = in.position();
        long v = in.readLong();
        if (v < 0) {
            throw in.corruptAt(at, what + " " + v + " is negative (the change clock is at " + now + ")");
        }
        return v;
    }

    /**
     * Writes the section into {@code world}, whose rows the snapshot has just rebuilt in the
     * layout {@link #parse} checked.
     */
    void apply(World world) {
        ChangeTracker changes = world.changes();
        Archetypes archetypes = world.storage().archetypes();
        for (int a = 0; a < versions.length; a++) {
            Archetype arch = archetypes.get(a);
            int cols = arch.columnCount();
            for (int c = 0; c < arch.chunkCount(); c++) {
                Chunk chunk = arch.chunk(c);
                for (int s = 0; s < cols; s++) {
                    int at = (c * cols + s) * 2;
                    chunk.restoreVersions(s, versions[a][at], versions[a][at + 1]);
                }
            }
        }
        for (int i = 0; i < systemNames.length; i++) {
            changes.lastRun(changes.systemSlot(systemNames[i]), systemTicks[i]);
        }
        changes.restoreRetireState(retire);
        for (int t = 0; t < removedIds.length; t++) {
            changes.restoreRemoved(removedIds[t], removed[t][0], removed[t][1]);
            changes.restoreRetiredThrough(removedIds[t], retiredThrough[t]);
        }
        archetypes.clock().set(now);
        applyRows(archetypes);
    }

    private static void writeRows(DataOutputStream out, Archetypes archetypes) throws IOException {
        out.writeInt(ROWS_TAG);
        for (int a = 0; a < archetypes.count(); a++) {
            Archetype arch = archetypes.get(a);
            int tracked = 0;
            for (int s = 0; s < arch.columnCount(); s++) {
                tracked += arch.component(s).rowsTracked() ? 1 : 0;
            }
            out.writeInt(tracked);
            for (int s = 0; s < arch.columnCount(); s++) {
                if (!arch.component(s).rowsTracked()) {
                    continue;
                }
                out.writeInt(arch.columnId(s));
                for (int c = 0; c < arch.chunkCount(); c++) {
                    Chunk chunk = arch.chunk(c);
                    for (int r = 0; r < chunk.size(); r++) {
                        out.writeLong(chunk.rowVersion(s, r));
                    }
                }
            }
        }
    }

    /** Reads the per-row versions, if the section has them (a section written before rows were tracked has none). */
    private void parseRows(SnapshotInput in, ComponentRegistry reg, int[][] archetypeColumns, long[][] rows)
            throws IOException {
        rowColumns = new int[archetypeColumns.length][0];
        rowVersions = new long[archetypeColumns.length][0][];
        if (in.remaining() == 0) {
            return;
        }
        int at = in.position();
        if (in.readInt() != ROWS_TAG) {
            throw in.corruptAt(at, "unknown data after the removal logs (a section from a newer Orrery?)");
        }
        for (int a = 0; a < archetypeColumns.length; a++) {
            int tracked = in.readCount("row-tracked column", 4, archetypeColumns[a].length);
            rowColumns[a] = new int[tracked];
            rowVersions[a] = new long[tracked][];
            for (int t = 0; t < tracked; t++) {
                at = in.position();
                int id = in.readInt();
                int s = Arrays.binarySearch(archetypeColumns[a], id);
                if (s < 0 || !reg.column(id).rowsTracked()) {
                    throw in.refuseAt(at, "the snapshot keeps per-row change versions of component "
                            + (s < 0 ? "#" + id : reg.column(id)) + " in snapshot archetype " + a + ", which the "
                            + "restoring world does not track; call world.trackRowChanges(...) for it before restoring");
                }
                if (t > 0 && s <= rowColumns[a][t - 1]) {
                    throw in.corruptAt(at, "row-tracked column " + reg.column(id) + " of snapshot archetype " + a
                            + " is listed twice or out of order");
                }
                rowColumns[a][t] = s;
                rowVersions[a][t] = readTicks(in, rows[a].length, now, "row version");
            }
        }
    }

    /** Every row of a row-tracked column takes its chunk's version, then the section's (if any) its own. */
    private void applyRows(Archetypes archetypes) {
        for (int a = 0; a < versions.length; a++) {
            Archetype arch = archetypes.get(a);
            for (int c = 0; c < arch.chunkCount(); c++) {
                Chunk chunk = arch.chunk(c);
                for (int s = 0; s < arch.columnCount(); s++) {
                    for (int r = 0; chunk.tracksRows(s) && r < chunk.size(); r++) {
                        chunk.restoreRowVersion(s, r, chunk.changedVersion(s), now);
                    }
                }
            }
            for (int t = 0; t < rowColumns[a].length; t++) {
                int s = rowColumns[a][t];
                int at = 0;
                for (int c = 0; c < arch.chunkCount(); c++) {
                    Chunk chunk = arch.chunk(c);
                    for (int r = 0; r < chunk.size(); r++) {
                        chunk.restoreRowVersion(s, r, rowVersions[a][t][at++], now);
                    }
                }
            }
        }
    }
}
