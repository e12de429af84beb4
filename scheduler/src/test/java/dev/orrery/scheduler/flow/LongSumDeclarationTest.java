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
 * fix; a declared writer, an exclusive system and calls outside jobs still set it.
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
