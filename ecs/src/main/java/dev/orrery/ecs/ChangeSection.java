package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
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
     * leaves the target world untouched.
     *
     * @throws SnapshotException if the section is unreadable or does not fit that layout
     */
    static ChangeSection parse(byte[] section, World target, int[][] archetypeColumns, long[][] rows) {
        ComponentRegistry reg = target.components();
        Archetypes archetypes = target.storage().archetypes();
        ChangeSection c = new ChangeSection();
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(section));
            c.now = in.readLong();
            int count = in.readInt();
            if (count != archetypeColumns.length) {
                throw new SnapshotException("change section lists " + count + " archetypes, the snapshot "
                        + archetypeColumns.length + "; the snapshot is corrupted");
            }
            c.versions = new long[count][];
            for (int a = 0; a < count; a++) {
                int chunks = in.readInt();
                int expected = archetypes.chunksFor(columns(reg, archetypeColumns[a]), rows[a].length);
                if (chunks != expected) {
                    throw new SnapshotException("change section gives " + chunks + " chunks to snapshot archetype " + a
                            + ", whose " + rows[a].length + " rows fill " + expected + " here; the snapshot is corrupted, or the "
                            + "target world has another chunk budget than the writer's (new World(chunkBytes))");
                }
                c.versions[a] = readLongs(in, (long) chunks * archetypeColumns[a].length * 2, section.length);
            }
            int systems = WorldSnapshot.count(in.readInt(), section.length, "system");
            c.systemNames = new String[systems];
            c.systemTicks = new long[systems];
            for (int i = 0; i < systems; i++) {
                c.systemNames[i] = in.readUTF();
                c.systemTicks[i] = in.readLong();
            }
            c.retire = readLongs(in, ChangeTracker.RETAINED_RUNS + 1, section.length);
            int tracked = WorldSnapshot.count(in.readInt(), section.length, "removal log");
            c.removedIds = new int[tracked];
            c.removed = new long[tracked][][];
            for (int t = 0; t < tracked; t++) {
                int id = in.readInt();
                if (id < 0 || id >= reg.columnCount() || reg.column(id).isSparse()) {
                    throw new SnapshotException("change section logs the removals of column " + id + ", which the "
                            + "target world has not registered as a table column; the snapshot is corrupted or the "
                            + "components were registered otherwise");
                }
                int n = WorldSnapshot.count(in.readInt(), section.length / 16, "removal");
                c.removedIds[t] = id;
                c.removed[t] = new long[][] {new long[n], new long[n]};
                for (int i = 0; i < n; i++) {
                    c.removed[t][0][i] = in.readLong();
                    c.removed[t][1][i] = in.readLong();
                }
            }
            c.parseRows(in, section.length, reg, archetypeColumns, rows);
            if (in.available() != 0) {
                throw new SnapshotException("change section has " + in.available() + " bytes after its row versions; "
                        + "the snapshot is corrupted or from a newer Orrery");
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof SnapshotException se) {
                throw se;
            }
            throw new SnapshotException("change section of the snapshot is unreadable: " + e.getMessage(), e);
        }
        return c;
    }

    private static Component<?>[] columns(ComponentRegistry reg, int[] ids) {
        Component<?>[] out = new Component<?>[ids.length];
        for (int s = 0; s < ids.length; s++) {
            out[s] = reg.column(ids[s]);
        }
        return out;
    }

    /** Reads {@code n} longs, refusing a count the section's {@code sectionBytes} cannot hold. */
    private static long[] readLongs(DataInputStream in, long n, int sectionBytes) throws IOException {
        long[] out = new long[WorldSnapshot.count((int) Math.min(n, Integer.MAX_VALUE), sectionBytes / 8, "version")];
        for (int i = 0; i < out.length; i++) {
            out[i] = in.readLong();
        }
        return out;
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
    private void parseRows(DataInputStream in, int sectionBytes, ComponentRegistry reg, int[][] archetypeColumns,
            long[][] rows) throws IOException {
        rowColumns = new int[archetypeColumns.length][0];
        rowVersions = new long[archetypeColumns.length][0][];
        if (in.available() == 0) {
            return;
        }
        if (in.readInt() != ROWS_TAG) {
            throw new SnapshotException("change section has unknown data after its removal logs; the snapshot is "
                    + "corrupted or from a newer Orrery");
        }
        for (int a = 0; a < archetypeColumns.length; a++) {
            int tracked = WorldSnapshot.count(in.readInt(), archetypeColumns[a].length, "row-tracked column");
            rowColumns[a] = new int[tracked];
            rowVersions[a] = new long[tracked][];
            for (int t = 0; t < tracked; t++) {
                int id = in.readInt();
                int s = Arrays.binarySearch(archetypeColumns[a], id);
                if (s < 0 || !reg.column(id).rowsTracked()) {
                    throw new SnapshotException("the snapshot keeps per-row change versions of component "
                            + (s < 0 ? "#" + id : reg.column(id)) + " in snapshot archetype " + a + ", which the "
                            + "restoring world does not track; call world.trackRowChanges(...) for it before restoring");
                }
                rowColumns[a][t] = s;
                rowVersions[a][t] = readLongs(in, rows[a].length, sectionBytes);
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
