package dev.orrery.scheduler.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Setting or resetting a {@link LongSum} is a write of its resource: a system that declared
 * only {@code readsResource(key)} could call {@code job.resource(key).reset()} and the total
 * changed, a write through a read that the graph does not order against the systems adding to
 * it. It is refused (in checked mode, as every test runs) naming the system, the sum and the
 * fix; a declared writer, an exclusive system and calls outside jobs still set it. An add
 * through a read ({@code job.resource(key).add(0, n)}) is a write too, refused the same way; a
 * declared reducer, an exclusive system and the owner still add.
 */
class LongSumDeclarationTest {
    static final ResourceKey<LongSum> SUM = ResourceKey.of("kills", LongSum.class);

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldRefuseAResetFromASystemThatDeclaredOnlyARead(int workers) {
        LongSum sum = new LongSum(7);
        Schedule schedule = Schedule.builder(new World()).resource(SUM, sum)
                .system("peek").readsResource(SUM)
                .forEachRange(() -> 1, (job, from, to) -> job.resource(SUM).reset())
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            UndeclaredResourceAccessException e = assertInstanceOf(UndeclaredResourceAccessException.class,
                    f.getCause());
            assertTrue(e.getMessage().contains("'peek'") && e.getMessage().contains("'kills'")
                    && e.getMessage().contains("only a read of it")
                    && e.getMessage().contains(".writesResource(kills)")
                    && e.getMessage().contains("job.resourceForWrite(kills)"), e.getMessage());
        }
        assertEquals(7, sum.total(), "the refused reset was not applied");
        sum.set(3); // outside a job: the owner's own call
        assertEquals(3, sum.total());
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldRefuseAnAddFromASystemThatDeclaredOnlyARead(int workers) {
        LongSum sum = new LongSum(7);
        Schedule schedule = Schedule.builder(new World()).resource(SUM, sum)
                .system("peek").readsResource(SUM)
                .forEachRange(() -> 1, (job, from, to) -> job.resource(SUM).add(0, 5))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            UndeclaredResourceAccessException e = assertInstanceOf(UndeclaredResourceAccessException.class,
                    f.getCause());
            assertEquals("system 'peek' added 5 to the sum 'kills' but declared only a read of it (an add is a "
                    + "write, reached through job.resource(...)); the graph orders the system only as a reader, so "
                    + "the add could land beside the other systems that read the total: add .reducesResource(kills) "
                    + "to the system's declaration and add through job.add(kills, n)", e.getMessage());
        }
        assertEquals(7, sum.total(), "the refused add was not applied");
        sum.add(0, 1); // outside a job: the owner's own call
        assertEquals(8, sum.total());
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldSayTheGraphDoesNotOrderASystemThatDeclaredNothingOfTheSum(int workers) {
        LongSum sum = new LongSum(7);
        Schedule schedule = Schedule.builder(new World()).resource(SUM, sum)
                .system("captured").forEachRange(() -> 1, (job, from, to) -> sum.add(0, 5)) // held since set-up
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            assertEquals("system 'captured' added 5 to the sum 'kills' but declared no reduction into it; the graph "
                    + "does not order the system against the resource's other systems, so the add could land beside "
                    + "the other systems that read the total: add .reducesResource(kills) to the system's declaration "
                    + "and add through job.add(kills, n)", f.getCause().getMessage());
        }
        assertEquals(7, sum.total(), "the refused add was not applied");
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldAddFromADeclaredReducerAndFromAnExclusiveSystem(int workers) {
        LongSum sum = new LongSum(7);
        Schedule schedule = Schedule.builder(new World()).resource(SUM, sum)
                .system("reducer").reducesResource(SUM)
                .forEachRange(() -> 3, (job, from, to) -> job.add(SUM, to - from))
                .system("admin").after("reducer").exclusive(world -> sum.add(0, 10))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            ex.run();
        }
        assertEquals(20, sum.total());
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldSetFromADeclaredWriterAndFromAnExclusiveSystem(int workers) {
        LongSum sum = new LongSum(7);
        long[] seen = {0, 0};
        Schedule schedule = Schedule.builder(new World()).resource(SUM, sum)
                .system("writer").writesResource(SUM)
                .forEachRange(() -> 1, (job, from, to) -> {
                    job.resourceForWrite(SUM).set(40);
                    seen[0] = job.resourceForWrite(SUM).total();
                })
                .system("admin").after("writer").exclusive(world -> {
                    sum.set(seen[0] + 2);
                    seen[1] = sum.total();
                })
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            ex.run();
        }
        assertEquals(40, seen[0]);
        assertEquals(42, seen[1]);
        assertEquals(42, sum.total());
    }
}
