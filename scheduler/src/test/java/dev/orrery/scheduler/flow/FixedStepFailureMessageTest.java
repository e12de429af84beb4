package dev.orrery.scheduler.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a failed run left, said of a failure in a fixed-step phase's second step: the message
 * counted each run of an exclusive system as a system ('the direct changes of 3 exclusive
 * systems' of a schedule that has two), and said nothing of the step, nor that the steps after
 * it did not run and their time was dropped.
 */
class FixedStepFailureMessageTest {
    record Val(int v) {
    }

    static final ResourceKey<FixedTimestep> STEPS = ResourceKey.of("failSteps", FixedTimestep.class);

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void aFailureInTheSecondOfThreeStepsNamesTheStepAndCountsSystemsNotRuns(int workers) {
        World w = new World(256);
        Component<Val> val = w.component(Val.class);
        w.spawn(new Val(0));
        Phase physics = Phase.named("failPhysics");
        FixedTimestep clock = new FixedTimestep(1, 3, 4);
        Schedule schedule = Schedule.builder(w).resource(STEPS, clock)
                .phases(Phase.PRE_UPDATE, physics, Phase.UPDATE, Phase.POST_UPDATE).fixedTimestep(physics, STEPS)
                .system("setup").inPhase(Phase.PRE_UPDATE).exclusive(world -> { })
                .system("tally").inPhase(physics).exclusive(world -> { })
                .system("breaker").inPhase(physics).after("tally").readsResource(STEPS)
                .query(w.query().with(val).build()).writes(val).forEachChunk(job -> {
                    if (job.resource(STEPS).stepInRun() == 1) {
                        throw new ArithmeticException("boom");
                    }
                })
                .build();
        try (ScheduleExecutor executor = schedule.executor(workers)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("breaker", e.system());
            String m = e.getMessage();
            assertTrue(m.contains("the direct changes of 2 exclusive systems, over 3 runs (the last 'tally') stay"), m);
            assertTrue(m.contains("it failed in step 2 of 3 of fixed-step phase failPhysics; the 1 step after it did "
                    + "not run, and its time is dropped (FixedTimestep.droppedSteps())"), m);
        }
        assertEquals(1, clock.droppedSteps(), "the step after the failing one is dropped, as the message says");
    }
}
