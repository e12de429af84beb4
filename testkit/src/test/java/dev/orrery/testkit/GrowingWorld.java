package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;

/**
 * The game the restored-run tests grow ({@link ExclusiveWriterRestoredRunTest},
 * {@link RestoredRunReportTest}): a world of 200 {@link Growth} entities (none with populate
 * false), the query over them and a simulation builder on the worker count asked for, seed 5.
 * Each test adds a {@code grow} system and the state it keeps across ticks where a snapshot
 * does not carry it; {@link #restoredRunFailure} runs the check whose restored run that breaks.
 */
final class GrowingWorld {
    record Growth(float size) {
    }

    final World world = new World(1024);
    final Component<Growth> growth = world.component(Growth.class);
    final Field size = growth.field("size");
    final Query growing;

    GrowingWorld(boolean populate) {
        if (populate) {
            for (int i = 0; i < 200; i++) {
                world.spawn(new Growth(i));
            }
        }
        growing = world.query().with(growth).build();
    }

    /** The simulation's builder on {@code workers} workers, seed 5: add the test's resources and systems. */
    SimulationBuilder builder(int workers) {
        return Simulation.builder(world).workers(workers).seed(5);
    }

    /**
     * The failure of 20 ticks on 1 and 2 workers, checked to be the restored run's (the snapshot
     * of tick 10, on 1 worker) after system {@code grow}, the only run that differs.
     */
    static DeterminismFailure restoredRunFailure(SimulationFactory game) {
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> DeterminismCheck.of(game).ticks(20).workers(1, 2).run());
        assertEquals("restored from the snapshot of tick 10 on 1 worker", f.run(), f.getMessage());
        assertEquals("grow", f.system(), f.getMessage());
        return f;
    }
}
