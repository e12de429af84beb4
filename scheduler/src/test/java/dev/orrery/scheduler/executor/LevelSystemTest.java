package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.UndeclaredAccessException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.LevelSystem;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Level systems ({@code forEachLevel}): a parent is always done before its children whatever
 * the split and the worker count, every job of a level ends before the next level's start,
 * commands recorded in level jobs play back in slot order, by-id access is checked against the
 * declaration, pair changes made earlier in the phase are seen, and bad declarations are
 * refused with a message naming the fix.
 */
class LevelSystemTest {
    record Depth(int depth) {
    }

    record Visit(int slot) {
    }

    record Other(float v) {
    }

    /** A random recursive forest: {@code roots} roots, then each entity under a random earlier one. */
    static final class Forest {
        final World world = new World(4096);
        final Component<Depth> depth = world.component(Depth.class);
        final Component<Visit> visit = world.component(Visit.class);
        final Component<Other> other = world.component(Other.class);
        final Field d = depth.field("depth");
        final Relation childOf = world.relations().childOf();
        final long[] entities;

        Forest(int size, int roots, long seed) {
            this(size, roots, seed, false);
        }

        Forest(int size, int roots, long seed, boolean trackRows) {
            if (trackRows) {
                world.trackRowChanges(depth);
            }
            SplittableRandom random = new SplittableRandom(seed);
            entities = new long[size];
            for (int i = 0; i < size; i++) {
                entities[i] = world.spawn(new Depth(-1));
                if (i >= roots) {
                    world.relations().add(entities[i], childOf, entities[random.nextInt(i)]);
                }
            }
        }

        /** An entity's depth, by walking up its parents. */
        int trueDepth(long e) {
            int n = 0;
            for (long p = world.relations().parent(e); p != Entity.NULL; p = world.relations().parent(p)) {
                n++;
            }
            return n;
        }

        /** The depth body: a slot's depth is its parent's plus one, read by id a level later. */
        LevelSystem depthBody() {
            return (job, h, from, to) -> {
                for (int i = from; i < to; i++) {
                    int p = h.parentSlot(i);
                    job.setInt(h.entity(i), d, p < 0 ? 0 : job.getInt(h.entity(p), d) + 1);
                }
            };
        }
    }

    @ParameterizedTest(name = "{0} workers, minBatchRows {1}")
    @CsvSource({"1, 1", "2, 1", "4, 1", "4, 7", "4, 16384"})
    void shouldFinishEveryParentBeforeItsChildren(int workers, int minBatchRows) {
        Forest f = new Forest(6000, 40, 11);
        Schedule schedule = Schedule.builder(f.world).minBatchRows(minBatchRows)
                .system("depth").writes(f.depth).forEachLevel(f.childOf, f.depthBody())
                .build();
        try (ScheduleExecutor executor = schedule.executor(workers)) {
            executor.run();
        }
        Hierarchy h = f.world.relations().hierarchy(f.childOf);
        assertTrue(h.levels() > 8, "a deep forest: " + h.levels() + " levels");
        for (long e : f.entities) {
            assertEquals(f.trueDepth(e), f.world.get(e, f.depth).depth(), () -> "depth of " + Entity.toString(e));
        }
    }

    @Test
    void shouldEndEveryJobOfALevelBeforeTheNextLevelStarts() {
        Forest f = new Forest(20_000, 200, 5);
        Schedule schedule = Schedule.builder(f.world).minBatchRows(64)
                .system("depth").writes(f.depth).forEachLevel(f.childOf, f.depthBody())
                .build();
        List<long[]> jobs = new ArrayList<>(); // from, to, start, end
        JobObserver observer = (worker, system, from, to, start, end) -> {
            synchronized (jobs) {
                jobs.add(new long[] {from, to, start, end});
            }
        };
        try (ScheduleExecutor executor = schedule.executor(4)) {
            executor.observe(observer);
            executor.run();
        }
        Hierarchy h = f.world.relations().hierarchy(f.childOf);
        int split = 0;
        for (long[] a : jobs) {
            int level = levelOf(h, (int) a[0]);
            if (a[1] <= h.levelEnd(level) && jobsIn(jobs, h, level) > 1) {
                split++;
            }
            for (long[] b : jobs) {
                if (levelOf(h, (int) b[0]) > levelOf(h, (int) a[1] - 1)) {
                    assertTrue(b[2] >= a[3], "a job of a later level started before a job of an earlier one ended");
                }
            }
        }
        assertTrue(split >= 4, "large levels were split into several jobs: " + split);
        int covered = jobs.stream().mapToInt(a -> (int) (a[1] - a[0])).sum();
        assertEquals(h.size(), covered, "every slot in exactly one job");
    }

    private static long jobsIn(List<long[]> jobs, Hierarchy h, int level) {
        return jobs.stream().filter(a -> levelOf(h, (int) a[0]) == level).count();
    }

    private static int levelOf(Hierarchy h, int slot) {
        int l = 0;
        while (h.levelEnd(l) <= slot) {
            l++;
        }
        return l;
    }

    /** The world after one run whose level jobs spawn one entity per slot, carrying the slot. */
    private static Forest spawnPerSlot(int workers, int minBatchRows) {
        Forest f = new Forest(3000, 30, 3);
        Schedule schedule = Schedule.builder(f.world).minBatchRows(minBatchRows)
                .system("trace").spawns(f.visit).forEachLevel(f.childOf, (job, h, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, f.visit, new Visit(i));
                    }
                })
                .build();
        try (ScheduleExecutor executor = schedule.executor(workers)) {
            executor.run();
        }
        return f;
    }

    @Test
    void shouldPlayBackCommandsInSlotOrderWhateverTheSplit() {
        Forest serial = spawnPerSlot(1, Integer.MAX_VALUE);
        int[] slots = slotsBySpawnOrder(serial);
        for (int i = 0; i < slots.length; i++) {
            assertEquals(i, slots[i], "the entity spawned i-th carries slot i");
        }
        long hash = serial.world.stateHash();
        for (int[] config : new int[][] {{2, 1}, {4, 1}, {4, 5}, {4, 16384}, {3, 100}}) {
            Forest f = spawnPerSlot(config[0], config[1]);
            assertEquals(hash, f.world.stateHash(), () -> Arrays.toString(config));
            assertEquals(Arrays.toString(slots), Arrays.toString(slotsBySpawnOrder(f)), () -> Arrays.toString(config));
        }
    }

    /** The slots carried by the spawned entities, in the order their indices were given out. */
    private static int[] slotsBySpawnOrder(Forest f) {
        List<long[]> spawned = new ArrayList<>();
        f.world.query().with(f.visit).build().forEach((chunk, row) ->
                spawned.add(new long[] {Entity.index(chunk.entity(row)), f.world.get(chunk.entity(row), f.visit).slot()}));
        spawned.sort((a, b) -> Long.compare(a[0], b[0]));
        return spawned.stream().mapToInt(a -> (int) a[1]).toArray();
    }

    @Test
    void shouldRefuseByIdAccessTheSystemDidNotDeclare() {
        Forest f = new Forest(100, 2, 1);
        Field v = f.other.field("v");
        int[] parentsRead = new int[1];
        Schedule reader = Schedule.builder(f.world)
                .system("parents").reads(f.depth).forEachLevel(f.childOf, (job, h, from, to) -> {
                    for (int i = from; i < to; i++) {
                        int p = h.parentSlot(i);
                        if (p >= 0 && job.getLong(h.entity(i), f.childOf.target()) == h.entity(p)) {
                            parentsRead[0]++; // the marker column counts as declared read
                        }
                    }
                })
                .build();
        try (ScheduleExecutor executor = reader.executor(1)) {
            executor.run();
        }
        assertEquals(98, parentsRead[0]);
        Schedule schedule = Schedule.builder(f.world)
                .system("sneaky").reads(f.depth).forEachLevel(f.childOf,
                        (job, h, from, to) -> job.setInt(h.entity(from), f.d, 3)) // declared read only
                .build();
        try (ScheduleExecutor executor = schedule.executor(2)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertInstanceOf(UndeclaredAccessException.class, e.getCause());
            assertTrue(e.getMessage().contains("sneaky"), e.getMessage());
        }
        Schedule undeclared = Schedule.builder(f.world)
                .system("peek").reads(f.depth).forEachLevel(f.childOf,
                        (job, h, from, to) -> job.getFloat(h.entity(from), v))
                .build();
        try (ScheduleExecutor executor = undeclared.executor(1)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertInstanceOf(UndeclaredAccessException.class, e.getCause());
        }
    }

    @Test
    void shouldStampEveryRowWrittenByIdEvenRightAfterReadingIt() {
        Forest f = new Forest(3000, 30, 4, true);
        AtomicInteger changed = new AtomicInteger(); // chunk jobs of 'count' run on both workers
        Schedule schedule = Schedule.builder(f.world).minBatchRows(50)
                .system("odd depths").writes(f.depth).forEachLevel(f.childOf, (job, h, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = h.entity(i);
                        int now = job.getInt(e, f.d); // remembered: the write below reuses the look-up
                        if (i % 2 == 1) {
                            job.setInt(e, f.d, now + 1);
                        }
                    }
                })
                .system("count").inPhase(dev.orrery.scheduler.Phase.POST_UPDATE)
                .query(f.world.query().with(f.depth).changed(f.depth).build()).reads(f.depth).forEachChunk(job -> {
                    for (int i = job.chunk().firstChanged(f.depth); i >= 0; i = job.chunk().nextChanged(i + 1)) {
                        changed.incrementAndGet();
                    }
                })
                .build();
        try (ScheduleExecutor executor = schedule.executor(2)) {
            executor.run();
            changed.set(0);
            executor.run();
        }
        int slots = f.world.relations().hierarchy(f.childOf).size();
        assertTrue(slots > 2900, "nearly every entity is in the forest: " + slots);
        assertEquals(slots / 2, changed.get(), "each row written in the last run (the odd slots), and only those");
    }

    @Test
    void shouldSeePairsAddedEarlierInThePhase() {
        Forest f = new Forest(500, 5, 9);
        long orphan = f.world.spawn(new Depth(-1));
        long root = f.entities[0];
        Schedule schedule = Schedule.builder(f.world)
                .system("adopt").adds(f.childOf.column()).forEachRange(() -> 1,
                        (job, from, to) -> job.commands().addPair(orphan, f.childOf, root))
                .system("depth").writes(f.depth).forEachLevel(f.childOf, f.depthBody())
                .build();
        assertTrue(SchedulerInternals.graph(schedule).syncBefore(SchedulerInternals.graph(schedule).positionOf("depth")),
                "a sync point before the walk: it reads ChildOf, which 'adopt' adds");
        try (ScheduleExecutor executor = schedule.executor(2)) {
            executor.run();
        }
        assertEquals(1, f.world.get(orphan, f.depth).depth());
    }

    @Test
    void shouldRunNothingOverAnEmptyHierarchyAndStopAtAFailingLevel() {
        World world = new World();
        Relation childOf = world.relations().childOf();
        Component<Depth> depth = world.component(Depth.class);
        int[] calls = new int[1];
        Schedule empty = Schedule.builder(world)
                .system("none").writes(depth).forEachLevel(childOf, (job, h, from, to) -> calls[0]++)
                .build();
        try (ScheduleExecutor executor = empty.executor(2)) {
            executor.run();
        }
        assertEquals(0, calls[0]);

        Forest f = new Forest(4000, 4, 2);
        Hierarchy h = f.world.relations().hierarchy(f.childOf);
        int failing = 3;
        boolean[] deeper = new boolean[1];
        Schedule schedule = Schedule.builder(f.world).minBatchRows(1)
                .system("fragile").writes(f.depth).forEachLevel(f.childOf, (job, hh, from, to) -> {
                    if (from >= hh.levelStart(failing + 1)) {
                        deeper[0] = true;
                    }
                    if (from >= hh.levelStart(failing) && from < hh.levelEnd(failing)) {
                        throw new IllegalStateException("boom at slot " + from);
                    }
                })
                .build();
        try (ScheduleExecutor executor = schedule.executor(4)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertTrue(e.getMessage().contains("fragile") && e.getMessage().contains("boom"), e.getMessage());
        }
        assertTrue(h.levels() > failing + 1);
        assertFalse(deeper[0], "no level after the failing one ran");
    }

    @Test
    void shouldRefuseAQueryAMultiTargetRelationAndAnotherWorldsRelation() {
        Forest f = new Forest(10, 1, 1);
        Relation likes = f.world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        IllegalStateException query = assertThrows(IllegalStateException.class, () -> Schedule.builder(f.world)
                .system("q").query(f.world.query().with(f.depth).build()).forEachLevel(f.childOf, (j, h, a, b) -> { }));
        assertTrue(query.getMessage().contains("'q'") && query.getMessage().contains("forEachChunk"), query.getMessage());
        IllegalArgumentException forest = assertThrows(IllegalArgumentException.class, () -> Schedule.builder(f.world)
                .system("l").forEachLevel(likes, (j, h, a, b) -> { }));
        assertTrue(forest.getMessage().contains("Likes") && forest.getMessage().contains("exclusive and acyclic"),
                forest.getMessage());
        Relation foreign = new World().relations().childOf();
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class, () -> Schedule.builder(f.world)
                .system("o").forEachLevel(foreign, (j, h, a, b) -> { }));
        assertTrue(other.getMessage().contains("another world"), other.getMessage());
    }
}
