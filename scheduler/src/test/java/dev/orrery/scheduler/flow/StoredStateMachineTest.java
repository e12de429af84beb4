package dev.orrery.scheduler.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.States;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A state machine that systems only request and read (no onEnter, onExit or inState names it)
 * moves like any other: its request applies at the next run's start. It used to be unknown to
 * the executor, so every request stayed pending and the value never changed, silently.
 */
class StoredStateMachineTest {
    enum Mode { LOBBY, PLAYING }

    enum Weather { DRY, RAIN }

    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
    static final ResourceKey<States<Weather>> WEATHER = States.key("weather", Weather.class);

    @ParameterizedTest(name = "workers {0}")
    @ValueSource(ints = {1, 2})
    void shouldApplyTheRequestsOfAMachineOnlyRequestedAndRead(int workers) {
        List<String> seen = new ArrayList<>();
        int[] run = {0};
        Schedule schedule = Schedule.builder(new World())
                .resource(MODE, new States<>(Mode.class, Mode.LOBBY))
                .resource(WEATHER, new States<>(Weather.class, Weather.DRY))
                .system("read").readsResource(MODE, WEATHER).exclusive((w, job) ->
                        seen.add(job.resource(MODE).current() + "/" + job.resource(WEATHER).current()))
                .system("start").after("read").writesResource(MODE).forEachRange(() -> 1, (job, from, to) -> {
                    if (run[0] == 1) {
                        job.resourceForWrite(MODE).request(Mode.PLAYING);
                    }
                })
                .system("rain").after("read").writesResource(WEATHER)
                .runIf(RunCondition.inState(WEATHER, Weather.DRY)) // WEATHER is named; MODE is not
                .forEachRange(() -> 1, (job, from, to) -> {
                    if (run[0] == 2) {
                        job.resourceForWrite(WEATHER).request(Weather.RAIN);
                    }
                })
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            for (run[0] = 0; run[0] < 4; run[0]++) {
                ex.run();
            }
        }
        assertEquals(List.of("LOBBY/DRY", "LOBBY/DRY", "PLAYING/DRY", "PLAYING/RAIN"), seen);
        assertEquals(Mode.PLAYING, schedule.resources().get(MODE).current());
        assertNull(schedule.resources().get(MODE).requested(), "the request was applied, not left pending");
    }
}
