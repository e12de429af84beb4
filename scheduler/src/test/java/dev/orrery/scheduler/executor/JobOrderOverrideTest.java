package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@link JobOrderOverride}: the single-threaded executor really runs a chunk system's chunks,
 * a range system's ranges and each level's jobs last to first, a game that keeps to the rules
 * (commands, events, a {@code LongSum}, range and level spawns) ends bit-identical to the
 * forward run, and one whose result follows the order its jobs ran in does not.
 */
class JobOrderOverrideTest {
    record Pos(float x) {
    }

    record Mark(int value) {
    }

    static final EventKey<Long> HIT = EventKey.of("hit", Long.class);
    static final ResourceKey<LongSum> SUM = ResourceKey.of("sum", LongSum.class);

    private static ScheduleExecutor executor(Schedule schedule, boolean reverse) {
        if (reverse) {
            JobOrderOverride.reverse();
        }
        try {
            return schedule.executor(1);
        } finally {
            JobOrderOverride.clear();
        }
    }

    /** A world of small chunks: 1500 entities with a Pos over {@code 1024}-byte chunks. */
    private static World world() {
        World world = new World(1024);
        Component<Pos> pos = world.component(Pos.class);
        world.component(Mark.class);
        for (int i = 0; i < 1500; i++) {
            world.spawn(new Pos(i * 0.5f));
        }
        return world;
    }

    private static List<long[]> chunkTrace(boolean reverse) {
        World world = world();
        Component<Pos> pos = world.component(Pos.class);
        List<long[]> seen = new ArrayList<>(); // chunk ordinal, first entity
        Schedule schedule = Schedule.builder(world)
                .system("trace").query(world.query().with(pos).build()).reads(pos)
                .forEachChunk(job -> seen.add(new long[] {job.chunkOrdinal(), job.chunk().entity(0)}))
                .build();
        try (ScheduleExecutor executor = executor(schedule, reverse)) {
            executor.run();
        }
        return seen;
    }

    @Test
    void shouldReverseOnlyTheSystemReverseOnlyNames() {
        World world = world();
        Component<Pos> pos = world.component(Pos.class);
        var all = world.query().with(pos).build();
        List<String> seen = new ArrayList<>(); // system name and chunk ordinal, in the order the jobs ran
        Schedule schedule = Schedule.builder(world)
                .system("first").query(all).reads(pos).forEachChunk(job -> seen.add("first " + job.chunkOrdinal()))
                .system("second").query(all).reads(pos).forEachChunk(job -> seen.add("second " + job.chunkOrdinal()))
                .build();
        JobOrderOverride.reverseOnly("second");
        ScheduleExecutor executor;
        try {
            executor = schedule.executor(1);
        } finally {
            JobOrderOverride.clear();
        }
        try (executor) {
            executor.run();
        }
        int chunks = (int) seen.stream().filter(x -> x.startsWith("first")).count();
        assertTrue(chunks > 2, "several chunks: " + chunks);
        assertEquals("first 0", seen.get(0), "the first system runs as one job, forward: " + seen);
        assertEquals("first " + (chunks - 1), seen.get(chunks - 1), seen.toString());
        assertEquals("second " + (chunks - 1), seen.get(chunks), "the named system runs last to first: " + seen);
        assertEquals("second 0", seen.get(2 * chunks - 1), seen.toString());
    }

    @Test
    void shouldRunAChunkSystemsChunksLastToFirst() {
        List<long[]> forward = chunkTrace(false);
        List<long[]> reversed = chunkTrace(true);
        assertTrue(forward.size() > 8, "several chunks: " + forward.size());
        assertEquals(forward.size(), reversed.size(), "every chunk once");
        for (int i = 0; i < forward.size(); i++) {
            assertEquals(i, forward.get(i)[0], "forward: chunk ordinals ascend");
            long[] r = reversed.get(i);
            assertEquals(forward.size() - 1 - i, r[0], "reverse: chunk ordinals descend");
            assertEquals(forward.get((int) r[0])[1], r[1], "the same chunk under the same ordinal");
        }
        assertEquals(forward.size(), chunkTrace(false).size(), "a later executor on the thread runs forward again");
        assertEquals(0, chunkTrace(false).get(0)[0]);
    }

    /** The chunk ordinal the failure names, and the chunks run, of a system throwing on chunks 1 and 3. */
    private static int failingChunk(boolean reverse, boolean finish, List<Integer> ran) {
        World world = world();
        Component<Pos> pos = world.component(Pos.class);
        Schedule schedule = Schedule.builder(world)
                .system("fails").query(world.query().with(pos).build()).reads(pos).forEachChunk(job -> {
                    ran.add(job.chunkOrdinal());
                    if (job.chunkOrdinal() == 1 || job.chunkOrdinal() == 3) {
                        throw new IllegalStateException("chunk " + job.chunkOrdinal());
                    }
                })
                .build();
        try (ScheduleExecutor executor = executor(schedule, reverse)) {
            executor.finishPhaseOnFailure(finish);
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("fails", e.system());
            return e.chunkOrdinal();
        }
    }

    @Test
    void shouldReportAFailingChunkAsForwardInFinishModeAndStopAtTheFirstMetOtherwise() {
        List<Integer> forward = new ArrayList<>();
        List<Integer> reversed = new ArrayList<>();
        assertEquals(1, failingChunk(false, true, forward));
        assertEquals(1, failingChunk(true, true, reversed), "finish mode reports the lowest failing chunk, as forward");
        assertEquals(forward.size(), reversed.size(), "finish mode runs every chunk");
        reversed.clear();
        assertEquals(3, failingChunk(true, false, reversed), "the first failing chunk met, last to first");
        assertEquals(reversed.size() - 1, reversed.indexOf(3), "nothing ran after it: " + reversed);
    }

    @Test
    void shouldRunARangeSystemsRangesLastToFirst() {
        World world = world();
        List<int[]> jobs = new ArrayList<>();
        Schedule schedule = Schedule.builder(world)
                .system("ranged").forEachRange(() -> 1000, (job, from, to) -> jobs.add(new int[] {from, to}))
                .build();
        try (ScheduleExecutor executor = executor(schedule, true)) {
            executor.run();
        }
        assertEquals(JobOrderOverride.RANGE_JOBS, jobs.size());
        assertEquals(1000, jobs.get(0)[1], "the last range first");
        assertEquals(0, jobs.get(jobs.size() - 1)[0], "the first range last");
        for (int i = 1; i < jobs.size(); i++) {
            assertEquals(jobs.get(i - 1)[0], jobs.get(i)[1], "each range ends where the one run before it starts");
        }
    }

    @Test
    void shouldKeepLevelsInOrderAndRunEachLevelsJobsLastToFirst() {
        World world = new World(4096);
        Component<Mark> depth = world.component(Mark.class);
        Field d = depth.field("value");
        Relation childOf = world.relations().childOf();
        SplittableRandom random = new SplittableRandom(7);
        long[] entities = new long[3000];
        for (int i = 0; i < entities.length; i++) {
            entities[i] = world.spawn(new Mark(-1));
            if (i >= 20) {
                world.relations().add(entities[i], childOf, entities[random.nextInt(i)]);
            }
        }
        List<int[]> jobs = new ArrayList<>();
        JobObserver observer = (worker, system, from, to, start, end) -> jobs.add(new int[] {from, to});
        Schedule schedule = Schedule.builder(world)
                .system("depth").writes(depth).forEachLevel(childOf, (job, h, from, to) -> {
                    for (int i = from; i < to; i++) {
                        int p = h.parentSlot(i);
                        job.setInt(h.entity(i), d, p < 0 ? 0 : job.getInt(h.entity(p), d) + 1);
                    }
                })
                .build();
        try (ScheduleExecutor executor = executor(schedule, true)) {
            executor.observe(observer);
            executor.run();
        }
        Hierarchy h = world.relations().hierarchy(childOf);
        for (int s = 0; s < h.size(); s++) {
            int p = h.parentSlot(s);
            int expected = p < 0 ? 0 : world.get(h.entity(p), depth).value() + 1;
            assertEquals(expected, world.get(h.entity(s), depth).value(), "every parent was done before its children");
        }
        int descending = 0;
        for (int i = 1; i < jobs.size(); i++) {
            int[] a = jobs.get(i - 1);
            int[] b = jobs.get(i);
            if (levelOf(h, b[0]) == levelOf(h, a[0])) {
                assertEquals(a[0], b[1], "inside a level the jobs run last to first");
                descending++;
            } else {
                assertTrue(levelOf(h, b[0]) > levelOf(h, a[1] - 1), "levels run in order");
            }
        }
        assertTrue(descending > 10, "levels were split: " + descending);
        assertEquals(h.size(), jobs.stream().mapToInt(j -> j[1] - j[0]).sum(), "every slot once");
    }

    private static int levelOf(Hierarchy h, int slot) {
        int l = 0;
        while (h.levelEnd(l) <= slot) {
            l++;
        }
        return l;
    }

    /**
     * The state hash after three runs of a game that keeps to the rules: chunk jobs write
     * their rows, spawn, send events and add to a LongSum; a reader spawns from the events in
     * their order; a range system and a level system spawn per index and per slot;
     * {@code extra} adds a system.
     */
    private static long correctGame(boolean reverse, BiConsumer<Schedule.Builder, World> extra) {
        World world = world();
        Component<Pos> pos = world.component(Pos.class);
        Component<Mark> mark = world.component(Mark.class);
        Field x = pos.field("x");
        Relation childOf = world.relations().childOf();
        long root = world.spawn(new Mark(0));
        long branch = root;
        for (int i = 0; i < 200; i++) {
            long e = world.spawn(new Mark(i));
            world.relations().add(e, childOf, i < 10 ? root : branch);
            if (i == 0) {
                branch = e;
            }
        }
        Schedule.Builder b = Schedule.builder(world).resource(SUM, new LongSum())
                .system("move").query(world.query().with(pos).build()).writes(pos).spawns(mark).writesEvents(HIT)
                .reducesResource(SUM).forEachChunk(job -> {
                    float[] xs = job.chunk().writeFloats(x);
                    for (int i = 0; i < xs.length && i < job.chunk().size(); i++) {
                        xs[i] = xs[i] * 1.01f + 0.25f;
                        if (i % 17 == 0) {
                            long e = job.commands().spawn();
                            job.commands().add(e, mark, new Mark(job.chunkOrdinal() * 1000 + i));
                            job.send(HIT, job.chunk().entity(i));
                        }
                    }
                    job.add(SUM, job.chunk().size());
                })
                .system("tally").after("move").readsEvents(HIT).readsResource(SUM).spawns(mark)
                .forEachRange(() -> 1, (job, from, to) -> {
                    var hits = job.events(HIT);
                    for (int i = 0; i < hits.size(); i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, mark, new Mark((int) (hits.get(i) * 31 + i + job.resource(SUM).total())));
                    }
                })
                .system("ranged").spawns(mark).forEachRange(() -> 300, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, mark, new Mark(-i));
                    }
                })
                .system("levels").spawns(mark).forEachLevel(childOf, (job, h, from, to) -> {
                    for (int i = from; i < to; i++) {
                        job.commands().add(job.commands().spawn(), mark, new Mark(100_000 + i));
                    }
                });
        extra.accept(b, world);
        try (ScheduleExecutor executor = executor(b.build(), reverse)) {
            for (int t = 0; t < 3; t++) {
                executor.run();
            }
        }
        return world.stateHash();
    }

    @Test
    void shouldGiveACorrectGameTheSameStateInReverseOrder() {
        BiConsumer<Schedule.Builder, World> none = (b, w) -> {
        };
        long forward = correctGame(false, none);
        assertEquals(forward, correctGame(false, none), "the game is deterministic forward");
        assertEquals(forward, correctGame(true, none), "commands, events and sums merge by key, not by run order");
    }

    @Test
    void shouldChangeTheStateOfAGameThatFollowsTheOrderItsJobsRan() {
        BiConsumer<Schedule.Builder, World> ranks = (b, w) -> {
            List<Long> arrivals = Collections.synchronizedList(new ArrayList<>());
            Component<Pos> pos = w.component(Pos.class);
            Field x = pos.field("x");
            b.system("rank").after("move").query(w.query().with(pos).build()).writes(pos).forEachChunk(job -> {
                arrivals.add(job.chunk().entity(0)); // the list's order is the order the jobs ran in
                job.chunk().writeFloats(x)[0] += arrivals.size();
            });
        };
        assertEquals(correctGame(false, ranks), correctGame(false, ranks));
        assertNotEquals(correctGame(false, ranks), correctGame(true, ranks));
    }
}
