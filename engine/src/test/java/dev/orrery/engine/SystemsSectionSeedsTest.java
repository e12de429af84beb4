package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.SnapshotException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The seeds of {@link SnapshotReaderFuzzTest} that hold the {@value SystemsSection#NAME}
 * section ({@link SystemsSection}): the corpus's {@code seed-payload} predates the section, so
 * without these the fuzz replay never reads it and a coverage-guided run rarely builds it.
 * {@code systems-section} is the workload's seed snapshot as written now; the others damage
 * that section only (a negative or a huge count, a name cut short, a name twice, a string that
 * is not modified UTF-8, bytes after the end, another schedule's systems). All are payloads
 * the harness frames (first byte 0), so they reach the section behind the checksum.
 * {@link #main} writes them again after a format change; this test checks what is committed.
 */
class SystemsSectionSeedsTest {
    static final String GOOD = "systems-section";

    /** The committed good seed holds the section naming the workload's systems, and restores and runs. */
    @Test
    void shouldHoldTheSystemsSectionInTheCommittedGoodSeed() throws IOException {
        byte[] seed = committed(GOOD);
        assertEquals(0, seed[0], "a payload the harness frames");
        byte[] snapshot = EverySectionWorkload.frame(Arrays.copyOfRange(seed, 1, seed.length));
        try (Simulation sim = EverySectionWorkload.build(false)) {
            assertNotNull(EverySectionWorkload.sections(EverySectionWorkload.payload(snapshot)).get(SystemsSection.NAME),
                    "the seed holds the section");
            assertArrayEquals(SystemsSection.write(sim.schedule().systemNames()),
                    EverySectionWorkload.section(snapshot, SystemsSection.NAME), "it names the workload's systems");
            sim.restore(snapshot);
            assertEquals(EverySectionWorkload.TICKS, sim.currentTick());
            sim.tick();
        }
    }

    /**
     * Each committed damaged seed is refused as one {@link SnapshotException} in one line that
     * names the section, and leaves the simulation new, able to take the good snapshot.
     */
    @Test
    void shouldRefuseEveryDamagedSystemsSectionAsASnapshotExceptionNamingTheSection() throws IOException {
        byte[] good = EverySectionWorkload.seed();
        for (String name : damaged(good).keySet()) {
            byte[] seed = committed(name);
            assertEquals(0, seed[0], name + ": a payload the harness frames");
            try (Simulation sim = EverySectionWorkload.build(false)) {
                SnapshotException e = assertThrows(SnapshotException.class,
                        () -> sim.restore(EverySectionWorkload.frame(Arrays.copyOfRange(seed, 1, seed.length))), name);
                assertTrue(e.getMessage().contains(SystemsSection.NAME), name + ": " + e.getMessage());
                assertFalse(e.getMessage().contains("\n"), name + ": " + e.getMessage());
                assertEquals(0, sim.world().entityCount(), name + ": a refused snapshot places nothing");
                assertEquals(0, sim.currentTick(), name);
                sim.restore(good);
                assertEquals(EverySectionWorkload.TICKS, sim.currentTick(), name + ": the good snapshot after");
            }
        }
    }

    /** Writes the seeds into {@code args[0]}: the workload's seed snapshot, and copies with its systems section damaged. */
    public static void main(String[] args) throws IOException {
        Path out = Files.createDirectories(Path.of(args[0]));
        byte[] good = EverySectionWorkload.seed();
        if (EverySectionWorkload.sections(EverySectionWorkload.payload(good)).get(SystemsSection.NAME) == null) {
            throw new IllegalStateException("the seed snapshot holds no section " + SystemsSection.NAME);
        }
        Map<String, byte[]> seeds = new LinkedHashMap<>();
        seeds.put(GOOD, good);
        seeds.putAll(damaged(good));
        for (Map.Entry<String, byte[]> s : seeds.entrySet()) {
            Files.write(out.resolve(s.getKey()), prefixed(EverySectionWorkload.payload(s.getValue())));
        }
        System.out.println("wrote " + seeds.size() + " seeds to " + out);
    }

    /** The damaged copies of {@code good}, by seed name: only the systems section differs. */
    static Map<String, byte[]> damaged(byte[] good) {
        byte[] section = EverySectionWorkload.section(good, SystemsSection.NAME);
        List<String> names = systems(section);
        Map<String, byte[]> d = new LinkedHashMap<>(); // the damaged sections first
        d.put("systems-section-count-minus-1", withCount(section, -1));
        d.put("systems-section-count-0x7ffffff0", withCount(section, 0x7ffffff0));
        d.put("systems-section-cut-short", Arrays.copyOf(section, section.length - 3));
        d.put("systems-section-name-twice", names(names.get(0), names.toArray(new String[0])));
        int firstEnd = 4 + 2 + ((section[4] & 0xFF) << 8 | section[5] & 0xFF); // the first name's end
        d.put("systems-section-not-modified-utf8", concat(Arrays.copyOf(section, 4), new byte[] {0, 2, (byte) 0xFF,
                (byte) 0xFF}, Arrays.copyOfRange(section, firstEnd, section.length)));
        d.put("systems-section-bytes-after-the-end", concat(section, new byte[] {0, 0}));
        String[] renamed = names.toArray(new String[0]);
        renamed[renamed.length - 1] = renamed[renamed.length - 1] + " v2";
        d.put("systems-section-other-systems", SystemsSection.write(List.of(renamed)));
        d.replaceAll((seed, damagedSection) -> EverySectionWorkload.withSection(good, SystemsSection.NAME,
                damagedSection));
        return d;
    }

    /** A section with {@code first} then {@code rest}, as the writer writes names (count, UTF each). */
    private static byte[] names(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return SystemsSection.write(List.of(all));
    }

    /** The names a well-formed section lists. */
    private static List<String> systems(byte[] section) {
        try (java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(section))) {
            String[] names = new String[in.readInt()];
            for (int i = 0; i < names.length; i++) {
                names[i] = in.readUTF();
            }
            return List.of(names);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code section} with its count replaced by {@code count}. */
    private static byte[] withCount(byte[] section, int count) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(count);
            out.write(section, 4, section.length - 4);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }

    private static byte[] prefixed(byte[] payload) {
        byte[] b = new byte[payload.length + 1];
        System.arraycopy(payload, 0, b, 1, payload.length);
        return b;
    }

    private byte[] committed(String name) throws IOException {
        Path dir = Path.of(Objects.requireNonNull(getClass().getResource("SnapshotReaderFuzzTestInputs/restoreSnapshot"),
                "the corpus folder").getPath());
        Path file = dir.resolve(name);
        assertTrue(Files.exists(file), "committed seed " + name + " (write it with SystemsSectionSeedsTest.main)");
        return Files.readAllBytes(file);
    }
}
