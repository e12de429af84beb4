package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Test support: rewrites one named extra section of a snapshot and frames and checksums the
 * result anew with the writer's own framing, so that a test can hand the reader a section
 * that is wrong in one precise way while the file itself is intact.
 */
final class SnapshotFrames {
    private SnapshotFrames() {
    }

    /** The snapshot with its section {@code name} replaced by {@code edit} of it. */
    static byte[] reframe(byte[] snapshot, String name, UnaryOperator<byte[]> edit) {
        try {
            int version = snapshot[WorldSnapshot.MAGIC.length + 3];
            int header = WorldSnapshot.MAGIC.length + 4 + 8;
            byte[] payload = Arrays.copyOfRange(snapshot, header, snapshot.length - 4);
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
            Map<String, byte[]> extras = WorldSnapshot.parseExtras(in, payload.length);
            byte[] rest = in.readAllBytes();
            assertTrue(extras.containsKey(name), "the snapshot has a section " + name);
            extras.put(name, edit.apply(extras.get(name)));
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(body);
            WorldSnapshot.writeExtras(extras, out);
            out.write(rest);
            return WorldSnapshot.frame(body.toByteArray(), version);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
