package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
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
}
