package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The run with the graph's ties flipped: two systems the graph leaves unordered that share a
 * plain field (one writes it, the other reads it) run in registration order on one worker every
 * time, so every other run of the kit on one worker agrees, and on several workers they differ
 * only when timing puts the reader first. The flipped run differs every time and the report
 * names both systems and the fix; declared (or ordered) the game passes that run too.
 */
class TieOrderCheckTest {
    record Drift(float x) {
    }

    /** The wind the 'weather' system sets and 'drift' reads: a plain field, declared by neither. */
    static final class Weather {
        float wind;
    }

    private static SimulationFactory game(boolean ordered) {
        return (workers, populate) -> {
            World world = new World(1024);
            Component<Drift> drift = world.component(Drift.class);
            Field x = drift.field("x");
            if (populate) {
                for (int i = 0; i < 500; i++) {
                    world.spawn(new Drift(i));
                }
            }
            Weather weather = new Weather(); // one per simulation: captured by both systems' lambdas
            var drifting = world.query().with(drift).build();
            return Simulation.builder(world).workers(workers).seed(3)
                    .systems(s -> {
                        s.system("weather").readsResource(Simulation.CLOCK).forEachRange(() -> 1,
                                (job, from, to) -> weather.wind = 1 + job.resource(Simulation.CLOCK).tick() % 7);
                        var d = s.system("drift");
                        if (ordered) {
                            d.after("weather");
                        }
                        d.query(drifting).writes(drift).forEachChunk(job -> {
                            float[] v = job.chunk().writeFloats(x);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                v[i] += weather.wind;
                            }
                        });
                    })
                    .build();
        };
    }

    @Test
    void shouldNameTwoUnorderedSystemsThatShareAPlainField() {
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> DeterminismCheck.of(game(false)).ticks(10).workers(1, 2).run());
        String m = f.getMessage();
        assertEquals("1 worker, unordered systems in reverse order", f.run(), m);
        assertEquals(0, f.tick(), m);
        assertEquals("drift", f.system(), "the system whose result differs: " + m);
        assertTrue(m.contains("system 'drift' gives another result when its unordered neighbour 'weather' runs after it "
                + "instead of before"), m);
        assertTrue(m.contains("systems 'weather' and 'drift', which the graph leaves unordered"), m);
        assertTrue(m.contains("likely cause: state shared between systems the graph leaves unordered")
                && m.contains("writesResource") && m.contains("readsResource") && m.contains(".after(...)"), m);
        assertTrue(m.contains("Drift.x"), "the field that differs: " + m);
    }

    @Test
    void shouldPassTheBugOnOneWorkerWithoutTheFlippedRun() {
        // what the kit did before: every run on one worker takes the graph's order, so it agrees
        List<String> runs = DeterminismCheck.of(game(false)).ticks(10).workers(1).flipSystemOrder(false).run();
        assertFalse(runs.contains("1 worker, unordered systems in reverse order"), runs.toString());
    }

    @Test
    void shouldPassTheGameOnceTheGraphOrdersTheTwo() {
        List<String> runs = DeterminismCheck.of(game(true)).ticks(10).workers(1, 2).run();
        assertEquals("1 worker, unordered systems in reverse order", runs.get(3), runs.toString());
    }
}
