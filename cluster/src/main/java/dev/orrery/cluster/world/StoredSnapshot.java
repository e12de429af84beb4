package dev.orrery.cluster.world;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.engine.Simulation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * A world's snapshot as the store keeps it: {@code ORRWORLD}, a format {@code int} (1), the
 * input window's length and bytes ({@link ClientWindows}), then the simulation's own
 * snapshot. A stored snapshot without the magic is a bare simulation snapshot (written before
 * worlds de-duplicated inputs) and restores with an empty window.
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
     */
    static void requireSnapshots(String worldId, Simulation sim) {
        try {
            sim.snapshot();
        } catch (SnapshotException e) {
            throw new IllegalStateException("world '" + worldId + "' cannot run in a cluster: it moves between nodes by "
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

    static Parts read(byte[] stored, String worldId) throws IOException {
        if (stored.length < MAGIC.length || !Arrays.equals(Arrays.copyOf(stored, MAGIC.length), MAGIC)) {
            return new Parts(stored, null);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(stored, MAGIC.length,
                stored.length - MAGIC.length));
        int format = in.readInt();
        int windowLength = in.readInt();
        int at = MAGIC.length + 8;
        if (format != FORMAT || windowLength < 0 || windowLength > stored.length - at) {
            throw new IOException("world '" + worldId + "': stored snapshot has format " + format + " and a window of "
                    + windowLength + " bytes in " + stored.length + "; it is damaged or from another Orrery version");
        }
        return new Parts(Arrays.copyOfRange(stored, at + windowLength, stored.length),
                Arrays.copyOfRange(stored, at, at + windowLength));
    }

    static void readWindow(Parts parts, ClientWindows into, String worldId) throws IOException {
        if (parts.window() == null) {
            return;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(parts.window()))) {
            into.read(in, worldId);
        }
    }

    private StoredSnapshot() {
    }
}
