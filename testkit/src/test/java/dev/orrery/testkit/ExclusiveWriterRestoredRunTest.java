package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import org.junit.jupiter.api.Test;

/**
 * A restored run that differs because an exclusive system keeps state in a resource without a
 * codec that it never declares it writes: the scheduler lets an exclusive system write any
 * resource, so the kit names every resource without a codec as a suspect in a game with one,
 * with that reason, as the cluster does when a world moves (one rule, the engine's
 * {@code EngineInternals.resourcesWritableWithoutCodec}).
 */
class ExclusiveWriterRestoredRunTest {
    /** Read-only configuration: no system declares it writes it. */
    record Rate(float perTick) {
    }

    static final ResourceKey<Rate> RATE = ResourceKey.of("rate", Rate.class);
    /** Ticks seen so far, kept across ticks by 'birthday' alone, which declares nothing. */
    static final ResourceKey<long[]> AGE = ResourceKey.of("age", long[].class);

    private static Simulation build(int workers, boolean populate) {
        return build(workers, populate, false);
    }

    /** As {@link #build}, but 'stamp' also declares it writes 'age' (it only reads it): 'birthday' still counts. */
    private static Simulation buildWithADeclaredWriter(int workers, boolean populate) {
        return build(workers, populate, true);
    }

    private static Simulation build(int workers, boolean populate, boolean declaredWriter) {
        GrowingWorld g = new GrowingWorld(populate);
        return g.builder(workers)
                .resource(RATE, new Rate(0.5f)).resource(AGE, new long[1])
                .systems(s -> {
                    s.system("grow").query(g.growing).writes(g.growth).readsResource(RATE, AGE).forEachChunk(job -> {
                        float[] v = job.chunk().writeFloats(g.size);
                        float add = job.resource(AGE)[0] * job.resource(RATE).perTick();
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            v[i] += add;
                        }
                    });
                    if (declaredWriter) {
                        s.system("stamp").after("grow").writesResource(AGE)
                                .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(AGE));
                    }
                    s.system("birthday").after(declaredWriter ? "stamp" : "grow")
                            .exclusive((w, job) -> job.resourceForWrite(AGE)[0]++);
                })
                .build();
    }

    @Test
    void shouldNameAResourceOnlyAnExclusiveSystemWritesWhenTheRestoredRunDiffers() {
        DeterminismFailure f = GrowingWorld.restoredRunFailure(ExclusiveWriterRestoredRunTest::build);
        String m = f.getMessage();
        // on the old code no system declared a write of 'age', so the line named no resource at all
        assertTrue(m.contains("\n  likely cause: a resource without a codec that a system writes, which the snapshot "
                + "leaves out and the restored run gets as the factory puts it: 'rate' (exclusive system 'birthday' "
                + "may write any resource), 'age' (exclusive system 'birthday' may write any resource); give one that "
                + "keeps state across ticks a codec (SimulationBuilder.resource(key, value, codec))"), m);
        assertFalse(m.contains("'" + Simulation.CLOCK.name() + "'"), "the built-ins are rebuilt: " + m);
    }

    @Test
    void shouldNameTheExclusiveSystemBesideTheDeclaredWritersOfAResource() {
        DeterminismFailure f = GrowingWorld.restoredRunFailure(ExclusiveWriterRestoredRunTest::buildWithADeclaredWriter);
        String m = f.getMessage();
        // on the old code the line read 'age' (written by 'stamp'): 'birthday', which keeps the count, went unnamed
        assertTrue(m.contains(": 'rate' (exclusive system 'birthday' may write any resource), 'age' (written by 'stamp'; "
                + "exclusive system 'birthday' may write any resource); give one"), m);
    }
}
