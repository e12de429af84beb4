package dev.orrery.ecs.snapshot;

import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.change.ChangeTracker;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The change state as a snapshot section ({@value #NAME}), so that a world restored from a
 * snapshot filters exactly as the original would have: the change clock, every chunk
 * column's added and changed versions (chunks are restored with the same rows in the same
 * places), each system's last-run tick by name, the removal logs and their retire state.
 * {@link WorldSnapshot} writes it with every snapshot and consumes it on restore; it never
 * appears among the extras handed back to the caller.
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
     * Restores the section into {@code world}, whose rows the snapshot has just rebuilt.
     *
     * @throws SnapshotException if the section does not fit the restored archetypes
     */
    static void restore(byte[] section, World world) {
        ChangeTracker changes = world.changes();
        Archetypes archetypes = world.storage().archetypes();
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(section));
            long now = in.readLong();
            int count = in.readInt();
            if (count != archetypes.count()) {
                throw new SnapshotException("change section lists " + count + " archetypes, the snapshot "
                        + archetypes.count() + "; the snapshot is corrupted");
            }
            for (int a = 0; a < count; a++) {
                Archetype arch = archetypes.get(a);
                int chunks = in.readInt();
                if (chunks != arch.chunkCount()) {
                    throw new SnapshotException("change section gives " + chunks + " chunks to " + arch + ", restored "
                            + arch.chunkCount() + "; the snapshot is corrupted");
                }
                for (int c = 0; c < chunks; c++) {
                    Chunk chunk = arch.chunk(c);
                    for (int s = 0; s < arch.columnCount(); s++) {
                        chunk.restoreVersions(s, in.readLong(), in.readLong());
                    }
                }
            }
            int systems = in.readInt();
            for (int i = 0; i < systems; i++) {
                changes.lastRun(changes.systemSlot(in.readUTF()), in.readLong());
            }
            long[] retire = new long[ChangeTracker.RETAINED_RUNS + 1];
            for (int i = 0; i < retire.length; i++) {
                retire[i] = in.readLong();
            }
            changes.restoreRetireState(retire);
            int tracked = in.readInt();
            for (int t = 0; t < tracked; t++) {
                int id = in.readInt();
                int n = in.readInt();
                long[] entities = new long[n];
                long[] ticks = new long[n];
                for (int i = 0; i < n; i++) {
                    entities[i] = in.readLong();
                    ticks[i] = in.readLong();
                }
                changes.restoreRemoved(id, entities, ticks);
            }
            archetypes.clock().set(now);
            restoreRows(in, archetypes, now);
        } catch (IOException | RuntimeException e) {
            if (e instanceof SnapshotException se) {
                throw se;
            }
            throw new SnapshotException("change section of the snapshot is unreadable: " + e.getMessage(), e);
        }
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

    /** Every row of a row-tracked column takes its chunk's version, then the trailer's (if any) its own. */
    private static void restoreRows(DataInputStream in, Archetypes archetypes, long now) throws IOException {
        for (int a = 0; a < archetypes.count(); a++) {
            Archetype arch = archetypes.get(a);
            for (int c = 0; c < arch.chunkCount(); c++) {
                Chunk chunk = arch.chunk(c);
                for (int s = 0; s < arch.columnCount(); s++) {
                    for (int r = 0; chunk.tracksRows(s) && r < chunk.size(); r++) {
                        chunk.restoreRowVersion(s, r, chunk.changedVersion(s), now);
                    }
                }
            }
        }
        if (in.available() == 0) {
            return; // written before per-row versions existed
        }
        if (in.readInt() != ROWS_TAG) {
            throw new SnapshotException("change section has unknown data after its removal logs; the snapshot is "
                    + "corrupted or from a newer Orrery");
        }
        for (int a = 0; a < archetypes.count(); a++) {
            Archetype arch = archetypes.get(a);
            int tracked = in.readInt();
            for (int t = 0; t < tracked; t++) {
                int id = in.readInt();
                int s = arch.slotOf(id);
                if (s < 0 || !arch.component(s).rowsTracked()) {
                    throw new SnapshotException("the snapshot keeps per-row change versions of component "
                            + (s < 0 ? "#" + id : arch.component(s)) + " in " + arch + ", which the restoring world does "
                            + "not track; call world.trackRowChanges(...) for it before restoring");
                }
                for (int c = 0; c < arch.chunkCount(); c++) {
                    Chunk chunk = arch.chunk(c);
                    for (int r = 0; r < chunk.size(); r++) {
                        chunk.restoreRowVersion(s, r, in.readLong(), now);
                    }
                }
            }
        }
    }
}
