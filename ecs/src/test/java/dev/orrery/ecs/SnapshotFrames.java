package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
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
            SnapshotInput in = SnapshotInput.of("payload", payload);
            Map<String, byte[]> extras = new LinkedHashMap<>();
            for (Map.Entry<String, SnapshotInput> e : WorldSnapshot.parseExtras(in).entrySet()) {
                byte[] bytes = new byte[e.getValue().remaining()];
                e.getValue().readFully(bytes);
                extras.put(e.getKey(), bytes);
            }
            byte[] rest = new byte[in.remaining()];
            in.readFully(rest);
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
