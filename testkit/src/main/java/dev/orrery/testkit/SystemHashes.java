package dev.orrery.testkit;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kit's file beside a recording, {@value #FILE}: the names of the game's systems (in graph
 * order) and components (in registration order), then for every tick the world's state hash
 * after each system. With it two recordings, or a recording and a replay, can name the first
 * system after which they differ without running both versions of the game.
 *
 * <p>Format (big-endian): the 8 bytes {@code ORRSYSH1}; an int count and that many UTF strings
 * of system names; an int count and that many UTF strings of component names; then records of
 * a long tick, an int count and that many long hashes, up to the end of the file (a record cut
 * short by a crash is dropped).
 */
final class SystemHashes {
    static final String FILE = "systems.hashes";
    private static final byte[] MAGIC = {'O', 'R', 'R', 'S', 'Y', 'S', 'H', '1'};
    private static final int MAX_NAMES = 1 << 16;

    final List<String> systems;
    final List<String> components;
    final Map<Long, long[]> ticks;

    private SystemHashes(List<String> systems, List<String> components, Map<Long, long[]> ticks) {
        this.systems = systems;
        this.components = components;
        this.ticks = ticks;
    }

    /** The file in {@code dir}, or null when the recording has none (it was not made by the kit). */
    static SystemHashes readIfPresent(Path dir) throws IOException {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new BufferedInputStream(raw))) {
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new IOException(file + " does not start with ORRSYSH1: it is not a file the test kit wrote");
            }
            List<String> systems = names(in, file, "system");
            List<String> components = names(in, file, "component");
            Map<Long, long[]> ticks = new LinkedHashMap<>();
            for (;;) {
                long tick;
                try {
                    tick = in.readLong();
                } catch (EOFException end) {
                    break;
                }
                int n;
                long[] h;
                try {
                    n = in.readInt();
                    if (n < 0 || n > systems.size()) {
                        throw new IOException(file + ": tick " + tick + " lists " + n + " hashes for " + systems.size()
                                + " systems; the file is damaged");
                    }
                    h = new long[n];
                    for (int i = 0; i < n; i++) {
                        h[i] = in.readLong();
                    }
                } catch (EOFException cut) {
                    break; // the last record was cut short
                }
                ticks.put(tick, h);
            }
            return new SystemHashes(systems, components, ticks);
        } catch (EOFException e) {
            throw new IOException(file + " ends inside its header; the file is damaged");
        }
    }

    private static List<String> names(DataInputStream in, Path file, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > MAX_NAMES) {
            throw new IOException(file + " lists " + n + " " + what + " names, more than the " + MAX_NAMES
                    + " a game may have; the file is damaged");
        }
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.readUTF());
        }
        return List.copyOf(out);
    }

    /** The position of the first system after which {@code a} and {@code b} differ, or -1. */
    static int firstDifference(long[] a, long[] b) {
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            if (a[i] != b[i]) {
                return i;
            }
        }
        return -1;
    }

    /** Writes the file as a run goes: the header at creation, then one record per tick. */
    static final class Writer implements Closeable {
        private final DataOutputStream out;

        Writer(Path dir, List<String> systems, List<String> components) throws IOException {
            out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(dir.resolve(FILE))));
            out.write(MAGIC);
            out.writeInt(systems.size());
            for (String s : systems) {
                out.writeUTF(s);
            }
            out.writeInt(components.size());
            for (String c : components) {
                out.writeUTF(c);
            }
        }

        void tick(long tick, long[] hashes, int n) throws IOException {
            out.writeLong(tick);
            out.writeInt(n);
            for (int i = 0; i < n; i++) {
                out.writeLong(hashes[i]);
            }
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }
}
