package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import org.junit.jupiter.api.Test;

/**
 * The restored run's report end to end when neither of its named suspects shows: no codec
 * resource's replaced object kept changing, no resource without a codec is written. State the
 * factory's lambdas keep in a plain field across ticks is rebuilt at 0 by the restored run, so
 * only that run differs, and its likely cause names the other state the snapshot does not carry.
 */
class RestoredRunReportTest {
    /** Ticks seen so far: state kept outside the world, in an object the system's lambda captured. */
    static final class Age {
        int ticks;
    }

    private static Simulation build(int workers, boolean populate) {
        GrowingWorld g = new GrowingWorld(populate);
        Age age = new Age();
        return g.builder(workers)
                .systems(s -> {
                    s.system("grow").query(g.growing).writes(g.growth).forEachChunk(job -> {
                        float[] v = job.chunk().writeFloats(g.size);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            v[i] += age.ticks;
                        }
                    });
                    s.system("age").after("grow").exclusive(w -> age.ticks++);
                })
                .build();
    }

    @Test
    void shouldNameStateOutsideTheWorldWhenNoResourceIsToBlame() {
        DeterminismFailure f = GrowingWorld.restoredRunFailure(RestoredRunReportTest::build);
        String m = f.getMessage();
        assertEquals(10, f.tick(), m);
        assertTrue(m.contains("first difference after system 'grow' at tick 10 (two runs on 1 worker, the second "
                + "restored from the snapshot,"), m);
        assertTrue(m.contains("\n  likely cause: a system that captured a resource object instead of reading "
                + "job.resource(KEY) (Simulation.restore puts a new object under each resource with a codec, so a "
                + "captured one, read or changed, is no longer the store's), or state that shapes the next tick kept "
                + "outside the world and the resources with a codec (a field the factory's lambdas capture, a static, "
                + "a resource without a codec), which the snapshot does not carry (rule 8 of docs/determinism.md)\n"), m);
        assertFalse(m.contains("also suspect") || m.contains("went on changing"), m);
        assertTrue(m.contains("components whose values differ: [Growth]"), m);
    }
}
