package dev.orrery.scheduler.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A state transition is a write of the machine's resource: a system that declared only
 * {@code readsResource(key)} could call {@code job.resource(key).request(...)} and the state
 * changed, a write through a read that the graph does not order against the machine's other
 * readers and writers. The request is refused (in checked mode, as every test runs) naming
 * the system, the machine and the fix; requests from a declared writer, from an exclusive
 * system and from outside jobs still apply.
 */
class StateRequestDeclarationTest {
    enum Light { RED, GREEN }

    static final ResourceKey<States<Light>> LIGHT = States.key("light", Light.class);

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldRefuseARequestFromASystemThatDeclaredOnlyARead(int workers) {
        States<Light> light = new States<>(Light.class, Light.RED);
        Schedule schedule = Schedule.builder(new World()).resource(LIGHT, light)
                .system("peek").readsResource(LIGHT)
                .forEachRange(() -> 1, (job, from, to) -> job.resource(LIGHT).request(Light.GREEN))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            UndeclaredResourceAccessException e = assertInstanceOf(UndeclaredResourceAccessException.class,
                    f.getCause());
            assertTrue(e.getMessage().contains("'peek'") && e.getMessage().contains("'light'")
                    && e.getMessage().contains(".writesResource(light)"), e.getMessage());
        }
        assertNull(light.requested(), "the refused request was not recorded");
        assertEquals(Light.RED, light.current());
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldApplyRequestsFromADeclaredWriterAnExclusiveSystemAndBetweenRuns(int workers) {
        States<Light> light = new States<>(Light.class, Light.RED);
        List<String> seen = new ArrayList<>();
        int[] run = {0};
        Schedule schedule = Schedule.builder(new World()).resource(LIGHT, light)
                .system("look").readsResource(LIGHT)
                .forEachRange(() -> 1, (job, from, to) -> seen.add(job.resource(LIGHT).current().name()))
                .system("go").after("look").writesResource(LIGHT).forEachRange(() -> 1, (job, from, to) -> {
                    if (run[0] == 0) {
                        job.resourceForWrite(LIGHT).request(Light.GREEN);
                    }
                })
                .system("stop").after("go").exclusive((w, job) -> {
                    if (run[0] == 2) {
                        job.resource(LIGHT).request(Light.RED); // an exclusive system may write every resource
                    }
                })
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            for (run[0] = 0; run[0] < 4; run[0]++) {
                ex.run();
            }
            light.request(Light.GREEN); // between runs, on the owner thread
            ex.run();
        }
        assertEquals(List.of("RED", "GREEN", "GREEN", "RED", "GREEN"), seen);
    }

    @Test
    void shouldAcceptARequestAtSetUpBeforeAnyRun() {
        States<Light> light = new States<>(Light.class, Light.RED);
        light.request(Light.GREEN);
        Schedule schedule = Schedule.builder(new World()).resource(LIGHT, light).build();
        try (ScheduleExecutor ex = schedule.executor(1)) {
            ex.run();
        }
        assertEquals(Light.GREEN, light.current());
    }
}
