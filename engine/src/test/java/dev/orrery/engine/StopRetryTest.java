package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FailurePolicy.STOP beside an input source: the failed tick does not count, and running it
 * again ("the caller decides") gets the inputs the source handed the failed attempt, from a
 * live pipeline as from a recording's, instead of the pipeline refusing a tick number it has
 * already drained.
 */
class StopRetryTest {
    /** Ten entities; "apply" adds each input's client id to every hp, and throws (before writing) while {@code armed} at tick 2. */
    static SimulationBuilder builder(boolean populate, AtomicBoolean armed, List<Integer> seen) {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        if (populate) {
            world.entity().with(hp, new Hp(0)).spawnMany(10);
        }
        Field f = hp.field("hp");
        SimulationBuilder b = Simulation.builder(world).seed(4);
        Resources res = b.resources();
        return b.systems(s -> s.system("apply").query(world.query().with(hp).build()).writes(hp)
                .readsResource(Simulation.INPUTS, Simulation.CLOCK).forEachChunk(job -> {
                    InputBatch in = res.get(Simulation.INPUTS);
                    if (res.get(Simulation.CLOCK).tick() == 2 && armed.getAndSet(false)) {
                        throw new IllegalStateException("not yet");
                    }
                    int add = 0;
                    for (int k = 0; k < in.size(); k++) {
                        add += in.client(k);
                        seen.add(in.client(k));
                    }
                    int[] v = job.chunk().writeInts(f);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        v[i] += add;
                    }
                }));
    }

    static int[] hps(Simulation sim) {
        Component<Hp> hp = sim.world().component(Hp.class);
        int[] out = new int[10];
        int[] n = {0};
        sim.world().query().with(hp).build().forEachChunk(c -> {
            int[] v = c.readInts(hp.field("hp"));
            for (int i = 0; i < c.size(); i++) {
                out[n[0]++] = v[i];
            }
        });
        return out;
    }

    @Test
    void shouldRunAFailedTickAgainWithTheInputsItWasHanded(@TempDir Path dir) throws IOException {
        List<Integer> seen = new ArrayList<>();
        AtomicBoolean armed = new AtomicBoolean(true);
        long recordedHash;
        try (Simulation sim = builder(true, armed, seen).build();
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            for (int t = 0; t < 5; t++) {
                rec.inputs().tryPublish(t + 1, 1, new byte[0], 0, 0);
                if (t == 2) {
                    SystemFailedException e = assertThrows(SystemFailedException.class, sim::tick);
                    assertEquals("apply", e.system());
                    assertEquals(2, sim.currentTick(), "the failed tick did not count");
                    rec.inputs().tryPublish(100, 1, new byte[0], 0, 0); // for the next tick, not the retry
                }
                assertEquals(t, sim.tick(), "the retry runs tick 2 again (it used to be refused by the pipeline)");
            }
            assertEquals(List.of(1, 2, 3, 100, 4, 5), seen, "tick 2's input once, in the retry; the later one at tick 3");
            int[] expected = new int[10];
            java.util.Arrays.fill(expected, 1 + 2 + 3 + 100 + 4 + 5);
            assertArrayEquals(expected, hps(sim));
            recordedHash = sim.world().stateHash();
        }
        // The failed attempt wrote nothing, so the recording replays the run with every hash matching.
        try (Simulation fresh = builder(false, new AtomicBoolean(false), new ArrayList<>()).build()) {
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertEquals(5, r.ticks());
            assertEquals(5, r.hashesChecked());
            assertEquals(recordedHash, r.finalHash());
        }
    }

    @Test
    void shouldTakeNewInputsWhenTheSourceWasReplacedBeforeTheRetry() {
        List<Integer> seen = new ArrayList<>();
        AtomicBoolean armed = new AtomicBoolean(true);
        InputPipeline first = InputPipeline.builder().build();
        InputPipeline second = InputPipeline.builder().build();
        try (Simulation sim = builder(true, armed, seen).inputs(first).build()) {
            sim.run(2, 0);
            first.tryPublish(7, 1, new byte[0], 0, 0);
            assertThrows(SystemFailedException.class, sim::tick);
            second.tryPublish(9, 1, new byte[0], 0, 0);
            sim.inputs(second);
            assertEquals(2, sim.tick());
            assertEquals(List.of(9), seen, "a source put after the failure hands its own inputs");
        }
    }
}
