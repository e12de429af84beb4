package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.CommandKind;
import dev.orrery.ecs.CommandOutcome;
import dev.orrery.ecs.RefusedCommandException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The executor's sync points report command outcomes per kind in {@code commandTotals()}, and
 * in strict mode (on in tests, which run with {@code -ea}) a refused command fails the run
 * with an exception naming the system that recorded it, after the sync point was applied.
 */
class CommandStrictModeTest {
    record Hp(int v) {
    }

    record Armor(int v) {
    }

    private void check(Function<Schedule, ScheduleExecutor> create) {
        World w = new World(256);
        w.component(Hp.class);
        Component<Armor> armor = w.component(Armor.class);
        long[] e = {w.spawn(new Hp(1)), w.spawn(new Hp(2))};
        Schedule schedule = Schedule.builder(w)
                .system("count").forEachRange(() -> 1, (job, from, to) -> { })
                .system("armorer").setsLater(armor).despawns().forEachRange(() -> 2, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        job.commands().set(e[i], armor, new Armor(5)); // refused: nobody holds Armor
                        job.commands().despawn(e[i]);
                    }
                })
                .build();
        try (ScheduleExecutor executor = create.apply(schedule)) {
            RefusedCommandException ex = assertThrows(RefusedCommandException.class, executor::run);
            assertTrue(ex.getMessage().contains("'armorer'") && ex.getMessage().contains("Armor"), ex.getMessage());
            assertEquals(1, ex.systemOrder(), "armorer is the second system in the schedule");
            assertFalse(w.isAlive(e[0]) || w.isAlive(e[1]), "the rest of the sync point was applied");
            assertEquals(2, executor.commandTotals().count(CommandKind.SET, CommandOutcome.REFUSED));
            assertEquals(2, executor.commandTotals().count(CommandKind.DESPAWN, CommandOutcome.APPLIED));
            executor.run(); // the same commands now hit dead entities: skipped, which never throws
            assertEquals(2, executor.commandTotals().rejected());
            assertEquals(4, executor.commandTotals().count(CommandOutcome.SKIPPED_DEAD));
        }
    }

    @Test
    void shouldNameTheRecordingSystemOnOneThread() {
        check(s -> new SingleThreadedExecutor(SchedulerInternals.plan(s)));
    }

    @Test
    void shouldNameTheRecordingSystemOnTwoWorkers() {
        check(s -> new ParallelExecutor(SchedulerInternals.plan(s), 2));
    }
}
