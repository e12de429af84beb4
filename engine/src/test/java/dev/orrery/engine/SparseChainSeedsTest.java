package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.EverySectionWorkload.Burning;
import dev.orrery.engine.EverySectionWorkload.Hp;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The seeds of {@link SnapshotReaderFuzzTest} whose prototype chains mix a sparse column with
 * a table column registered after it (Hp 0, Burning 1 sparse, Name 2), so that the fuzzer
 * starts from both orders a reader takes: {@code sparse-chain-new-order} as written now (table
 * columns, then sparse ones: {@code [0, 2, 1]}) and {@code sparse-chain-interleaved} as earlier
 * writers wrote it (registration order: {@code [0, 1, 2]}); both as payloads the harness frames
 * (first byte 0). The seed snapshot of {@link EverySectionWorkload} holds no such chain.
 * {@link #main} writes them again after a format change.
 */
class SparseChainSeedsTest {
    static final String NEW_ORDER = "sparse-chain-new-order";
    static final String INTERLEAVED = "sparse-chain-interleaved";
    private static final byte[] NEW_CHAIN = ints(3, 0, 2, 1);
    private static final byte[] OLD_CHAIN = ints(3, 0, 1, 2);

    /** Both committed seeds restore, to the same world, and differ only in the order of their chains. */
    @Test
    void shouldRestoreBothOrdersOfTheCommittedSeedsToTheSameWorld() throws IOException {
        Path dir = Path.of(Objects.requireNonNull(getClass().getResource("SnapshotReaderFuzzTestInputs/restoreSnapshot"))
                .getPath());
        byte[] now = Files.readAllBytes(dir.resolve(NEW_ORDER));
        byte[] old = Files.readAllBytes(dir.resolve(INTERLEAVED));
        assertEquals(0, now[0], "a payload the harness frames");
        assertEquals(0, old[0], "a payload the harness frames");
        assertNotEquals(-1, indexOf(now, NEW_CHAIN, 0), "the new seed holds a chain with a sparse column before a later table one");
        assertArrayEquals(now, interleave(old), "the seeds differ only in their chains' order");
        long[] hashes = new long[2];
        for (int i = 0; i < 2; i++) {
            byte[] payload = Arrays.copyOfRange(i == 0 ? now : old, 1, now.length);
            try (Simulation sim = EverySectionWorkload.build(false)) {
                sim.restore(EverySectionWorkload.frame(payload));
                hashes[i] = sim.world().stateHash();
                sim.tick();
            }
        }
        assertEquals(hashes[0], hashes[1], "both orders restore the same world");
    }

    /**
     * Writes the two seeds into {@code args[0]}: the workload's seed simulation with one more
     * entity holding Hp, Name and Burning, snapshotted, and the same with its chains interleaved.
     */
    public static void main(String[] args) throws IOException {
        Path out = Files.createDirectories(Path.of(args[0]));
        byte[] payload;
        try (Simulation sim = EverySectionWorkload.build(true)) {
            for (int t = 0; t < EverySectionWorkload.TICKS; t++) {
                sim.tick();
            }
            World world = sim.world();
            Component<Burning> burning = world.component(Burning.class, Storage.SPARSE);
            Component<String> name = world.referenceComponent(String.class, "Name");
            long e = world.spawn(new Hp(9));
            world.add(e, name, "late");
            world.add(e, burning, new Burning(2f));
            payload = EverySectionWorkload.payload(sim.snapshot());
        }
        byte[] now = prefixed(payload);
        if (indexOf(now, NEW_CHAIN, 0) < 0) {
            throw new IllegalStateException("the snapshot holds no chain " + Arrays.toString(NEW_CHAIN));
        }
        Files.write(out.resolve(NEW_ORDER), now);
        byte[] old = now.clone();
        for (int at = indexOf(old, NEW_CHAIN, 0); at >= 0; at = indexOf(old, NEW_CHAIN, at + 1)) {
            System.arraycopy(OLD_CHAIN, 0, old, at, OLD_CHAIN.length);
        }
        Files.write(out.resolve(INTERLEAVED), old);
        System.out.println("wrote 2 seeds to " + out);
    }

    private static byte[] interleave(byte[] old) {
        byte[] b = old.clone();
        for (int at = indexOf(b, OLD_CHAIN, 0); at >= 0; at = indexOf(b, OLD_CHAIN, at + 1)) {
            System.arraycopy(NEW_CHAIN, 0, b, at, NEW_CHAIN.length);
        }
        return b;
    }

    private static byte[] prefixed(byte[] payload) {
        byte[] b = new byte[payload.length + 1];
        System.arraycopy(payload, 0, b, 1, payload.length);
        return b;
    }

    private static byte[] ints(int... v) {
        ByteBuffer b = ByteBuffer.allocate(4 * v.length);
        for (int x : v) {
            b.putInt(x);
        }
        return b.array();
    }

    private static int indexOf(byte[] b, byte[] pattern, int from) {
        for (int i = from; i + pattern.length <= b.length; i++) {
            if (Arrays.equals(b, i, i + pattern.length, pattern, 0, pattern.length)) {
                return i;
            }
        }
        return -1;
    }
}
