package dev.orrery.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32C;

/**
 * Test support: rewrites one named extra section of a snapshot and frames and checksums the
 * result anew, so that a test can hand the reader a section that is wrong in one precise way
 * while the file itself is intact.
 */
final class SnapshotFrames {
    private SnapshotFrames() {
    }

    /** The snapshot with its section {@code name} replaced by {@code edit} of it. */
    static byte[] reframe(byte[] snapshot, String name, UnaryOperator<byte[]> edit) {
        try {
            int header = WorldSnapshot.MAGIC.length + 4 + 8;
            byte[] payload = Arrays.copyOfRange(snapshot, header, snapshot.length - 4);
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
            int n = in.readInt();
            Map<String, byte[]> extras = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                String section = in.readUTF();
                byte[] data = new byte[in.readInt()];
                in.readFully(data);
                extras.put(section, data);
            }
            byte[] rest = in.readAllBytes();
            assertTrue(extras.containsKey(name), "the snapshot has a section " + name);
            extras.put(name, edit.apply(extras.get(name)));
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(body);
            out.writeInt(extras.size());
            for (Map.Entry<String, byte[]> e : extras.entrySet()) {
                out.writeUTF(e.getKey());
                out.writeInt(e.getValue().length);
                out.write(e.getValue());
            }
            out.write(rest);
            byte[] p = body.toByteArray();
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            DataOutputStream fo = new DataOutputStream(file);
            fo.write(snapshot, 0, WorldSnapshot.MAGIC.length + 4);
            fo.writeLong(p.length);
            fo.write(p);
            CRC32C crc = new CRC32C();
            crc.update(p);
            fo.writeInt((int) crc.getValue());
            return file.toByteArray();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
