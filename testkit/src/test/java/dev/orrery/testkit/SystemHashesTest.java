package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file of hashes after each system and each sync point: written, read back, old and damaged files. */
class SystemHashesTest {
    private static final List<String> SYSTEMS = List.of("water", "grow", "mistake", "season");

    @TempDir
    Path dir;

    private static SystemTrail.Point system(String name, long hash) {
        return new SystemTrail.Point(name, null, hash);
    }

    private static SystemTrail.Point sync(long hash, String... by) {
        return new SystemTrail.Point(null, List.of(by), hash);
    }

    private void writeTwoTicks() throws IOException {
        try (SystemHashes.Writer w = new SystemHashes.Writer(dir, SYSTEMS, List.of("Growth", "Seed"))) {
            w.system(0, 10);
            w.system(1, 11);
            w.system(2, 12);
            w.syncPoint(new int[] {1, 2, 99}, 2, 13); // only the first two entries are the sync point's
            w.system(3, 14);
            w.syncPoint(new int[0], 0, 15);
            w.endTick(0);
            for (int s = 0; s < 4; s++) {
                w.system(s, 20 + s);
            }
            w.endTick(1);
        }
    }

    @Test
    void shouldReadBackTheHashesAfterEachSystemAndEachSyncPoint() throws IOException {
        writeTwoTicks();
        SystemHashes h = SystemHashes.readIfPresent(dir);
        assertEquals(SYSTEMS, h.systems);
        assertEquals(List.of("Growth", "Seed"), h.components);
        assertEquals(List.of(system("water", 10), system("grow", 11), system("mistake", 12), sync(13, "grow", "mistake"),
                system("season", 14), sync(15)), h.points.get(0L));
        assertArrayEquals(new long[] {10, 11, 12, 14}, h.ticks.get(0L));
        assertArrayEquals(new long[] {20, 21, 22, 23}, h.ticks.get(1L));
        assertEquals(4, h.points.get(1L).size());
    }

    @Test
    void shouldReadAnOldFileWithoutSyncPoints() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.write("ORRSYSH1".getBytes(StandardCharsets.US_ASCII));
            out.writeInt(2);
            out.writeUTF("a");
            out.writeUTF("b");
            out.writeInt(0);
            out.writeLong(7);
            out.writeInt(2);
            out.writeLong(1);
            out.writeLong(2);
            out.writeLong(8); // a record cut short by a crash
            out.writeInt(2);
        }
        Files.write(dir.resolve(SystemHashes.FILE), bytes.toByteArray());
        SystemHashes h = SystemHashes.readIfPresent(dir);
        assertNull(h.points, "an ORRSYSH1 file has no sync point");
        assertEquals(1, h.ticks.size());
        assertArrayEquals(new long[] {1, 2}, h.ticks.get(7L));
    }

    @Test
    void shouldDropARecordCutShort() throws IOException {
        writeTwoTicks();
        Path file = dir.resolve(SystemHashes.FILE);
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE)) {
            c.truncate(c.size() - 3);
        }
        SystemHashes h = SystemHashes.readIfPresent(dir);
        assertEquals(List.of(0L), List.copyOf(h.ticks.keySet()));
        assertEquals(List.of(0L), List.copyOf(h.points.keySet()));
    }

    @Test
    void shouldRefuseDamagedCountsAndPositionsNamingTheFile() throws IOException {
        writeTwoTicks();
        Path file = dir.resolve(SystemHashes.FILE);
        byte[] good = Files.readAllBytes(file);
        int header = 8 + 4 + SYSTEMS.stream().mapToInt(s -> 2 + s.length()).sum() + 4 + 2 + 6 + 2 + 4;
        // the first record: tick (8 bytes), its point count, then the first point's code
        for (int[] damage : new int[][] {{header + 8, Integer.MAX_VALUE}, {header + 8, -1}, {header + 12, 4},
                {header + 12, Integer.MIN_VALUE}}) {
            byte[] bad = good.clone();
            for (int k = 0; k < 4; k++) {
                bad[damage[0] + k] = (byte) (damage[1] >>> (24 - 8 * k));
            }
            Files.write(file, bad);
            IOException e = assertThrows(IOException.class, () -> SystemHashes.readIfPresent(dir));
            assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("the file is damaged"), e.getMessage());
        }
        Files.write(file, "ORRSYSH9".getBytes(StandardCharsets.US_ASCII));
        IOException e = assertThrows(IOException.class, () -> SystemHashes.readIfPresent(dir));
        assertTrue(e.getMessage().contains("does not start with ORRSYSH2 or ORRSYSH1"), e.getMessage());
    }

    /**
     * A count damaged so that it still fits one pass and the bytes that follow (tick 0's 2 points made 5: tick 1's
     * record read as its last 3), or made larger than one pass where the file holds the bytes (ORRSYSH1, 2 hashes
     * made 9: ticks 1 and 2 read as tick 0's), was read without a word, the ticks it swallowed gone and their hashes
     * laid at tick 0. The records follow tick by tick, so the record after a count must be the next tick.
     */
    @Test
    void shouldRefuseACountThatReadsIntoTheNextRecordNamingTheFileTheTickTheCountAndTheFix() throws IOException {
        Path file = dir.resolve(SystemHashes.FILE);
        int header = 8 + 4 + 2 + 1 + 2 + 1 + 4;
        for (String format : List.of("ORRSYSH2", "ORRSYSH1")) {
            boolean v1 = format.equals("ORRSYSH1");
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.write(format.getBytes(StandardCharsets.US_ASCII));
                out.writeInt(2);
                out.writeUTF("a");
                out.writeUTF("b");
                out.writeInt(0);
                for (long t = 0; t < 4; t++) {
                    out.writeLong(t);
                    out.writeInt(2);
                    for (int s = 0; s < 2; s++) {
                        if (!v1) {
                            out.writeInt(s);
                        }
                        out.writeLong(0x5DEECE66DL * (t * 2 + s + 1));
                    }
                }
            }
            byte[] good = bytes.toByteArray();
            Files.write(file, good);
            assertEquals(List.of(0L, 1L, 2L, 3L), List.copyOf(SystemHashes.readIfPresent(dir).ticks.keySet()), format);
            int damaged = v1 ? 9 : 5;
            byte[] bad = good.clone();
            bad[header + 8 + 3] = (byte) damaged; // tick 0's count
            Files.write(file, bad);
            IOException e = assertThrows(IOException.class, () -> SystemHashes.readIfPresent(dir), format);
            assertEquals(file + ": tick 0 lists " + damaged + (v1 ? " hashes" : " points") + ", but the record after "
                    + "them is tick " + (v1 ? 3 : 2) + ", not tick 1 (the records follow tick by tick): the count is "
                    + "damaged; record the recording again (GoldenRecording.record)", e.getMessage());
        }
    }

    @Test
    void shouldRefuseANameThatIsNotModifiedUtf8NamingTheFile() throws IOException {
        writeTwoTicks();
        Path file = dir.resolve(SystemHashes.FILE);
        byte[] bad = Files.readAllBytes(file);
        bad[8 + 4 + 2 + "water".length() + 2 + 3] = (byte) 0xf7; // "grow": its 'w' as a byte no UTF-8 sequence starts with
        Files.write(file, bad);
        IOException e = assertThrows(IOException.class, () -> SystemHashes.readIfPresent(dir));
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("system name 1") && e.getMessage().contains("the file is damaged"),
                e.getMessage());
    }

    @Test
    void shouldAllocateOnlyWhatTheFileBacksForANameCountOrLengthItDoesNotHold() throws IOException {
        Path file = dir.resolve(SystemHashes.FILE);
        Allocation threads = Allocation.ofCurrentThread();
        // a name claiming 65 535 bytes where 1 follows (a buffer of 384 KiB for it); 65 536 names where none follows
        // (a list of 256 KiB for them)
        for (int damage = 0; damage < 2; damage++) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.write("ORRSYSH2".getBytes(StandardCharsets.US_ASCII));
                if (damage == 0) {
                    out.writeInt(2);
                    out.writeUTF("a");
                    out.writeShort(0xffff);
                    out.write('b');
                } else {
                    out.writeInt(1 << 16);
                }
            }
            Files.write(file, bytes.toByteArray());
            for (int warm = 0; warm < 2; warm++) {
                long before = threads.bytes();
                IOException e = assertThrows(IOException.class, () -> SystemHashes.readIfPresent(dir));
                long allocated = threads.bytes() - before;
                assertTrue(e.getMessage().startsWith(file.toString()) && e.getMessage().contains("the file is damaged"),
                        e.getMessage());
                assertTrue(warm == 0 || allocated < 64 * 1024, "damage " + damage + ": " + allocated
                        + " bytes for a file of " + bytes.size());
            }
        }
    }

    @Test
    void shouldAllocateNothingPerPointOnceItsArraysHaveGrown() throws IOException {
        Allocation threads = Allocation.ofCurrentThread();
        int[] by = {0, 1, 2, 3};
        try (SystemHashes.Writer w = new SystemHashes.Writer(dir, SYSTEMS, List.of())) {
            for (int t = 0; t < 2_000; t++) { // grows the arrays, warms the code up
                tick(w, t, by);
            }
            long before = threads.bytes();
            for (int t = 2_000; t < 12_000; t++) {
                tick(w, t, by);
            }
            long allocated = threads.bytes() - before;
            // 10 000 ticks of 40 points: one object per point would be 6 MB; the file's flushes may allocate a little
            assertTrue(allocated < 64 * 1024, allocated + " bytes for 400 000 points");
        }
    }

    private static void tick(SystemHashes.Writer w, long t, int[] by) throws IOException {
        for (int r = 0; r < 10; r++) {
            for (int s = 0; s < 3; s++) {
                w.system(s, t * 31 + s);
            }
            w.syncPoint(by, 1 + r % 4, t);
        }
        w.endTick(t);
    }
}
