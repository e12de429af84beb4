package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.orrery.ecs.SnapshotException;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing of the snapshot reader with every section
 * ({@link EverySectionWorkload}: sparse and reference columns, change rows and a removal log,
 * two relations, events with a reader, a state machine, a fixed step, a user codec), through
 * {@link Simulation#restore}: whatever the bytes, the only outcome is a restored simulation
 * that then runs a tick, or one {@link SnapshotException} in one line after which the
 * simulation is still new and restores the good snapshot; never another exception, and never
 * an allocation the bytes do not back (the fuzz tests run in a small heap).
 *
 * <p>An input's first byte picks how the rest becomes a snapshot: 0, as the payload of a
 * version 2 snapshot the harness frames and checksums (so the fuzzer reaches the sections
 * behind the checksum); 1, likewise as version 1; anything else, as the whole file. The
 * committed corpus ({@code SnapshotReaderFuzzTestInputs/restoreSnapshot}) holds the seed
 * snapshot both ways, damaged copies, and a snapshot whose prototype chains mix a sparse column
 * with a later table one, in the order written now and interleaved as earlier writers did
 * ({@link SparseChainSeedsTest}), and the seed snapshot as written now with its systems section,
 * whole and damaged ({@link SystemsSectionSeedsTest}; {@code seed-payload} predates that
 * section); a longer run is described in
 * docs/design/engine-and-cluster.md.
 */
class SnapshotReaderFuzzTest {
    private static final byte[] GOOD = EverySectionWorkload.seed();
    private static final long GOOD_HASH;

    static {
        try (Simulation sim = EverySectionWorkload.build(false)) {
            sim.restore(GOOD);
            GOOD_HASH = sim.world().stateHash();
        }
    }

    @FuzzTest(maxDuration = "10m")
    void restoreSnapshot(byte[] data) {
        if (data.length == 0) {
            return;
        }
        byte[] rest = Arrays.copyOfRange(data, 1, data.length);
        byte[] snapshot = data[0] == 0 ? EverySectionWorkload.frame(rest)
                : data[0] == 1 ? framed(rest, 1) : rest;
        try (Simulation sim = EverySectionWorkload.build(false)) {
            try {
                sim.restore(snapshot);
            } catch (SnapshotException e) {
                assertFalse(e.getMessage() == null || e.getMessage().contains("\n"), String.valueOf(e.getMessage()));
                assertEquals(0, sim.world().entityCount(), "a refused snapshot places nothing: " + e.getMessage());
                assertEquals(0, sim.currentTick());
                sim.restore(GOOD);
                assertEquals(GOOD_HASH, sim.world().stateHash(), "a refused simulation takes the good snapshot after");
                return;
            }
            sim.world().stateHash();
            sim.tick(); // a snapshot accepted is one the simulation can run from
            sim.snapshot();
        }
    }

    /** {@code payload} framed as a snapshot of format {@code version}. */
    static byte[] framed(byte[] payload, int version) {
        byte[] file = EverySectionWorkload.frame(payload);
        file[dev.orrery.ecs.WorldSnapshot.MAGIC.length + 3] = (byte) version; // the CRC covers the payload only
        return file;
    }
}
