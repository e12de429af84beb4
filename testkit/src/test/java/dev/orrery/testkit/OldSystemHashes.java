package dev.orrery.testkit;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Recordings as an older kit wrote them: {@code systems.hashes} in format {@code ORRSYSH1},
 * the hash after each system only, no sync point, for the tests of how old recordings are read.
 */
final class OldSystemHashes {
    private OldSystemHashes() {
    }

    /** A copy of the recording in {@code from} at {@code to}, its {@code systems.hashes} rewritten as ORRSYSH1. */
    static Path copy(Path from, Path to) {
        try {
            Files.createDirectories(to);
            try (Stream<Path> files = Files.list(from)) {
                for (Path f : files.toList()) {
                    Files.copy(f, to.resolve(f.getFileName()));
                }
            }
            SystemHashes now = SystemHashes.readIfPresent(from);
            try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(to.resolve(SystemHashes.FILE)))) {
                out.write("ORRSYSH1".getBytes(StandardCharsets.US_ASCII));
                out.writeInt(now.systems.size());
                for (String s : now.systems) {
                    out.writeUTF(s);
                }
                out.writeInt(now.components.size());
                for (String c : now.components) {
                    out.writeUTF(c);
                }
                for (Map.Entry<Long, long[]> t : now.ticks.entrySet()) {
                    out.writeLong(t.getKey());
                    out.writeInt(t.getValue().length);
                    for (long h : t.getValue()) {
                        out.writeLong(h);
                    }
                }
            }
            return to;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
