package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

/**
 * Test support: the record-then-replay check the determinism tests share. A run of
 * {@code ticks} ticks on 2 workers is recorded into a folder; a fresh, unpopulated
 * simulation on each of several worker counts replays it, checks a hash at every tick and
 * ends on the recorded final state.
 */
final class RecordedReplays {
    /** Builds a test's simulation on {@code workers} workers, populated or empty (for a replay). */
    @FunctionalInterface
    interface Build {
        Simulation build(int workers, boolean populate);
    }

    private RecordedReplays() {
    }

    /** Records {@code ticks} ticks into {@code dir}, then replays them on each of {@code workers}. */
    static void recordThenReplay(Build build, Path dir, int ticks, int... workers) throws Exception {
        long finalHash;
        try (Simulation sim = build.build(2, true);
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(64).maxPayloadBytes(8))) {
            for (int t = 0; t < ticks; t++) {
                sim.tick();
            }
            finalHash = sim.world().stateHash();
        }
        for (int w : workers) {
            try (Simulation fresh = build.build(w, false)) {
                RunReplayer.Result r = RunReplayer.replay(dir, fresh);
                assertEquals(ticks, r.hashesChecked(), w + " workers");
                assertEquals(finalHash, r.finalHash(), w + " workers");
            }
        }
    }
}
