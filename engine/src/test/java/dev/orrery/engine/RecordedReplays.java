package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.nio.file.Path;

/**
 * Test support: the record-then-replay check the determinism tests share. A run of
 * {@code ticks} ticks on 2 workers is recorded into a folder; a fresh, unpopulated
 * simulation on each of several worker counts replays it, checks a hash at every tick and
 * ends on the recorded final state. Also the parts of the divergence tests: a recording of a
 * few ticks, a replay expected to diverge, and a game whose code changed since its recording.
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

    /** What {@link #growing} grows. */
    record Growth(float size) {
    }

    /**
     * Ten entities (when populated) whose size grows by {@code rate} a tick, on one worker, seed 5:
     * a recording made at one rate and replayed at another is a game whose code changed since
     * the recording, and differs at its first tick.
     */
    static Simulation growing(float rate, boolean populate) {
        World world = new World();
        Component<Growth> growth = world.component(Growth.class);
        Field size = growth.field("size");
        for (int i = 0; populate && i < 10; i++) {
            world.spawn(new Growth(i));
        }
        var all = world.query().with(growth).build();
        return Simulation.builder(world).workers(1).seed(5)
                .systems(s -> s.system("grow").query(all).writes(growth).forEachChunk(job -> {
                    float[] v = job.chunk().writeFloats(size);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        v[i] += rate;
                    }
                }))
                .build();
    }

    /** Records {@code ticks} ticks of {@code sim} into {@code dir} with a default pipeline, and closes it. */
    static void record(Simulation sim, Path dir, int ticks) throws Exception {
        try (sim) {
            RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder());
            sim.run(ticks, 0);
            recorder.close();
        }
    }

    /** Replays {@code dir} into {@code sim} (left open), which must diverge; returns the divergence. */
    static ReplayDivergenceException replayDiverges(Path dir, Simulation sim) {
        return assertThrows(ReplayDivergenceException.class, () -> RunReplayer.replay(dir, sim));
    }
}
