package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.scheduler.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where recording meets the simulation's other settings: a replaying simulation built with
 * another {@code hashEvery} than the recording's, a recorder closed while the simulation goes
 * on, and inputs already waiting in the simulation's own pipeline when a recording starts.
 */
class RecordingSeamsTest {
    static final int TICKS = 10;

    /** Ten entities whose hp grows by the tick's input count (and by one more at {@code sabotageTick}). */
    static SimulationBuilder builder(boolean populate, int hashEvery, long sabotageTick) {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        if (populate) {
            world.entity().with(hp, new Hp(100)).spawnMany(10);
        }
        Field f = hp.field("hp");
        SimulationBuilder b = Simulation.builder(world).seed(3).hashEvery(hashEvery);
        Resources res = b.resources();
        return b.systems(s -> s.system("apply").query(world.query().with(hp).build()).writes(hp)
                .readsResource(Simulation.INPUTS, Simulation.CLOCK).forEachChunk(job -> {
                    int add = res.get(Simulation.INPUTS).size() + (res.get(Simulation.CLOCK).tick() == sabotageTick ? 1 : 0);
                    int[] v = job.chunk().writeInts(f);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        v[i] += add;
                    }
                }));
    }

    static long record(Path dir, int hashEvery) throws IOException {
        try (Simulation sim = builder(true, hashEvery, -1).build();
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            for (int t = 0; t < TICKS; t++) {
                rec.inputs().tryPublish(1, 1, new byte[0], 0, 0);
                sim.tick();
            }
            return sim.world().stateHash();
        }
    }

    @ParameterizedTest(name = "replay hashEvery {0}")
    @ValueSource(ints = {0, 3})
    void shouldCheckEveryRecordedHashWhateverTheReplaysHashEvery(int replayHashEvery, @TempDir Path dir)
            throws IOException {
        long recorded = record(dir, 1);
        try (Simulation fresh = builder(false, replayHashEvery, -1).build()) {
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertEquals(TICKS, r.hashesChecked(), "every tick of the recording was hashed and is checked");
            assertEquals(recorded, r.finalHash());
        }
        try (Simulation sabotaged = builder(false, replayHashEvery, 4).build()) {
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> RunReplayer.replay(dir, sabotaged));
            assertEquals(4, e.tick(), "the divergence is caught at its own tick, not passed by");
        }
    }

    @Test
    void shouldHandTheSimulationBackToItsOwnInputsAndHashListenerWhenTheRecorderCloses(@TempDir Path dir)
            throws IOException {
        InputPipeline own = InputPipeline.builder().build();
        List<Long> heard = new ArrayList<>();
        try (Simulation sim = builder(true, 1, -1).inputs(own).build()) {
            sim.hashListener((t, h, w) -> heard.add(t));
            sim.tick();
            try (RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder())) {
                own.tryPublish(7, 1, new byte[0], 0, 0);            // waits in the pipeline not read now
                rec.inputs().tryPublish(1, 1, new byte[0], 0, 0);
                rec.inputs().tryPublish(2, 1, new byte[0], 0, 0);
                sim.tick();
                assertEquals(2, sim.resources().get(Simulation.INPUTS).size(), "the recording's inputs only");
            }
            sim.tick();                                             // used to throw: a closed pipeline
            InputBatch after = sim.resources().get(Simulation.INPUTS);
            assertEquals(1, after.size(), "the input published to its own pipeline meanwhile");
            assertEquals(7, after.client(0));
            assertEquals(List.of(0L, 1L, 2L), heard, "its own hash listener heard every tick, recorded or not");
        }
        try (Simulation plain = builder(true, 1, -1).build()) {
            try (RunRecorder rec = RunRecorder.start(plain, dir.resolve("plain"), InputPipeline.builder())) {
                rec.inputs().tryPublish(1, 1, new byte[0], 0, 0);
                plain.tick();
            }
            assertEquals(1, plain.tick(), "a simulation built without inputs goes on with none");
            assertEquals(0, plain.resources().get(Simulation.INPUTS).size());
        }
    }

    @Test
    void shouldRefuseToStartWhileTheSimulationsOwnPipelineHoldsInputsNoTickTook(@TempDir Path dir) throws IOException {
        InputPipeline own = InputPipeline.builder().build();
        try (Simulation sim = builder(true, 1, -1).inputs(own).build()) {
            own.tryPublish(1, 1, new byte[0], 0, 0);
            Path folder = dir.resolve("rec");
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> RunRecorder.start(sim, folder, InputPipeline.builder()));
            assertTrue(e.getMessage().contains("holds 1 input(s) no tick has taken yet"), e.getMessage());
            assertTrue(e.getMessage().contains("tick once more before RunRecorder.start"), e.getMessage());
            assertFalse(Files.exists(folder), "nothing was written");
            sim.tick();
            assertEquals(1, sim.resources().get(Simulation.INPUTS).size(), "the input is applied, not lost");
            try (RunRecorder rec = RunRecorder.start(sim, folder, InputPipeline.builder())) {
                sim.tick();
            }
            assertTrue(Files.exists(folder.resolve(RunRecorder.JOURNAL)));
        }
    }

    @Test
    void shouldRefuseToChangeTheFailurePolicyTheJournalNotesWhileRecording(@TempDir Path dir) throws IOException {
        try (Simulation sim = builder(true, 1, -1).build()) {
            try (RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder())) {
                sim.tick();
                // it used to be taken: the recording then skipped ticks its journal said it would not,
                // and the replay, under the noted STOP, threw the SystemFailedException the run had skipped
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> sim.onSystemFailure(FailurePolicy.SKIP_TICK));
                assertTrue(e.getMessage().contains("its journal notes STOP"), e.getMessage());
                assertTrue(e.getMessage().contains("set the policy before RunRecorder.start"), e.getMessage());
                assertEquals(FailurePolicy.STOP, sim.failurePolicy());
                sim.onSystemFailure(FailurePolicy.STOP); // the same policy is fine
            }
            sim.onSystemFailure(FailurePolicy.SKIP_TICK); // after the recording, free again
            assertEquals(FailurePolicy.SKIP_TICK, sim.failurePolicy());
        }
    }
}
