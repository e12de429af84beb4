package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The snapshot workload's seed, restored, goes on as the run that took it: the world and the
 * score (a resource with a codec, which the restore replaces with a new object) agree tick by
 * tick. The workload's systems read every resource through the job, as a game must.
 */
class EverySectionRestoreTest {
    @Test
    void shouldGoOnAfterTheRestoreAsTheRunThatTookTheSnapshot() {
        try (Simulation original = EverySectionWorkload.build(true);
             Simulation restored = EverySectionWorkload.build(false)) {
            for (int t = 0; t < EverySectionWorkload.TICKS; t++) {
                original.tick();
            }
            restored.restore(original.snapshot());
            long scoredAfter = -1;
            for (int t = 0; t < 20; t++) {
                original.tick();
                restored.tick();
                long expected = original.resources().get(EverySectionWorkload.SCORE).points;
                assertEquals(expected, restored.resources().get(EverySectionWorkload.SCORE).points,
                        "the score, tick " + original.currentTick());
                assertEquals(original.world().stateHash(), restored.world().stateHash(), "tick " + original.currentTick());
                if (scoredAfter < 0) {
                    scoredAfter = expected;
                }
            }
            assertTrue(original.resources().get(EverySectionWorkload.SCORE).points > scoredAfter,
                    "deaths score points after the restore, so the test compares a score that moves");
        }
    }
}
