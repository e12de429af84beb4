package dev.orrery.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The builder's checks on how each kind of system is declared. */
class ScheduleBuilderTest {
    record Val(int v) {
    }

    private final World world = new World();
    private final Component<Val> val = world.component(Val.class);

    @Test
    void shouldRefuseAWorkerCountOutsideOneTo256NamingTheRangeNotFailInsideTheExecutor() {
        // executor(Integer.MAX_VALUE) overflowed workers * jobs per worker into a bare
        // NegativeArraySizeException: -4; executor(300) named a command buffer id the caller never chose
        Schedule schedule = Schedule.builder(world).system("s").query(world.query().with(val).build()).writes(val)
                .forEachChunk(job -> { }).build();
        for (int workers : new int[] {0, -1, 257, 300, Integer.MAX_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> schedule.executor(workers),
                    "executor(" + workers + ")");
            assertEquals("an executor takes 1 to 256 workers, counting the calling thread (each needs its own "
                    + "command buffer id, 0 to 255); got " + workers, e.getMessage());
        }
        try (ScheduleExecutor most = schedule.executor(256)) {
            most.run();
        }
    }

    @Test
    void shouldRefuseABlankSystemNameAsABlankResourceEventOrPhaseNameIs() {
        // once accepted: errors and traces then named system '' (found in the exception-type audit)
        for (String blank : new String[] {"", " ", "\t"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Schedule.builder(world).system(blank), "system('" + blank + "')");
            assertEquals("a system needs a non-blank name, used in errors, traces, the graph's output and "
                    + "recordings' per-system hashes; got '" + blank + "'", e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> ResourceKey.of(" ", Integer.class));
    }

    @Test
    void shouldRefuseASystemNamedAsTheSchedulerNamesItsSyncPointsAndTakeOtherNamesThatBeginSo() {
        // A journal keeps only the name of what failed: a system named as a sync point is named
        // would read back as that sync point, and one named "sync point 3" was described as one.
        for (String taken : new String[] {"sync point ending phase Update", "sync point before system 'b'"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Schedule.builder(world).system(taken), "system(\"" + taken + "\")");
            assertEquals("system name '" + taken + "' is how the scheduler names a sync point ('sync point ending "
                    + "phase <phase>', 'sync point before system '<system>''), and a failure or a journal naming it "
                    + "could not say which failed; rename the system", e.getMessage());
            assertTrue(SystemFailedException.namesSyncPoint(taken), taken);
        }
        assertFalse(SystemFailedException.namesSyncPoint("sync point 3"), "only the scheduler's own forms");
        assertEquals("sync point 3", Schedule.builder(world).system("sync point 3").exclusive(w -> { }).build()
                .systemNames().get(0), "a name that merely begins with 'sync point' is a system's like any other");
    }

    @Test
    void shouldRefuseAScheduleWideMinBatchRowsBelowOneAtTheCallAsTheSystemsOwnIs() {
        // once taken, and refused only at build() as "system 's' has minBatchRows 0", naming a system
        // the caller never gave one to (the system's own minBatchRows is refused at the call)
        for (int rows : new int[] {0, -5}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Schedule.builder(world).minBatchRows(rows));
            assertEquals("the schedule's minBatchRows must be at least 1, got " + rows
                    + "; leave it unset for the adaptive split", e.getMessage());
        }
        assertEquals(List.of("s"), Schedule.builder(world).minBatchRows(1).system("s")
                .query(world.query().with(val).build()).writes(val).forEachChunk(job -> { }).build().systemNames());
    }

    @Test
    void aMinBatchRowsOfTheDefaultKeepsASystemAdaptiveAsDocumentedAndAnyOtherFixesIt() {
        // the performance chapter said any minBatchRows(n) replaces the adaptive rule; the default's
        // value reads as not set, which the chapter and the Javadoc now say
        world.spawn(new Val(1));
        Schedule schedule = Schedule.builder(world)
                .system("default").query(world.query().with(val).build()).writes(val)
                .minBatchRows(Schedule.DEFAULT_MIN_BATCH_ROWS).forEachChunk(job -> { })
                .system("other").query(world.query().with(val).build()).writes(val)
                .minBatchRows(Schedule.DEFAULT_MIN_BATCH_ROWS - 1).forEachChunk(job -> { })
                .build();
        try (ScheduleExecutor executor = schedule.executor(2)) {
            executor.run();
            List<BatchDecision> decisions = executor.batching();
            assertEquals(BatchDecision.Mode.MEASURING, decisions.get(0).mode(), BatchDecision.toText(decisions));
            assertEquals(BatchDecision.Mode.EXPLICIT, decisions.get(1).mode(), BatchDecision.toText(decisions));
        }
    }

    @Test
    void shouldRefuseMinBatchRowsOnAnExclusiveSystemWhichIsNeverSplit() {
        Schedule.SystemBuilder s = Schedule.builder(world).system("census").minBatchRows(256);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.exclusive(w -> { }));
        assertEquals("exclusive system 'census' set minBatchRows(256), but it runs alone on the thread that runs "
                + "the schedule and is never split into jobs; drop minBatchRows, or make it a "
                + "forEachChunk/forEachRange system", e.getMessage());
    }

    @Test
    void shouldRefuseTouchesOtherEntitiesOnASystemNeverFusedIntoAChunkPipeline() {
        // once taken and silently ignored: the declaration only keeps a forEachChunk system out of
        // chunk pipelines, and range, level and exclusive systems are never fused into one
        IllegalStateException range = assertThrows(IllegalStateException.class, () -> Schedule.builder(world)
                .system("count").touchesOtherEntities().forEachRange(() -> 1, (job, from, to) -> { }));
        assertEquals("range system 'count' declared touchesOtherEntities(), but that only keeps a forEachChunk "
                + "system out of chunk pipelines, and a range system is never fused into one; drop "
                + "touchesOtherEntities()", range.getMessage());
        IllegalStateException level = assertThrows(IllegalStateException.class, () -> Schedule.builder(world)
                .system("propagate").touchesOtherEntities()
                .forEachLevel(world.relations().childOf(), (job, h, from, to) -> { }));
        assertEquals("level system 'propagate' declared touchesOtherEntities(), but that only keeps a forEachChunk "
                + "system out of chunk pipelines, and a level system is never fused into one (it reads other "
                + "entities by id as it is); drop touchesOtherEntities()", level.getMessage());
        IllegalStateException exclusive = assertThrows(IllegalStateException.class, () -> Schedule.builder(world)
                .system("census").touchesOtherEntities().exclusive(w -> { }));
        assertEquals("exclusive system 'census' declared touchesOtherEntities(), but that only keeps a forEachChunk "
                + "system out of chunk pipelines, and an exclusive system gets the whole world and is never fused "
                + "into one; drop touchesOtherEntities()", exclusive.getMessage());
        assertTrue(dev.orrery.scheduler.internal.SchedulerInternals.graph(Schedule.builder(world).system("peek")
                .query(world.query().with(val).build()).reads(val).touchesOtherEntities().forEachChunk(job -> { })
                .build()).system(0).access().touchesOtherEntities(), "a chunk system keeps it");
    }

    @Test
    void shouldRefuseARangeSystemWithAQuery() {
        Schedule.SystemBuilder s = Schedule.builder(world).system("r").query(world.query().with(val).build());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> s.forEachRange(() -> 1, (job, from, to) -> { }));
        assertTrue(e.getMessage().startsWith("range system 'r' cannot have a query"), e.getMessage());
    }

    @Test
    void shouldRefuseARangeSystemThatDeclaresComponents() {
        IllegalStateException reads = assertThrows(IllegalStateException.class,
                () -> Schedule.builder(world).system("r").reads(val).forEachRange(() -> 1, (job, from, to) -> { }));
        assertTrue(reads.getMessage().startsWith("range system 'r' declared component reads or writes"),
                reads.getMessage());
        assertThrows(IllegalStateException.class,
                () -> Schedule.builder(world).system("w").writes(val).forEachRange(() -> 1, (job, from, to) -> { }));
    }

    @Test
    void shouldMarkRangeSystemsInThePlanAndOrderThemByResources() {
        ResourceKey<int[]> table = ResourceKey.of("Table", int[].class);
        Schedule schedule = Schedule.builder(world)
                .system("fill").writesResource(table).forEachRange(() -> 4, (job, from, to) -> { })
                .system("read").query(world.query().with(val).build()).reads(val).readsResource(table)
                .forEachChunk(job -> { })
                .build();
        assertTrue(schedule.plan().system(schedule.graph().positionOf("fill")).ranged());
        assertFalse(schedule.plan().system(schedule.graph().positionOf("read")).ranged());
        assertEquals(1, schedule.graph().predecessorCount(schedule.graph().positionOf("read")),
                "the reader of the table waits for the range system that writes it");
    }

    @Test
    void shouldRefuseAtBuildAChangeFilterOnAColumnTheSystemDoesNotDeclare() {
        record Other(int o) {
        }
        Component<Other> other = world.component(Other.class);
        Schedule.Builder b = Schedule.builder(world)
                .system("watch").query(world.query().with(val).changed(other).build()).reads(val)
                .forEachChunk(job -> { });
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().startsWith("system 'watch' filters its query by added/changed of " + other),
                e.getMessage());
        assertTrue(e.getMessage().contains("declare reads(" + other + ")"), e.getMessage());
        Schedule ok = Schedule.builder(world)
                .system("watch").query(world.query().with(val).changed(other).build()).reads(val).writes(other)
                .forEachChunk(job -> { })
                .build();
        assertEquals(1, ok.graph().size(), "a declared write counts as the read the filter needs");
    }

    @Test
    void shouldRefuseANullSystemNameInBeforeOrAfterNamingTheSystem() {
        Schedule.SystemBuilder s = Schedule.builder(world).system("move");
        NullPointerException after = assertThrows(NullPointerException.class, () -> s.after((String) null));
        assertEquals("system name in after(...) of system 'move'", after.getMessage());
        NullPointerException before = assertThrows(NullPointerException.class, () -> s.before("a", null));
        assertEquals("system name in before(...) of system 'move'", before.getMessage());
        assertThrows(NullPointerException.class, () -> s.after((String[]) null));
        s.forEachRange(() -> 1, (job, from, to) -> { }).build(); // nothing was added by the refused calls
    }

    @Test
    void shouldRefuseANullNameInADeclarationsOrderLists() {
        var access = dev.orrery.scheduler.access.SystemAccess.builder("move").build();
        java.util.List<String> withNull = java.util.Arrays.asList("a", null);
        NullPointerException e = assertThrows(NullPointerException.class, () -> new dev.orrery.scheduler.graph
                .SystemDeclaration("move", access, Phase.UPDATE, java.util.List.of(), withNull));
        assertEquals("system name in after(...) of system 'move'", e.getMessage());
        NullPointerException b = assertThrows(NullPointerException.class, () -> new dev.orrery.scheduler.graph
                .SystemDeclaration("move", access, Phase.UPDATE, withNull, java.util.List.of()));
        assertEquals("system name in before(...) of system 'move'", b.getMessage());
    }
}
