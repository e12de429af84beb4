package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.UndeclaredEventAccessException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An exclusive system's context: it reads the events of a writer ordered before it, writes a
 * resource, and records commands that the next system sees; undeclared event access is refused
 * as in a job.
 */
class ExclusiveContextTest {
    record Hit(int amount) {
    }

    record Crown() {
    }

    static final class Score {
        long total;
        final List<Long> seenByNext = new ArrayList<>();
    }

    static final EventKey<Hit> HITS = EventKey.of("hits", Hit.class);
    static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldGiveAnExclusiveSystemEventsResourcesAndCommands(int workers) {
        World world = new World(256);
        Component<Crown> crown = world.component(Crown.class);
        Score score = new Score();
        Schedule schedule = Schedule.builder(world).resource(SCORE, score)
                .system("hitter").writesEvents(HITS).forEachRange(() -> 3, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        job.send(HITS, new Hit(i + 1));
                    }
                })
                .system("scoreboard").after("hitter").readsEvents(HITS).exclusive((w, job) -> {
                    Score s = job.resourceForWrite(SCORE);
                    job.events(HITS).forEach(h -> s.total += h.amount());
                    job.commands().add(job.commands().spawn(), crown, new Crown());
                    assertNull(job.chunk(), "an exclusive system has no chunk");
                })
                .system("counter").after("scoreboard").readsResource(SCORE)
                .query(world.query().with(crown).build()).reads(crown)
                .forEachChunk(job -> job.resource(SCORE).seenByNext.add((long) job.chunk().size()))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            ex.run();
            ex.run();
        }
        assertEquals(2 * (1 + 2 + 3), score.total, "each run's hits, read by the exclusive system once");
        assertEquals(List.of(1L, 2L), score.seenByNext, "the crown spawned by command is there for the next system");
        assertEquals(2, world.entityCount());
    }

    @Test
    void shouldRefuseAnUndeclaredEventReadNamingTheSystem() {
        World world = new World(256);
        Schedule schedule = Schedule.builder(world)
                .system("hitter").writesEvents(HITS).forEachRange(() -> 1, (job, from, to) -> job.send(HITS, new Hit(1)))
                .system("nosy").after("hitter").exclusive((w, job) -> job.events(HITS))
                .build();
        try (ScheduleExecutor ex = schedule.executor(1)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            assertEquals("nosy", e.system());
            assertTrue(e.getCause() instanceof UndeclaredEventAccessException, String.valueOf(e.getCause()));
            assertTrue(e.getCause().getMessage().contains("nosy") && e.getCause().getMessage().contains("hits"),
                    e.getCause().getMessage());
        }
    }
}
