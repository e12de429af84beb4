package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Schedule;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * State that outlives a simulation (a static field the factory never resets) makes every
 * simulation the factory builds start from what the ones before it left. The diagnoses of the
 * reordered runs build many simulations and compare them with a reference they built first, so
 * every one of them differs, and before the kit checked for it the first pair (or system) tried
 * took the blame. Now one more run in the usual order, built anew, shows the leftover state
 * first, and the report names it and its fix instead of an order.
 */
class OutlivingStateTest {
    record Drift(float x) {
    }

    record Still(float v) {
    }

    /** The wind 'weather' sets and 'drift' reads: a plain field, one per simulation. */
    static final class Weather {
        float wind;
    }

    /** Added to by 'drift' when it finds no wind, read by it every tick; never reset: the mistake. */
    static int leftover;

    /** Added to and read by 'count' every tick; never reset: the mistake. */
    static int counter;

    /** The systems one factory registers, given the drifting query, its field and a way to register 'calm'. */
    @FunctionalInterface
    private interface Systems {
        void declare(Schedule.Builder s, Query drifting, Field x, Consumer<Schedule.Builder> calm);
    }

    /**
     * A factory of 300 entities with Drift and Still (when populated), seed 3, whose systems
     * {@code systems} registers; 'calm', which it registers where it likes, adds 1 to every
     * Still and shares nothing with the others.
     */
    private static SimulationFactory factory(Systems systems) {
        return (workers, populate) -> {
            World world = new World(1024);
            Component<Drift> drift = world.component(Drift.class);
            Component<Still> still = world.component(Still.class);
            Field x = drift.field("x");
            Field v = still.field("v");
            if (populate) {
                for (int i = 0; i < 300; i++) {
                    world.spawn(new Drift(i), new Still(i));
                }
            }
            Query drifting = world.query().with(drift).build();
            Query stills = world.query().with(still).build();
            Consumer<Schedule.Builder> calm = s -> s.system("calm").query(stills).writes(still).forEachChunk(job -> {
                float[] a = job.chunk().writeFloats(v);
                for (int i = 0, n = job.chunk().size(); i < n; i++) {
                    a[i] += 1;
                }
            });
            return Simulation.builder(world).workers(workers).seed(3)
                    .systems(s -> systems.declare(s, drifting, x, calm))
                    .build();
        };
    }

    /**
     * 'weather', 'calm' and 'drift', registered in that order and left unordered by the graph:
     * 'drift' reads the wind 'weather' sets (an order mistake), and when it runs first and finds no
     * wind it adds to a static it also reads, so each simulation after such a run starts from more.
     * Runs in the usual order agree with each other; the flipped run differs. The wind is a plain
     * field, one per simulation.
     */
    private static SimulationFactory windy() {
        return factory((s, drifting, x, calm) -> {
            Weather weather = new Weather();
            s.system("weather").readsResource(Simulation.CLOCK).forEachRange(() -> 1,
                    (job, from, to) -> weather.wind = 1 + job.resource(Simulation.CLOCK).tick() % 7);
            calm.accept(s);
            s.system("drift").query(drifting).writes(x.component()).forEachChunk(job -> {
                if (weather.wind == 0) {
                    leftover++;
                }
                float[] a = job.chunk().writeFloats(x);
                for (int i = 0, n = job.chunk().size(); i < n; i++) {
                    a[i] += weather.wind + leftover;
                }
            });
        });
    }

    /** 'calm', then 'count', which adds to a static counter and writes it into the world, every tick, in every run. */
    private static SimulationFactory counting() {
        return factory((s, drifting, x, calm) -> {
            calm.accept(s);
            s.system("count").query(drifting).writes(x.component()).forEachChunk(job -> {
                counter++;
                float[] a = job.chunk().writeFloats(x);
                for (int i = 0, n = job.chunk().size(); i < n; i++) {
                    a[i] = counter;
                }
            });
        });
    }

    private static void assertNamesTheOutlivingState(String m) {
        assertTrue(m.contains("state that outlives a simulation"), m);
        assertTrue(m.contains("a static field") && m.contains("SimulationFactory.create")
                && m.contains("resource with a codec"), "the fix: " + m);
        assertTrue(m.contains("built anew by the factory"), "how it was found: " + m);
    }

    @Test
    void shouldNameStateThatOutlivesASimulationNotAnInnocentPairOfTheFlippedRun() {
        leftover = 0;
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> DeterminismCheck.of(windy()).ticks(6).workers(1).run());
        String m = f.getMessage();
        assertEquals("1 worker, unordered systems in reverse order", f.run(), m);
        assertNamesTheOutlivingState(m);
        // before: "system 'drift' gives another result when its unordered neighbour 'calm' runs after it ..."
        assertFalse(m.contains("'calm'"), "'calm' shares nothing with 'drift': " + m);
        assertFalse(m.contains("which the graph leaves unordered (same phase"), "no pair is blamed: " + m);
        assertFalse(m.contains("likely cause: state shared between systems the graph leaves unordered"), m);
        assertEquals("drift", f.system(), "where the leftover state first shows: " + m);
    }

    @Test
    void shouldNameStateThatOutlivesASimulationWhenTheTieDiagnosisMeetsAStaticCounter() {
        Diagnosis d = TieOrderOrigin.find(counting(), InputScript.NONE, 3);
        String m = d.text() + "\n" + d.cause();
        assertNamesTheOutlivingState(m);
        assertFalse(m.contains("which the graph leaves unordered (same phase"), "no pair is blamed: " + m);
    }

    @Test
    void shouldNameStateThatOutlivesASimulationWhenTheJobOrderDiagnosisMeetsAStaticCounter() {
        Diagnosis trail = new Diagnosis("count", "first difference after system 'count' at tick 0");
        Diagnosis d = JobOrderOrigin.find(counting(), InputScript.NONE, trail, 3);
        String m = d.text() + "\n" + d.cause();
        assertNamesTheOutlivingState(m);
        // before: "the jobs of system 'calm' alone, run in reverse order, make the runs differ"
        assertFalse(m.contains("'calm'"), "'calm' builds nothing in job order: " + m);
        assertEquals("count", d.system(), m);
    }
}
