package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A system that reads a removal log less often than the log keeps entries (two runs) is told
 * it missed some: {@code job.removed(c).missed()}. A system gated to every third run reads
 * within the window and sees every removal; one gated to every fifth run used to see fewer
 * than the removals made since its last run with nothing to say so.
 */
class RemovalLogMissedTest {
    record Hp(int value) {
    }

    static final class Counter {
        long run;
    }

    static final ResourceKey<Counter> RUN = ResourceKey.of("run", Counter.class);

    /** What one reader saw in one of its runs. */
    record Read(long run, int count, boolean missed) {
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void aSystemThatSkipsMoreRunsThanTheLogKeepsIsToldItMissedRemovals(int workers) {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        world.trackRemoved(hp);
        Counter counter = new Counter();
        List<Read> everyThird = new ArrayList<>();
        List<Read> everyFifth = new ArrayList<>();
        Schedule schedule = Schedule.builder(world).resource(RUN, counter)
                .system("every third").reads(hp).runIf(RunCondition.resource(RUN, c -> c.run % 3 == 2))
                .exclusive((w, job) -> {
                    RemovedEntities gone = job.removed(hp);
                    everyThird.add(new Read(counter.run, gone.count(), gone.missed()));
                })
                .system("every fifth").reads(hp).runIf(RunCondition.resource(RUN, c -> c.run % 5 == 4))
                .exclusive((w, job) -> {
                    RemovedEntities gone = job.removed(hp);
                    everyFifth.add(new Read(counter.run, gone.count(), gone.missed()));
                })
                .build();
        int runs = 30;
        try (ScheduleExecutor executor = schedule.executor(workers)) {
            for (counter.run = 0; counter.run < runs; counter.run++) {
                world.despawn(world.spawn(new Hp((int) counter.run))); // one removal between runs
                executor.run();
            }
        }
        int seen = 0;
        for (Read r : everyThird) {
            assertFalse(r.missed(), "a reader every third run reads within the log's two runs: " + r);
            seen += r.count();
        }
        assertEquals(runs, seen, "the reader every third run saw each removal once: " + everyThird);
        assertEquals(6, everyFifth.size());
        for (Read r : everyFifth) {
            assertTrue(r.count() < 5, "the log keeps two runs, so fewer than the 5 removals made since: " + r);
            assertTrue(r.missed(), "a reader that saw " + r.count() + " of 5 removals is told it missed some: " + r);
        }
    }
}
