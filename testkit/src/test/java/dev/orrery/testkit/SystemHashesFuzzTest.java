package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.orrery.testkit.Garden.Mistake;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * Coverage-guided fuzzing of {@link SystemHashes#readIfPresent}, the reader of a recording's
 * {@value SystemHashes#FILE} (formats {@code ORRSYSH2} and {@code ORRSYSH1}): whatever the bytes
 * of the file, the only outcome is the file read, or one {@link IOException} naming the file,
 * in one line; never another exception, and never an allocation the bytes do not back (at
 * most {@link #allocationBound} bytes, counted on the reading thread; the fuzz tests also run
 * in a small heap).
 *
 * <p>An input is the whole file. The committed corpus
 * ({@code SystemHashesFuzzTestInputs/readSystemHashes}) holds a file the kit wrote in each
 * format ({@link #main} writes them again) and the findings of earlier runs; a longer run is
 * described in docs/design/engine-and-cluster.md.
 */
class SystemHashesFuzzTest {
    private static final Path DIR;
    private static final Path FILE;
    private static Allocation allocation;

    static {
        try {
            DIR = Files.createTempDirectory("orrery-fuzz-system-hashes");
            FILE = DIR.resolve(SystemHashes.FILE);
            DIR.toFile().deleteOnExit();
            FILE.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "10m")
    void readSystemHashes(byte[] data) throws IOException {
        Files.write(FILE, data);
        SystemHashes read = null;
        Allocation counter = counter();
        long before = counter.bytes();
        try {
            read = SystemHashes.readIfPresent(DIR);
        } catch (IOException e) {
            String m = e.getMessage();
            assertTrue(m != null && m.contains(FILE.toString()) && !m.contains("\n"),
                    "a refusal names the file in one line: " + e);
        }
        long allocated = counter.bytes() - before;
        assertTrue(allocated <= allocationBound(data.length), "reading " + data.length + " bytes allocated "
                + allocated + ", over the bound of " + allocationBound(data.length));
        if (read != null) {
            check(read);
        }
    }

    /**
     * What reading a file of {@code length} bytes may allocate: a multiple of the file (a
     * record's few bytes become a map entry, a boxed tick and an array; a 12-byte point an
     * object and its slots) plus 256 KiB for the stream's buffers and what a first use of a
     * code path loads; nothing proportional to a count's value.
     */
    static long allocationBound(int length) {
        return 64L * length + 256 * 1024;
    }

    /** What a file read holds: per tick the hashes after each system, which its points repeat. */
    private static void check(SystemHashes read) {
        assertNotNull(read.systems);
        assertNotNull(read.components);
        if (read.points != null) {
            assertEquals(read.ticks.keySet(), read.points.keySet());
            for (Map.Entry<Long, List<SystemTrail.Point>> t : read.points.entrySet()) {
                long[] after = t.getValue().stream().filter(p -> p.recordedBy() == null)
                        .mapToLong(SystemTrail.Point::hash).toArray();
                assertTrue(Arrays.equals(after, read.ticks.get(t.getKey())), "tick " + t.getKey());
                for (SystemTrail.Point p : t.getValue()) {
                    assertTrue(p.system() == null ? p.recordedBy().stream().allMatch(read.systems::contains)
                            : read.systems.contains(p.system()), "a point names the file's systems: " + p);
                }
            }
        } else {
            read.ticks.values().forEach(h -> assertTrue(h.length <= read.systems.size(), "hashes for unknown systems"));
        }
    }

    /**
     * The counter of the calling thread (Jazzer may call the target from another thread than
     * JUnit); the first call warms the reader up.
     */
    private static Allocation counter() throws IOException {
        if (allocation == null || allocation.thread() != Thread.currentThread().getId()) {
            warmUp();
            allocation = Allocation.ofCurrentThread();
        }
        return allocation;
    }

    /**
     * Runs every reading path, unmeasured, so that loading classes on a path's first use (the
     * exceptions, the stream pipeline, Jazzer's instrumentation) is not counted against one
     * input: a file the kit writes with sync points, each of its prefixes, and copies with each
     * 4-byte word or UTF length damaged.
     */
    private static void warmUp() throws IOException {
        try (SystemHashes.Writer w = new SystemHashes.Writer(DIR, List.of("a", "b"), List.of("C"))) {
            w.system(0, 1);
            w.syncPoint(new int[] {0}, 1, 2);
            w.system(1, 3);
            w.endTick(0);
        }
        byte[] good = Files.readAllBytes(FILE);
        List<byte[]> inputs = new ArrayList<>();
        for (int n = 0; n <= good.length; n++) {
            inputs.add(Arrays.copyOf(good, n));
        }
        for (int at = 0; at < good.length; at++) {
            for (int v : new int[] {-1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x8000_0000 >>> 8, 0xf7f7_f7f7}) {
                byte[] b = good.clone();
                for (int k = 0; k < 4 && at + k < b.length; k++) {
                    b[at + k] = (byte) (v >>> (24 - 8 * k));
                }
                inputs.add(b);
            }
        }
        for (byte[] b : inputs) {
            Files.write(FILE, b);
            try {
                SystemHashes.readIfPresent(DIR);
            } catch (IOException refused) {
                // the path is warm now
            }
        }
    }

    /** The committed seeds are files the kit reads as written: one of each format, with sync points. */
    @Test
    void shouldReadTheSeedsAsTheKitWroteThem() throws IOException {
        Path seeds = Path.of(Objects.requireNonNull(getClass().getResource("SystemHashesFuzzTestInputs/readSystemHashes"))
                .getPath());
        Files.copy(seeds.resolve("orrsysh2-garden"), FILE, StandardCopyOption.REPLACE_EXISTING);
        SystemHashes v2 = SystemHashes.readIfPresent(DIR);
        assertEquals(List.of("water", "grow", Garden.MISTAKE, "season"), v2.systems.subList(0, 4));
        assertEquals(SEED_TICKS, v2.ticks.size());
        assertTrue(v2.points.values().stream().flatMap(List::stream)
                .anyMatch(p -> p.recordedBy() != null && p.recordedBy().contains(Garden.MISTAKE)),
                "the seed holds a sync point that applied the mistake's commands: " + v2.points);
        Files.copy(seeds.resolve("orrsysh1-garden"), FILE, StandardCopyOption.REPLACE_EXISTING);
        SystemHashes v1 = SystemHashes.readIfPresent(DIR);
        assertNull(v1.points);
        assertEquals(v2.systems, v1.systems);
        for (Map.Entry<Long, long[]> t : v2.ticks.entrySet()) {
            assertTrue(Arrays.equals(t.getValue(), v1.ticks.get(t.getKey())), "tick " + t.getKey());
        }
        assertFalse(v1.ticks.isEmpty());
    }

    private static final int SEED_TICKS = 3;

    /**
     * Writes the two seeds into {@code args[0]}: a {@link Garden} recording of
     * {@value #SEED_TICKS} ticks whose mistake spawns mid-tick (so the file holds sync points
     * with commands), as {@code ORRSYSH2} and rewritten as {@code ORRSYSH1}. Run from the
     * repository root after changing the format, then commit the files:
     * {@code java -cp <testkit test classpath> dev.orrery.testkit.SystemHashesFuzzTest
     * testkit/src/test/resources/dev/orrery/testkit/SystemHashesFuzzTestInputs/readSystemHashes}.
     */
    public static void main(String[] args) throws IOException {
        Path out = Files.createDirectories(Path.of(args[0]));
        Path tmp = Files.createTempDirectory("orrery-seeds");
        Path v2 = tmp.resolve("v2");
        GoldenRecording.record(Garden.factory(Mistake.STATIC_COUNTER_SPAWN_MID_TICK), Garden.GARDENER, SEED_TICKS, v2);
        Path v1 = OldSystemHashes.copy(v2, tmp.resolve("v1"));
        Files.copy(v2.resolve(SystemHashes.FILE), out.resolve("orrsysh2-garden"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.copy(v1.resolve(SystemHashes.FILE), out.resolve("orrsysh1-garden"),
                StandardCopyOption.REPLACE_EXISTING);
        System.out.println("wrote 2 seeds to " + out);
    }
}
