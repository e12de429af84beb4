package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Error messages of the scheduler's entry points: each names the thing refused and says what
 * to do instead (a confusing message is a defect).
 */
class MessagesTest {
    record Score(int points) {
    }

    private static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);

    enum Mode { LOBBY, PLAYING }

    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "message should contain '" + part + "': " + message);
        }
    }

    @Test
    void shouldNameTheTypeToPutWhenAResourceValueIsNull() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new Resources().put(SCORE, null));
        assertContains(e.getMessage(), "'score'", "is null", Score.class.getName());
    }

    @Test
    void shouldListTheScheduleSystemsWhenAnOverrideNamesAnUnknownSystem() {
        Schedule schedule = Schedule.builder(new World())
                .system("move").exclusive(world -> { })
                .system("age").exclusive(world -> { })
                .build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TieOrderOverride.writtenResources(schedule, "mvoe"));
        assertContains(e.getMessage(), "'mvoe'", "[move, age]");
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldSayARunIsInProgressWhenTheObserverIsSetFromASystem(int workers) {
        ScheduleExecutor[] executor = new ScheduleExecutor[1];
        Schedule schedule = Schedule.builder(new World())
                .system("admin").exclusive(world -> executor[0].observe(null))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            executor[0] = ex;
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            Throwable cause = f.getCause();
            assertTrue(cause instanceof IllegalStateException, "cause: " + cause);
            assertContains(cause.getMessage(), "cannot set the job observer", "run is in progress",
                    "after run() returns");
        }
    }

    /**
     * A schedule gated on a state machine, or a phase on a fixed timestep, whose value was never
     * put failed its first run with "resource 'mode' has no value; put one with Resources.put",
     * naming neither the state machine nor the fixed step nor the value to put. The refusal now
     * says what the key serves and shows the value to put.
     */
    @Test
    void shouldNameTheStateMachineOrFixedStepAndTheValueToPutWhenItsResourceIsMissing() {
        ResourceKey<States<Mode>> mode = States.key("mode", Mode.class);
        Schedule gated = Schedule.builder(new World())
                .system("play").runIf(RunCondition.inState(mode, Mode.PLAYING)).exclusive(w -> { })
                .build();
        try (ScheduleExecutor ex = gated.executor(1)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, ex::run);
            assertContains(e.getMessage(), "state machine 'mode'", "has no value",
                    "new States<>(YourEnum.class, initialValue)", "before the first run");
        }
        Schedule twoKeys = Schedule.builder(new World()).resource(States.key("mode", Mode.class),
                        new States<>(Mode.class, Mode.LOBBY))
                .system("play").runIf(RunCondition.inState(mode, Mode.PLAYING)).exclusive(w -> { })
                .build();
        try (ScheduleExecutor ex = twoKeys.executor(1)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, ex::run);
            assertContains(e.getMessage(), "keys compare by identity"); // a second key of the name keeps its refusal
        }
        ResourceKey<FixedTimestep> step = ResourceKey.of("physics step", FixedTimestep.class);
        Schedule stepped = Schedule.builder(new World()).fixedTimestep(Phase.UPDATE, step)
                .system("physics").exclusive(w -> { })
                .build();
        try (ScheduleExecutor ex = stepped.executor(1)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, ex::run);
            assertContains(e.getMessage(), "fixed timestep 'physics step'", "phase Update", "has no value",
                    "new FixedTimestep(stepUnits, unitsPerRun, maxStepsPerRun)");
        }
    }

    /**
     * A resource read before any value was put was refused with "put one with Resources.put (or
     * Schedule.Builder.resource)", naming neither call a user of a Simulation makes. The refusal
     * now names the builder call on both builders and the store's put.
     */
    @Test
    void shouldNameTheSimulationAndScheduleBuilderCallsWhenAResourceHasNoValue() {
        ResourceKey<StringBuilder> log = ResourceKey.of("log", StringBuilder.class);
        Schedule schedule = Schedule.builder(new World())
                .system("write log").readsResource(log).exclusive((w, job) -> job.resource(log))
                .build();
        try (ScheduleExecutor ex = schedule.executor(1)) {
            Throwable e = assertThrows(RuntimeException.class, ex::run);
            String message = e instanceof SystemFailedException ? e.getCause().getMessage() : e.getMessage();
            assertContains(message, "resource 'log' has no value", "SimulationBuilder.resource",
                    "Schedule.Builder.resource", "Resources.put", "before the first run");
        }
    }
}
