package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A run condition that reaches into the world (iterates a query, reads or writes an entity by
 * id) is refused, as a job doing the same is; the refusal used to give the job's fix ("a direct
 * iteration from a job ... Give the query to the system with .query(query)", "a job reads by
 * entity id through its JobContext"), which a run condition cannot follow. It now names the run
 * condition and its own fix: a system that writes a resource the condition tests, which the
 * graph orders before the guarded system. The fix is checked to work.
 */
class RunConditionRefusalTest {
    record Pos(float x) {
    }

    /** What a census system counted, for a run condition to test. */
    static final class Census {
        int seen;
    }

    private static final ResourceKey<Census> CENSUS = ResourceKey.of("census", Census.class);

    /** The messages of {@code t} and its causes, joined: what a user reads in a stack trace. */
    private static String chain(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            b.append(c.getMessage()).append(" | ");
        }
        return b.toString();
    }

    /** Runs a schedule whose system 'gated' (exclusive or not) has a condition doing {@code reach}; returns the chain. */
    private static String refusal(World w, Query q, boolean exclusive, int workers, Consumer<World> reach) {
        Component<Pos> pos = w.component(Pos.class);
        RunCondition reaching = RunCondition.of("reaching", r -> {
            reach.accept(w);
            return true;
        });
        Schedule.SystemBuilder gated = Schedule.builder(w).system("gated").runIf(reaching);
        Schedule s = exclusive ? gated.exclusive(world -> { }).build()
                : gated.query(q).writes(pos).forEachChunk(job -> { }).build();
        try (ScheduleExecutor ex = s.executor(workers)) {
            return chain(assertThrows(SystemFailedException.class, ex::run));
        }
    }

    private static void assertRunConditionsFix(String m) {
        assertTrue(m.contains("inside the run condition of system 'gated'"), m);
        assertTrue(m.contains("reads only the resources it names"), m);
        assertTrue(m.contains("in an exclusive system declared .writesResource(KEY)")
                && m.contains("RunCondition.resource(KEY"), m);
        assertFalse(m.contains("from a job") || m.contains(".query(query)") || m.contains("JobContext"),
                "the job's fix, which a run condition cannot follow: " + m);
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldRefuseAQueryIteratedInARunConditionWithTheRunConditionsFix(int workers) {
        World w = new World(256);
        w.spawn(new Pos(1));
        Query q = w.query().with(w.component(Pos.class)).build();
        for (boolean exclusive : new boolean[] {false, true}) {
            String chunks = refusal(w, q, exclusive, workers, world -> q.forEachChunk(view -> { }));
            assertTrue(chunks.contains("query with [Pos] iterated inside the run condition of system 'gated'"), chunks);
            assertRunConditionsFix(chunks);
            String rows = refusal(w, q, exclusive, workers, world -> q.forEach((view, row) -> { }));
            assertTrue(rows.contains("query with [Pos] iterated inside the run condition of system 'gated'"), rows);
            assertRunConditionsFix(rows);
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldRefuseAByIdReadOrWriteInARunConditionWithTheRunConditionsFix(int workers) {
        World w = new World(256);
        long e = w.spawn(new Pos(1));
        Query q = w.query().with(w.component(Pos.class)).build();
        Component<Pos> pos = w.component(Pos.class);
        for (boolean exclusive : new boolean[] {false, true}) {
            String read = refusal(w, q, exclusive, workers, world -> world.get(e, pos));
            assertTrue(read.contains("world.get(") && read.contains(", Pos) called inside the run condition"), read);
            assertRunConditionsFix(read);
            String write = refusal(w, q, exclusive, workers, world -> world.set(e, pos, new Pos(2)));
            assertTrue(write.contains("world.set(") && write.contains("called inside the run condition"), write);
            assertTrue(write.contains("a run condition only tests"), write);
            assertFalse(write.contains("JobContext"), write);
        }
        assertEquals(new Pos(1), w.get(e, pos), "no refused write reached the world");
    }

    /** The fix the refusals give: a system writes what it found into a resource; the condition tests it. */
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldRunTheGuardedSystemOnWhatACensusSystemWroteIntoAResource(int workers) {
        World w = new World(256);
        Component<Pos> pos = w.component(Pos.class);
        Query q = w.query().with(pos).build();
        int[] gatedRuns = {0};
        Schedule s = Schedule.builder(w).resource(CENSUS, new Census())
                .system("census").writesResource(CENSUS).exclusive((world, job) -> {
                    int[] n = {0};
                    q.forEachChunk(view -> n[0] += view.size());
                    job.resourceForWrite(CENSUS).seen = n[0];
                })
                .system("gated").runIf(RunCondition.resource(CENSUS, c -> c.seen > 0)).exclusive(world -> gatedRuns[0]++)
                .build();
        try (ScheduleExecutor ex = s.executor(workers)) {
            ex.run();
            assertEquals(0, gatedRuns[0], "no entity: the census wrote 0 before the condition was tested");
            long e = w.spawn(new Pos(1));
            ex.run();
            assertEquals(1, gatedRuns[0], "one entity, counted in the same run before the condition");
            w.despawn(e);
            ex.run();
            assertEquals(1, gatedRuns[0], "none again");
        }
    }
}
