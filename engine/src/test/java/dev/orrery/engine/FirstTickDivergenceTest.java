package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay from a recording's own start snapshot that differs at the first tick: the message
 * named "no hash after tick -1" and "may not be a snapshot of the recorded run", and blamed
 * non-determinism alone, where the usual cause (a golden recording replayed after a change to a
 * system) is that the game's code changed.
 */
class FirstTickDivergenceTest {
    record Growth(float size) {}

    @TempDir
    Path dir;

    /** Ten entities whose size grows by {@code rate} a tick. */
    private static Simulation build(float rate, boolean populate) {
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

    @Test
    void aReplayFromTheStartThatDiffersAtOnceNamesAChangedGameNotAForeignSnapshot() throws Exception {
        Path recording = dir.resolve("run");
        try (Simulation sim = build(1, true)) {
            RunRecorder recorder = RunRecorder.start(sim, recording, InputPipeline.builder());
            sim.run(3, 0);
            recorder.close();
        }
        try (Simulation changed = build(2, false)) {
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> RunReplayer.replay(recording, changed));
            String m = e.getMessage();
            assertEquals(0, e.tick(), m);
            assertFalse(m.contains("tick -1"), m);
            assertFalse(m.contains("may not be a snapshot of the recorded run"), m);
            assertTrue(m.contains("the first tick of the recording, replayed from its own start snapshot"), m);
            assertTrue(m.contains("the game's code changed since the recording"), m);
        }
    }
}
