package dev.orrery.scheduler.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Changing a fixed timestep's {@code unitsPerRun} is a write of its resource: a system that
 * declared only {@code readsResource(key)} could call {@code job.resource(key).unitsPerRun(n)}
 * and the rate changed, a write through a read that the graph does not order against the
 * clock's other readers and writers. The change is refused (in checked mode, as every test
 * runs) naming the system, the clock and the fix; changes from a declared writer, from an
 * exclusive system and from outside jobs still apply.
 */
class FixedTimestepDeclarationTest {
    static final ResourceKey<FixedTimestep> CLOCK = ResourceKey.of("physics clock", FixedTimestep.class);
    static final Phase PHYSICS = Phase.named("Physics");

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldRefuseARateChangeFromASystemThatDeclaredOnlyARead(int workers) {
        FixedTimestep clock = new FixedTimestep(10, 10, 4);
        Schedule schedule = Schedule.builder(new World()).resource(CLOCK, clock)
                .system("peek").readsResource(CLOCK)
                .forEachRange(() -> 1, (job, from, to) -> job.resource(CLOCK).unitsPerRun(30))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            UndeclaredResourceAccessException e = assertInstanceOf(UndeclaredResourceAccessException.class,
                    f.getCause());
            assertTrue(e.getMessage().contains("'peek'") && e.getMessage().contains("'physics clock'")
                    && e.getMessage().contains(".writesResource(physics clock)")
                    && e.getMessage().contains("job.resourceForWrite(physics clock)"), e.getMessage());
        }
        assertEquals(10, clock.unitsPerRun(), "the refused change was not applied");
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldApplyRateChangesFromADeclaredWriterAnExclusiveSystemAndBetweenRuns(int workers) {
        FixedTimestep clock = new FixedTimestep(10, 10, 4);
        List<Integer> steps = new ArrayList<>();
        int[] run = {0};
        int[] inRun = {0};
        Schedule schedule = Schedule.builder(new World()).phases(PHYSICS, Phase.UPDATE).resource(CLOCK, clock)
                .fixedTimestep(PHYSICS, CLOCK)
                .system("step").inPhase(PHYSICS).readsResource(CLOCK)
                .forEachRange(() -> 1, (job, from, to) -> inRun[0]++)
                .system("count").readsResource(CLOCK).forEachRange(() -> 1, (job, from, to) -> {
                    steps.add(inRun[0]);
                    inRun[0] = 0;
                })
                .system("fast").after("count").writesResource(CLOCK).forEachRange(() -> 1, (job, from, to) -> {
                    if (run[0] == 0) {
                        job.resourceForWrite(CLOCK).unitsPerRun(20);
                    }
                })
                .system("slow").after("fast").exclusive((w, job) -> {
                    if (run[0] == 2) {
                        job.resource(CLOCK).unitsPerRun(30); // an exclusive system may write every resource
                    }
                })
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            for (run[0] = 0; run[0] < 4; run[0]++) {
                ex.run();
            }
            clock.unitsPerRun(0); // between runs, on the owner thread
            ex.run();
        }
        assertEquals(List.of(1, 2, 2, 3, 0), steps);
    }

    @Test
    void shouldAcceptARateChangeAtSetUpBeforeAnyRun() {
        FixedTimestep clock = new FixedTimestep(10, 10, 4);
        clock.unitsPerRun(20);
        Schedule schedule = Schedule.builder(new World()).phases(PHYSICS, Phase.UPDATE).resource(CLOCK, clock)
                .fixedTimestep(PHYSICS, CLOCK).build();
        try (ScheduleExecutor ex = schedule.executor(1)) {
            ex.run();
        }
        assertEquals(2, clock.steps());
    }
}
