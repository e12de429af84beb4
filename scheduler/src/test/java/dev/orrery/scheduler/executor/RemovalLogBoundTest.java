package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import org.junit.jupiter.api.Test;

/**
 * A removal log keeps two runs' worth of entries even when no system moves the change clock
 * between runs (a schedule with no system, or none that runs): the removals made between such
 * runs used to keep the clock's one tick and never age out, so the log grew with the churn.
 */
class RemovalLogBoundTest {
    record Hp(int value) {
    }

    @Test
    void removalsMadeWhileNoSystemRunsAgeOutAfterTwoRuns() {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        world.trackRemoved(hp);
        Schedule schedule = Schedule.builder(world).build(); // no system: nothing moves the clock
        int perRun = 100;
        try (ScheduleExecutor executor = schedule.executor(1)) {
            for (int run = 0; run < 50; run++) {
                for (int i = 0; i < perRun; i++) {
                    world.despawn(world.spawn(new Hp(i)));
                }
                executor.run();
            }
        }
        int logged = EcsInternals.removed(world, hp).since(0).count();
        assertTrue(logged <= 3 * perRun, "the log keeps the last runs' removals, not all " + 50 * perRun + ": " + logged);
        assertEquals(0, world.entityCount());
    }
}
