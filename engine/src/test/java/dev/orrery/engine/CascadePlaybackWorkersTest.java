package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ObserverCascadeException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.SystemFailedException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Observer cascades started by command playback: a chunk system's commands (several buffers
 * on 2 workers) add components whose hooks record commands of their own, on 1 and 2 workers.
 */
class CascadePlaybackWorkersTest {
    record Hp(int hp) {
    }

    record Spark(int depth) {
    }

    record Ember(int depth) {
    }

    record Result(long[] hashes, int[] counts, List<String> failures) {
    }

    /**
     * Every third tick "ignite" adds a Spark to the first row of each chunk through commands; a
     * Spark's hook spawns an Ember (a cascade of one round). On tick 7 it adds a Spark to every
     * fourth row, and a Spark's hook also spawns another Spark: a cascade that runs past the
     * limit of 400 commands and is refused.
     */
    static Result run(int workers) {
        World world = new World(1024);
        Component<Hp> hp = world.component(Hp.class);
        Component<Spark> spark = world.component(Spark.class);
        Component<Ember> ember = world.component(Ember.class);
        world.entity().with(hp, new Hp(1)).spawnMany(600);
        world.observerCascadeLimit(400);
        long[] tickNow = {0};
        world.observe(spark).onAdd((w, e, commands) -> {
            int depth = w.get(e, spark).depth();
            commands.add(commands.spawn(), ember, new Ember(depth));
            if (tickNow[0] == 7) {
                commands.add(commands.spawn(), spark, new Spark(depth + 1));
            }
        });
        List<String> failures = new ArrayList<>();
        int ticks = 12;
        long[] hashes = new long[ticks];
        int[] counts = new int[ticks];
        try (Simulation sim = Simulation.builder(world).seed(1).workers(workers).onSystemFailure(FailurePolicy.SKIP_TICK)
                .systems(s -> s.system("ignite").query(world.query().with(hp).without(spark).build()).adds(spark)
                        .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                            long t = job.resource(Simulation.CLOCK).tick();
                            int every = t == 7 ? 4 : t % 3 == 0 ? job.chunk().size() : 0;
                            for (int i = 0; every > 0 && i < job.chunk().size(); i += every) {
                                job.commands().add(job.chunk().entity(i), spark, new Spark(0));
                            }
                        }))
                .build()) {
            sim.failureListener((tick, failure, first) -> failures.add(tick + ": " + failure.getMessage() + " / "
                    + failure.getCause().getClass().getSimpleName() + ": " + failure.getCause().getMessage()));
            for (int t = 0; t < ticks; t++) {
                tickNow[0] = t;
                sim.tick();
                hashes[t] = world.stateHash();
                counts[t] = world.entityCount();
                int[] listed = {0};
                world.query().build().forEachChunk(c -> listed[0] += c.size());
                assertEquals(world.entityCount(), listed[0], "tick " + t + " on " + workers + " workers: every live "
                        + "entity sits in a row");
            }
        }
        return new Result(hashes, counts, failures);
    }

    @Test
    void shouldRefuseTheSameRunawayCascadeAndKeepTheSameWorldOnOneAndTwoWorkers() {
        Result one = run(1);
        Result two = run(2);
        assertEquals(1, one.failures().size(), String.valueOf(one.failures()));
        assertTrue(one.failures().get(0).startsWith("7: ") && one.failures().get(0).contains(
                ObserverCascadeException.class.getSimpleName()), one.failures().get(0));
        assertEquals(one.failures(), two.failures(), "the same refusal, named the same way");
        assertArrayEquals(one.counts(), two.counts(), "the same entity count after every tick");
        assertArrayEquals(one.hashes(), two.hashes(), "the same state hash after every tick");
        assertTrue(one.counts()[7] < one.counts()[6] + 1000, "refused near the limit: " + one.counts()[7]);
    }
}
