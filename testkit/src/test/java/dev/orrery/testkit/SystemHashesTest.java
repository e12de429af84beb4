package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
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

    /**
     * The calling thread's allocated bytes from HotSpot's counter, reached by reflection (the
     * test kit's module reads no management module); the test is skipped where there is none.
     */
    private record Allocation(Object bean, Method counter, long thread) {
        static Allocation ofCurrentThread() {
            try {
                Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                        .invoke(null);
                Class<?> hotSpot = Class.forName("com.sun.management.ThreadMXBean");
                assumeTrue(hotSpot.isInstance(bean), "needs HotSpot's per-thread allocation counter");
                assumeTrue((Boolean) hotSpot.getMethod("isThreadAllocatedMemorySupported").invoke(bean),
                        "the JVM counts no per-thread allocation");
                Allocation a = new Allocation(bean, hotSpot.getMethod("getThreadAllocatedBytes", long.class),
                        Thread.currentThread().getId());
                a.bytes();
                return a;
            } catch (ReflectiveOperationException | RuntimeException e) {
                assumeTrue(false, "no per-thread allocation counter reachable: " + e);
                throw new AssertionError(e);
            }
        }

        long bytes() {
            try {
                return (Long) counter.invoke(bean, thread);
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
    }
}
