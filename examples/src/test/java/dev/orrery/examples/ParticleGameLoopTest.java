package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The particle scenario keeps its population, reaps 1% a tick, and ends in one state on 1 and 2 workers. */
class ParticleGameLoopTest {
    @Test
    void shouldReapAndRespawnTheSameParticlesOnOneAndTwoWorkers() throws Exception {
        List<String> lines = Programs.run(ParticleGameLoop::main, "60");
        assertEquals(2, lines.size(), String.join("\n", lines));
        assertEquals(1, Programs.hashes(lines).size(), "one hash on 1 and 2 workers:\n" + String.join("\n", lines));
        for (String line : lines) {
            // 20 000 particles, healths 1..100: 200 die and respawn every tick
            assertTrue(line.contains("60 ticks: living=20000 reaped=12000 "), line);
        }
    }
}
