package dev.orrery.cluster.world;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.engine.Simulation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A world's snapshot as the store keeps it: {@code ORRWORLD}, a format {@code int} (1), the
 * input window's length and bytes ({@link ClientWindows}), then the simulation's own
 * snapshot. A stored snapshot without the magic is a bare simulation snapshot (written before
 * worlds de-duplicated inputs) and restores with an empty window. Damaged bytes, in its header,
 * its window or the simulation's part, are refused with a {@link SnapshotException}, the
 * engine's type for a snapshot that cannot be read.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class StoredSnapshot {
    private static final byte[] MAGIC = {'O', 'R', 'R', 'W', 'O', 'R', 'L', 'D'};
    private static final int FORMAT = 1;

    /** The two parts of a stored snapshot; {@code window} is null for a bare simulation snapshot. */
    record Parts(byte[] simulation, byte[] window) {
    }

    /**
     * Checks that a new world's simulation can take a snapshot, before its first tick: a world
     * moves between nodes by snapshot, so one that cannot (a reference component without a
     * codec, an event channel no codec can be derived for) would fail its first periodic
     * snapshot after that tick was journaled, reopen, replay and fail again, and could not
     * hand off.
     *
     * @throws SnapshotException naming the world and the blueprint as the fix, with the
     *     simulation's own refusal (naming what lacks a codec) as its cause
     */
    static void requireSnapshots(String worldId, Simulation sim) {
        try {
            sim.snapshot();
        } catch (SnapshotException e) {
            throw new SnapshotException("world '" + worldId + "' cannot run in a cluster: it moves between nodes by "
                    + "snapshot, and its simulation cannot take one: " + e.getMessage() + "; fix the blueprint", e);
        }
    }

    static byte[] write(byte[] simulation, ClientWindows windows) throws IOException {
        ByteArrayOutputStream w = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(w)) {
            windows.write(out);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(simulation.length + w.size() + 32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write(MAGIC);
            out.writeInt(FORMAT);
            out.writeInt(w.size());
            w.writeTo(out);
            out.write(simulation);
        }
        return bytes.toByteArray();
    }

    /**
     * The parts of {@code stored}.
     *
     * @throws SnapshotException if its header is damaged or from another Orrery version, as
     *     {@code Simulation.restore} refuses a damaged simulation snapshot
     */
    static Parts read(byte[] stored, String worldId) {
        if (stored.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(stored, MAGIC.length), MAGIC)) {
            return new Parts(stored, null);
        }
        int at = MAGIC.length + 8;
        if (stored.length < at) {
            throw new SnapshotException("world '" + worldId + "': stored snapshot of " + stored.length + " bytes ends "
                    + "inside its " + at + "-byte header; it is damaged: delete it so the world opens from an older "
                    + "snapshot and its journal");
        }
        ByteBuffer header = ByteBuffer.wrap(stored, MAGIC.length, 8);
        int format = header.getInt();
        int windowLength = header.getInt();
        if (format != FORMAT || windowLength < 0 || windowLength > stored.length - at) {
            throw new SnapshotException("world '" + worldId + "': stored snapshot has format " + format + " and a "
                    + "window of " + windowLength + " bytes in " + stored.length + "; it is damaged or from another "
                    + "Orrery version");
        }
        return new Parts(Arrays.copyOfRange(stored, at + windowLength, stored.length),
                Arrays.copyOfRange(stored, at, at + windowLength));
    }

    /**
     * Reads the input window of {@code parts} into {@code into} (nothing for a bare simulation snapshot).
     *
     * @throws SnapshotException if the window's bytes are damaged, with what was wrong as its cause
     */
    static void readWindow(Parts parts, ClientWindows into, String worldId) {
        if (parts.window() == null) {
            return;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(parts.window()))) {
            into.read(in, worldId);
        } catch (IOException e) {
            throw new SnapshotException(e.getMessage() != null && e.getMessage().startsWith("world '") ? e.getMessage()
                    : "world '" + worldId + "': the stored snapshot's input window of " + parts.window().length
                    + " bytes ends early (" + e + "); it is damaged or from another Orrery version", e);
        }
    }

    private StoredSnapshot() {
    }
}
