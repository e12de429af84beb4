package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * A mistake that changes the result in some runs and not in others (a wall clock read that only
 * sometimes crosses a threshold, a HashMap of a few identity keys whose first entry only
 * sometimes changes): two runs on one worker differed, so the report must not say that the
 * difference needs several workers, and it names the system when more diagnostic runs show it.
 */
class IntermittentMistakeTest {
    record Gust(float v) {}

    /** A game whose system 'mistake' adds 1 at the tick equal to the build's number, for the builds {@code flawed} accepts. */
    private static SimulationFactory game(IntPredicate flawed) {
        AtomicInteger builds = new AtomicInteger();
        return (workers, populate) -> {
            int n = builds.incrementAndGet();
            World world = new World();
            Component<Gust> gust = world.component(Gust.class);
            Field v = gust.field("v");
            for (int i = 0; populate && i < 50; i++) {
                world.spawn(new Gust(i));
            }
            Query all = world.query().with(gust).build();
            return Simulation.builder(world).workers(workers)
                    .systems(s -> s.system("mistake").query(all).writes(gust).readsResource(Simulation.CLOCK)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] g = c.writeFloats(v);
                                boolean now = flawed.test(n) && job.resource(Simulation.CLOCK).tick() == n;
                                for (int i = 0; i < c.size(); i++) {
                                    g[i] += now ? 1 : 0;
                                }
                            }))
                    .build();
        };
    }

    @Test
    void shouldNameTheSystemWhenTheDiagnosticRunsDifferOnlyAtALaterTick() {
        // the reference (build 1) and the second run on 1 worker (build 2) differ at tick 1; the diagnostic
        // runs (builds 4 and 5, after the report's reference) agree through tick 1 and differ at tick 4
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> DeterminismCheck.of(game(n -> true)).ticks(20).workers(1).run());
        assertEquals(1, f.tick(), f.getMessage());
        assertEquals("mistake", f.system(), f.getMessage());
        assertFalse(f.getMessage().contains("needs several workers"), f.getMessage());
        assertTrue(f.getMessage().contains("first difference after system 'mistake' at tick 4"), f.getMessage());
        // the report's own reference (build 3) goes wrong only at tick 3, so it agrees with build 2 at tick 1
        assertTrue(f.getMessage().contains("the reference made again for this report agrees with this run at tick 1"),
                f.getMessage());
        assertFalse(f.getMessage().contains("the entity table"), f.getMessage());
    }

    @Test
    void shouldNotBlameSeveralWorkersWhenTwoRunsOnOneWorkerDiffered() {
        // only build 2 goes wrong: no diagnostic run differs, yet two runs on 1 worker did
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> DeterminismCheck.of(game(n -> n == 2)).ticks(20).workers(1, 2).run());
        assertEquals("1 worker, the game's own batching", f.run(), f.getMessage());
        assertNull(f.system(), f.getMessage());
        assertFalse(f.getMessage().contains("needs several workers"), f.getMessage());
        assertTrue(f.getMessage().contains("the difference comes and goes from run to run"), f.getMessage());
        assertTrue(f.getMessage().contains("likely cause: the same settings gave another result"), f.getMessage());
    }
}
