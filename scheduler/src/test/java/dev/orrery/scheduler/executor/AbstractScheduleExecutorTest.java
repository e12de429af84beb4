package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.EntityBuilder;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.UndeclaredAccessException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SyncPoint;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * One body of executor tests, run against every executor (JCTools {@code QueueSanityTest}
 * style): each subclass supplies the executor. The reference is always a plain one-by-one
 * run of the same systems, in the graph's linear order, through {@link Query#forEachChunk}.
 */
abstract class AbstractScheduleExecutorTest {
    /** An order-sensitive integer column; instances are named C0, C1, ... */
    record Val(int v) {
    }

    private static final Phase[] PHASES = {Phase.PRE_UPDATE, Phase.UPDATE, Phase.POST_UPDATE};

    /** The executor under test. */
    abstract ScheduleExecutor create(Schedule schedule);

    // ------------------------------------------------------------------ random worlds and systems

    /** A system declared by column indices, so it can be built over any world. */
    record Spec(String name, int[] reads, int[] writes, int phase, List<String> after, int salt, boolean exclusive) {
        List<Integer> touched() {
            List<Integer> all = new ArrayList<>();
            for (int r : reads) {
                all.add(r);
            }
            for (int w : writes) {
                if (!all.contains(w)) {
                    all.add(w);
                }
            }
            return all;
        }
    }

    static List<Component<Val>> columns(World w, int count) {
        List<Component<Val>> cs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            cs.add(w.component(Val.class, "C" + i));
        }
        return cs;
    }

    /** Small chunks (16 rows), so even a few hundred entities make many chunks and jobs. */
    static World world(long seed, int columnCount, int entities) {
        World w = new World(256);
        List<Component<Val>> cs = columns(w, columnCount);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int e = 0; e < entities; e++) {
            spawnRandom(w, cs, rnd);
        }
        return w;
    }

    static void spawnRandom(World w, List<Component<Val>> cs, SplittableRandom rnd) {
        EntityBuilder b = w.entity();
        for (Component<Val> c : cs) {
            if (rnd.nextInt(3) != 0) {
                b.with(c, new Val(rnd.nextInt(1000)));
            }
        }
        b.spawn();
    }

    static List<Spec> randomSpecs(long seed, int columnCount, int systems, boolean withExclusive) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<Spec> specs = new ArrayList<>();
        for (int s = 0; s < systems; s++) {
            String name = "s" + s;
            int phase = rnd.nextInt(PHASES.length);
            if (withExclusive && rnd.nextInt(8) == 0) {
                specs.add(new Spec(name, new int[0], new int[0], phase, List.of(), rnd.nextInt(), true));
                continue;
            }
            List<Integer> reads = new ArrayList<>();
            List<Integer> writes = new ArrayList<>();
            for (int c = 0; c < columnCount; c++) {
                int r = rnd.nextInt(6);
                if (r == 0) {
                    writes.add(c);
                } else if (r == 1) {
                    reads.add(c);
                }
            }
            if (writes.isEmpty()) {
                writes.add(rnd.nextInt(columnCount));
                reads.remove(writes.get(0));
            }
            List<String> after = new ArrayList<>();
            if (s > 0 && rnd.nextInt(4) == 0) {
                Spec earlier = specs.get(rnd.nextInt(s));
                if (earlier.phase() <= phase) {
                    after.add(earlier.name());
                }
            }
            specs.add(new Spec(name, reads.stream().mapToInt(i -> i).toArray(),
                    writes.stream().mapToInt(i -> i).toArray(), phase, after, rnd.nextInt(), false));
        }
        return specs;
    }

    /** The system body: reads feed every written column through a non-commutative step. */
    static void body(ChunkView v, Spec spec, List<Component<Val>> cs) {
        int n = v.size();
        int[][] reads = new int[spec.reads().length][];
        for (int k = 0; k < reads.length; k++) {
            reads[k] = v.readInts(cs.get(spec.reads()[k]).field(0));
        }
        int[][] writes = new int[spec.writes().length][];
        for (int k = 0; k < writes.length; k++) {
            writes[k] = v.writeInts(cs.get(spec.writes()[k]).field(0));
        }
        for (int i = 0; i < n; i++) {
            int s = spec.salt();
            for (int[] r : reads) {
                s = s * 7 + r[i];
            }
            for (int k = 0; k < writes.length; k++) {
                writes[k][i] = writes[k][i] * 31 + s + k;
                s ^= writes[k][i];
            }
        }
    }

    /** An exclusive system: spawns one entity whose columns depend on the spec's salt and the world's size. */
    static void exclusiveBody(World w, Spec spec, List<Component<Val>> cs) {
        spawnRandom(w, cs, new SplittableRandom(spec.salt() + w.entityCount()));
    }

    static Query queryOf(World w, Spec spec, List<Component<Val>> cs) {
        List<Component<?>> with = new ArrayList<>();
        for (int c : spec.touched()) {
            with.add(cs.get(c));
        }
        return w.query().with(with.toArray(new Component<?>[0])).build();
    }

    /** Per-system first start and last end, on one logical clock, to check edges after a run. */
    static final class Trace {
        final AtomicLong clock = new AtomicLong();
        final AtomicLongArray firstStart;
        final AtomicLongArray lastEnd;

        Trace(int systems) {
            firstStart = new AtomicLongArray(systems);
            lastEnd = new AtomicLongArray(systems);
            reset();
        }

        void reset() {
            for (int i = 0; i < firstStart.length(); i++) {
                firstStart.set(i, Long.MAX_VALUE);
                lastEnd.set(i, Long.MIN_VALUE);
            }
        }

        void start(int system) {
            firstStart.accumulateAndGet(system, clock.incrementAndGet(), Math::min);
        }

        void end(int system) {
            lastEnd.accumulateAndGet(system, clock.incrementAndGet(), Math::max);
        }

        void assertEdgesHeld(SystemGraph g) {
            for (SystemGraph.Edge e : g.edges()) {
                long end = lastEnd.get(e.from());
                long start = firstStart.get(e.to());
                if (end != Long.MIN_VALUE && start != Long.MAX_VALUE) {
                    assertTrue(end < start, () -> g.system(e.from()).name() + " (ended at " + end + ") and "
                            + g.system(e.to()).name() + " (started at " + start + ") overlapped or were reordered "
                            + "despite the edge on " + e.label());
                }
            }
        }
    }

    static Schedule schedule(World w, List<Spec> specs, int minBatchRows, Trace trace) {
        List<Component<Val>> cs = columns(w, maxColumn(specs) + 1);
        Schedule.Builder b = Schedule.builder(w).minBatchRows(minBatchRows);
        for (Spec spec : specs) {
            Schedule.SystemBuilder sb = b.system(spec.name()).inPhase(PHASES[spec.phase()])
                    .after(spec.after().toArray(new String[0]));
            if (spec.exclusive()) {
                sb.exclusive(world -> exclusiveBody(world, spec, cs));
            } else {
                for (int r : spec.reads()) {
                    sb.reads(cs.get(r));
                }
                for (int wr : spec.writes()) {
                    sb.writes(cs.get(wr));
                }
                sb.query(queryOf(w, spec, cs)).forEachChunk(job -> {
                    if (trace != null) {
                        trace.start(job.systemIndex());
                    }
                    body(job.chunk(), spec, cs);
                    if (trace != null) {
                        trace.end(job.systemIndex());
                    }
                });
            }
        }
        return b.build();
    }

    static int maxColumn(List<Spec> specs) {
        int max = 0;
        for (Spec s : specs) {
            for (int c : s.touched()) {
                max = Math.max(max, c);
            }
        }
        return max;
    }

    /** The reference: each system over the whole world, one by one in the graph's order. */
    static void runOneByOne(World w, List<Spec> specs, SystemGraph order) {
        List<Component<Val>> cs = columns(w, maxColumn(specs) + 1);
        for (int pos = 0; pos < order.size(); pos++) {
            Spec spec = specs.get(order.registrationIndex(pos));
            if (spec.exclusive()) {
                exclusiveBody(w, spec, cs);
            } else {
                queryOf(w, spec, cs).forEachChunk(v -> body(v, spec, cs));
            }
        }
    }

    // ------------------------------------------------------------------ tests

    @Test
    void shouldGiveTheOneByOneResultForRandomSchedules() {
        for (long seed = 1; seed <= 40; seed++) {
            int columns = 3 + (int) (seed % 4);
            List<Spec> specs = randomSpecs(seed, columns, 4 + (int) (seed % 12), seed % 3 == 0);
            World parallel = world(seed, columns, 300);
            World reference = world(seed, columns, 300);
            Trace trace = new Trace(specs.size());
            Schedule schedule = schedule(parallel, specs, 1 + (int) (seed % 40), trace);
            try (ScheduleExecutor executor = create(schedule)) {
                for (int tick = 0; tick < 3; tick++) {
                    trace.reset();
                    executor.run();
                    trace.assertEdgesHeld(SchedulerInternals.graph(schedule));
                    runOneByOne(reference, specs, SchedulerInternals.graph(schedule));
                    assertEquals(reference.stateHash(), parallel.stateHash(),
                            "seed " + seed + " tick " + tick + ", schedule:\n" + schedule);
                }
            }
        }
    }

    @Test
    void shouldNeverReorderAWriteThenReadPair() {
        // a chain: each system reads what the previous wrote; plus independent fillers beside it
        List<Spec> specs = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            specs.add(new Spec("chain" + i, new int[] {i}, new int[] {i + 1}, 1, List.of(), i, false));
            specs.add(new Spec("filler" + i, new int[0], new int[] {8 + i}, 1, List.of(), 100 + i, false));
        }
        World w = world(7, 14, 2000);
        World reference = world(7, 14, 2000);
        Trace trace = new Trace(specs.size());
        Schedule schedule = schedule(w, specs, 16, trace);
        try (ScheduleExecutor executor = create(schedule)) {
            for (int tick = 0; tick < 5; tick++) {
                trace.reset();
                executor.run();
                trace.assertEdgesHeld(SchedulerInternals.graph(schedule));
                runOneByOne(reference, specs, SchedulerInternals.graph(schedule));
                assertEquals(reference.stateHash(), w.stateHash());
            }
        }
        assertEquals(5, SchedulerInternals.graph(schedule).edges().size());
    }

    @Test
    void shouldNameTheSystemAndComponentOnUndeclaredAccess() {
        World w = new World(256);
        List<Component<Val>> cs = columns(w, 2);
        for (int i = 0; i < 100; i++) {
            w.entity().with(cs.get(0), new Val(i)).with(cs.get(1), new Val(i)).spawn();
        }
        Schedule schedule = Schedule.builder(w).minBatchRows(16)
                .system("sneaky").query(w.query().with(cs.get(0), cs.get(1)).build()).reads(cs.get(0))
                .forEachChunk(job -> job.chunk().writeInts(cs.get(0).field(0)))
                .system("nosy").query(w.query().with(cs.get(0), cs.get(1)).build()).writes(cs.get(0))
                .forEachChunk(job -> job.chunk().readInts(cs.get(1).field(0)))
                .build();
        try (ScheduleExecutor executor = create(schedule)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("sneaky", e.system());
            UndeclaredAccessException cause = assertInstanceOf(UndeclaredAccessException.class, e.getCause());
            assertEquals("system 'sneaky' wrote component Val:C0 but declared no write of it; add .writes(Val:C0) to "
                    + "the system's declaration", cause.getMessage());
            assertTrue(e.getMessage().contains("system 'sneaky' failed on its chunk #"), e.getMessage());
            assertFalse(w.isStructureLocked());
        }
        Schedule second = Schedule.builder(w)
                .system("nosy").query(w.query().with(cs.get(0), cs.get(1)).build()).writes(cs.get(0))
                .forEachChunk(job -> job.chunk().readInts(cs.get(1).field(0)))
                .build();
        try (ScheduleExecutor executor = create(second)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertTrue(e.getCause().getMessage().startsWith("system 'nosy' read component Val:C1 but declared "
                    + "neither a read nor a write of it"), e.getCause().getMessage());
        }
    }

    @Test
    void shouldStopTheRunAndReportTheSystemAndChunkWhenASystemThrows() {
        World w = world(3, 2, 1000);
        List<Component<Val>> cs = columns(w, 2);
        AtomicBoolean broken = new AtomicBoolean(true);
        AtomicLong laterRuns = new AtomicLong();
        Schedule schedule = Schedule.builder(w).minBatchRows(16)
                .system("explode").query(w.query().with(cs.get(0)).build()).writes(cs.get(0))
                .forEachChunk(job -> {
                    if (broken.get() && job.chunkOrdinal() == 3) {
                        throw new ArithmeticException("boom in chunk 3");
                    }
                })
                .system("after").query(w.query().with(cs.get(0)).build()).reads(cs.get(0))
                .forEachChunk(job -> laterRuns.incrementAndGet())
                .build();
        List<String> failures = new ArrayList<>();
        SyncPoint sync = new SyncPoint() {
            @Override
            public void afterFailure(SystemFailedException failure, World world) {
                failures.add(failure.system());
            }
        };
        try (ScheduleExecutor executor = create(schedule)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, () -> executor.run(sync));
            assertEquals("explode", e.system());
            assertEquals(3, e.chunkOrdinal());
            assertInstanceOf(ArithmeticException.class, e.getCause());
            assertTrue(e.getMessage().startsWith("system 'explode' failed on its chunk #3 (chunk "), e.getMessage());
            assertTrue(e.getMessage().contains("boom in chunk 3"), e.getMessage());
            assertEquals(0, laterRuns.get(), "a system waiting for the failed one must not start");
            assertEquals(List.of("explode"), failures);
            assertFalse(w.isStructureLocked(), "the structure lock is released after a failure");
            w.spawn(); // and the world takes structural changes again

            broken.set(false);
            executor.run(); // the executor is usable after a failure
            assertTrue(laterRuns.get() > 0);
        }
    }

    @Test
    void shouldRejectAStructuralChangeInsideAJob() {
        World w = world(4, 2, 200);
        List<Component<Val>> cs = columns(w, 2);
        long before = w.stateHash();
        Schedule schedule = Schedule.builder(w).minBatchRows(16)
                .system("spawner").query(w.query().with(cs.get(0)).build()).reads(cs.get(0))
                .forEachChunk(job -> w.spawn())
                .build();
        try (ScheduleExecutor executor = create(schedule)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("spawner", e.system());
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(e.getCause().getMessage().startsWith("structural change (spawn) attempted during the "
                    + "scheduled"), e.getCause().getMessage());
        }
        assertEquals(before, w.stateHash(), "the world is unchanged");
    }

    @Test
    void shouldRunExclusiveSystemsAloneWithStructuralChangesAllowed() {
        World w = world(5, 2, 300);
        World reference = world(5, 2, 300);
        List<Spec> specs = List.of(
                new Spec("a", new int[0], new int[] {0}, 1, List.of(), 1, false),
                new Spec("spawn", new int[0], new int[0], 1, List.of(), 2, true),
                new Spec("b", new int[] {0}, new int[] {1}, 1, List.of(), 3, false));
        Trace trace = new Trace(3);
        Schedule schedule = schedule(w, specs, 16, trace);
        int entities = w.entityCount();
        try (ScheduleExecutor executor = create(schedule)) {
            for (int tick = 0; tick < 4; tick++) {
                trace.reset();
                executor.run();
                trace.assertEdgesHeld(SchedulerInternals.graph(schedule));
                runOneByOne(reference, specs, SchedulerInternals.graph(schedule));
                assertEquals(reference.stateHash(), w.stateHash());
            }
        }
        assertEquals(entities + 4, w.entityCount());
    }

    @Test
    void shouldCallSyncPointsOnTheCallingThreadAfterEachPhase() {
        World w = world(6, 1, 100);
        List<Component<Val>> cs = columns(w, 1);
        List<String> events = new ArrayList<>();
        Thread caller = Thread.currentThread();
        AtomicLong seen = new AtomicLong();
        Schedule schedule = Schedule.builder(w).minBatchRows(16)
                .system("pre").inPhase(Phase.PRE_UPDATE).query(w.query().with(cs.get(0)).build()).writes(cs.get(0))
                .forEachChunk(job -> seen.addAndGet(job.chunk().size()))
                .system("post").inPhase(Phase.POST_UPDATE).query(w.query().with(cs.get(0)).build()).reads(cs.get(0))
                .forEachChunk(job -> seen.addAndGet(job.chunk().size()))
                .build();
        SyncPoint sync = new SyncPoint() {
            @Override
            public void afterPhase(Phase phase, World world) {
                assertSame(caller, Thread.currentThread());
                assertFalse(world.isStructureLocked());
                events.add(phase.name() + ":" + seen.get());
                world.spawn(); // deferred structural work may be applied here
            }

            @Override
            public void afterRun(World world) {
                assertSame(caller, Thread.currentThread());
                events.add("end");
            }
        };
        int n = w.query().with(cs.get(0)).build().count();
        try (ScheduleExecutor executor = create(schedule)) {
            executor.run(sync);
        }
        assertEquals(List.of("PreUpdate:" + n, "Update:" + n, "PostUpdate:" + 2 * n, "end"), events);
    }

    @Test
    void shouldRejectARunStartedDuringARun() {
        World w = world(8, 1, 10);
        Schedule schedule = Schedule.builder(w).build();
        try (ScheduleExecutor executor = create(schedule)) {
            SyncPoint reentrant = new SyncPoint() {
                @Override
                public void afterRun(World world) {
                    executor.run();
                }
            };
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> executor.run(reentrant));
            assertTrue(e.getMessage().startsWith("run() called while a run is in progress"), e.getMessage());
            executor.run();
        }
    }

    @Test
    void shouldHandEachJobTheContextOfItsWorkerAndSystem() {
        World w = world(9, 1, 1000);
        List<Component<Val>> cs = columns(w, 1);
        AtomicLongArray chunksSeen = new AtomicLongArray(1000);
        AtomicBoolean badContext = new AtomicBoolean();
        Schedule schedule = Schedule.builder(w).minBatchRows(16)
                .system("first").query(w.query().with(cs.get(0)).build()).reads(cs.get(0))
                .forEachChunk(job -> {
                })
                .system("count").query(w.query().with(cs.get(0)).build()).reads(cs.get(0))
                .forEachChunk(job -> {
                    chunksSeen.incrementAndGet(job.chunkOrdinal());
                    if (!job.systemName().equals("count") || job.systemIndex() != 1 || job.workerId() < 0) {
                        badContext.set(true);
                    }
                })
                .build();
        int chunks;
        try (ScheduleExecutor executor = create(schedule)) {
            executor.run();
            chunks = 0;
            for (var a : EcsInternals.archetypes(w.query().with(cs.get(0)).build())) {
                chunks += a.chunkCount();
            }
        }
        assertFalse(badContext.get());
        for (int i = 0; i < 1000; i++) {
            assertEquals(i < chunks ? 1 : 0, chunksSeen.get(i), "chunk #" + i + " visits");
        }
    }

    @Test
    void shouldAllocateNothingPerRunOnTheCallingThreadInTheSteadyState() {
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean,
                "needs com.sun.management.ThreadMXBean to count allocated bytes");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        World w = world(10, 3, 3000);
        List<Component<Val>> cs = columns(w, 3);
        Schedule.Builder b = Schedule.builder(w).minBatchRows(16);
        for (int s = 0; s < 12; s++) {
            Component<Val> col = cs.get(s % 3);
            b.system("inc" + s).inPhase(PHASES[s % 3]).query(w.query().with(col).build()).writes(col)
                    .forEachChunk(job -> {
                        int[] v = job.chunk().writeInts(col.field(0));
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            v[i]++;
                        }
                    });
        }
        // resources: a writer resets a LongSum, jobs add to it, a reader reads the total
        dev.orrery.scheduler.ResourceKey<dev.orrery.scheduler.LongSum> sum =
                dev.orrery.scheduler.ResourceKey.of("rows", dev.orrery.scheduler.LongSum.class);
        long[] total = new long[1];
        b.resource(sum, new dev.orrery.scheduler.LongSum());
        b.system("reset").inPhase(PHASES[0]).writesResource(sum)
                .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(sum).reset());
        b.system("sum").inPhase(PHASES[1]).query(w.query().with(cs.get(0)).build()).reads(cs.get(0))
                .reducesResource(sum).forEachChunk(job -> job.add(sum, job.chunk().size()));
        b.system("total").inPhase(PHASES[2]).readsResource(sum)
                .forEachRange(() -> 1, (job, from, to) -> total[0] = job.resource(sum).total());
        try (ScheduleExecutor executor = create(b.build())) {
            for (int i = 0; i < 200; i++) {
                executor.run();
            }
            assertEquals(w.query().with(cs.get(0)).build().count(), total[0], "the reader saw the reduced total");
            // A real per-run allocation (16 bytes or more) shows in every window of 100 runs; the
            // JIT still settling (deoptimisation, late tier-ups on a busy machine) shows in a few
            // only, and not at all under -Xint. So the quietest of ten windows must be clean.
            long id = Thread.currentThread().getId();
            long probe = threads.getThreadAllocatedBytes(id);
            long baseline = threads.getThreadAllocatedBytes(id) - probe;
            long quietest = Long.MAX_VALUE;
            for (int window = 0; window < 10 && quietest > 0; window++) {
                long before = threads.getThreadAllocatedBytes(id);
                for (int i = 0; i < 100; i++) {
                    executor.run();
                }
                quietest = Math.min(quietest, threads.getThreadAllocatedBytes(id) - before - baseline);
            }
            assertTrue(quietest < 100, "the quietest 100 runs allocated " + quietest + " bytes on the calling thread");
        }
    }

    @Test
    void shouldRejectARunStartedFromAJob() {
        World w = world(11, 1, 500);
        List<Component<Val>> cs = columns(w, 1);
        ScheduleExecutor[] self = new ScheduleExecutor[1];
        Schedule schedule = Schedule.builder(w).minBatchRows(16)
                .system("recursive").query(w.query().with(cs.get(0)).build()).reads(cs.get(0))
                .forEachChunk(job -> self[0].run())
                .build();
        try (ScheduleExecutor executor = create(schedule)) {
            self[0] = executor;
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("recursive", e.system());
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(e.getCause().getMessage().startsWith("run() called while a run is in progress"),
                    e.getCause().getMessage());
        }
    }

    // ------------------------------------------------------------------ range systems

    @Test
    void shouldRunEveryIndexOfARangeSystemExactlyOnceForTheCountOfEachRun() {
        World w = world(12, 1, 10);
        AtomicInteger count = new AtomicInteger();
        AtomicIntegerArray hits = new AtomicIntegerArray(5000);
        AtomicReference<Thread> counter = new AtomicReference<>();
        AtomicBoolean sawChunk = new AtomicBoolean();
        Schedule schedule = Schedule.builder(w)
                .system("cover").minBatchRows(7).forEachRange(() -> {
                    counter.set(Thread.currentThread());
                    return count.get();
                }, (job, from, to) -> {
                    sawChunk.compareAndSet(false, job.chunk() != null);
                    for (int i = from; i < to; i++) {
                        hits.incrementAndGet(i);
                    }
                })
                .build();
        try (ScheduleExecutor executor = create(schedule)) {
            for (int n : new int[] {0, 1, 6, 7, 15, 1000, 4097, 3}) {
                count.set(n);
                for (int i = 0; i < hits.length(); i++) {
                    hits.set(i, 0);
                }
                executor.run();
                for (int i = 0; i < hits.length(); i++) {
                    assertEquals(i < n ? 1 : 0, hits.get(i), "index " + i + " of count " + n);
                }
                assertSame(Thread.currentThread(), counter.get(), "the count is asked on the calling thread");
            }
        }
        assertFalse(sawChunk.get(), "a range body has no chunk");
    }

    @Test
    void shouldOrderRangeSystemsByTheResourcesTheyDeclare() {
        World w = world(13, 1, 10);
        ResourceKey<int[]> table = ResourceKey.of("Table", int[].class);
        int[] data = new int[3000];
        int[] copy = new int[3000];
        long[] sums = new long[1];
        AtomicInteger round = new AtomicInteger();
        Schedule schedule = Schedule.builder(w)
                .system("fill").writesResource(table).minBatchRows(50).forEachRange(() -> data.length,
                        (job, from, to) -> {
                            for (int i = from; i < to; i++) {
                                data[i] = round.get() * 10_000 + i;
                            }
                        })
                .system("copy").readsResource(table).minBatchRows(50).forEachRange(() -> data.length,
                        (job, from, to) -> System.arraycopy(data, from, copy, from, to - from))
                .system("sum").inPhase(Phase.POST_UPDATE).exclusive(world -> {
                    long s = 0;
                    for (int v : copy) {
                        s += v;
                    }
                    sums[0] = s;
                })
                .build();
        try (ScheduleExecutor executor = create(schedule)) {
            for (int r = 1; r <= 20; r++) {
                round.set(r);
                executor.run();
                long expected = (long) r * 10_000 * data.length + (long) data.length * (data.length - 1) / 2;
                assertEquals(expected, sums[0], "copy saw a half-filled table in round " + r);
            }
        }
    }

    @Test
    void shouldApplyARangeSystemsCommandsInIndexOrder() {
        World w = new World(256);
        Component<Val> c = w.component(Val.class, "C0");
        World reference = new World(256);
        Component<Val> rc = reference.component(Val.class, "C0");
        int n = 2000;
        Schedule schedule = Schedule.builder(w)
                .system("spawn").minBatchRows(16).spawns(c).forEachRange(() -> n, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, c, new Val(i * 31));
                    }
                })
                .build();
        try (ScheduleExecutor executor = create(schedule)) {
            for (int tick = 0; tick < 3; tick++) {
                executor.run();
                for (int i = 0; i < n; i++) {
                    reference.entity().with(rc, new Val(i * 31)).spawn();
                }
                assertEquals(reference.stateHash(), w.stateHash(), "tick " + tick);
            }
        }
    }

    @Test
    void shouldReportTheIndicesOfAFailedRangeJobAndAFailedCount() {
        World w = world(14, 1, 10);
        AtomicInteger count = new AtomicInteger(1000);
        AtomicLong laterRuns = new AtomicLong();
        ResourceKey<Object> shared = ResourceKey.of("Shared", Object.class);
        Schedule schedule = Schedule.builder(w)
                .system("explode").writesResource(shared).minBatchRows(10).forEachRange(count::get,
                        (job, from, to) -> {
                            if (from <= 500 && 500 < to) {
                                throw new ArithmeticException("boom at 500");
                            }
                        })
                .system("after").readsResource(shared).exclusive(world -> laterRuns.incrementAndGet())
                .build();
        try (ScheduleExecutor executor = create(schedule)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("explode", e.system());
            assertEquals(-1, e.chunkOrdinal());
            assertInstanceOf(ArithmeticException.class, e.getCause());
            assertTrue(e.getMessage().startsWith("system 'explode' failed on its indices ["), e.getMessage());
            assertEquals(0, laterRuns.get(), "a system waiting for the failed one must not start");

            count.set(-3);
            e = assertThrows(SystemFailedException.class, executor::run);
            assertTrue(e.getMessage().startsWith("system 'explode' failed counting its indices"), e.getMessage());
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertEquals("range system 'explode' counted -3 indices; its count must be 0 or more",
                    e.getCause().getMessage());
            assertEquals(0, laterRuns.get());
            assertFalse(w.isStructureLocked());

            count.set(400); // no range holds index 500 now
            executor.run();
            assertEquals(1, laterRuns.get(), "the executor is usable after a failure");
        }
    }
    // ------------------------------------------------------------------ failures at sync points

    /** A schedule whose "spawner" spawns {@code n} C0 entities, observed by a hook that throws once {@code armed}. */
    private static Schedule spawnerWithThrowingHook(World w, Component<Val> c0, AtomicBoolean armed, int n,
            boolean readerAfter) {
        w.observe(c0).onAdd((world, e, commands) -> {
            if (armed.get()) {
                throw new IllegalStateException("hook refuses entity " + dev.orrery.ecs.component.Entity.toString(e));
            }
        });
        Schedule.Builder b = Schedule.builder(w).minBatchRows(16)
                .system("spawner").spawns(c0).forEachRange(() -> n, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        job.commands().add(job.commands().spawn(), c0, new Val(i));
                    }
                });
        if (readerAfter) { // reads what spawner spawns: an automatic sync point before it
            b.system("reader").query(w.query().with(c0).build()).reads(c0).forEachChunk(job -> { });
        }
        return b.build();
    }

    @Test
    void shouldFailTheRunNamingTheSyncPointWhenAnObserverHookThrowsThere() {
        World w = new World(256);
        Component<Val> c0 = w.component(Val.class, "C0");
        AtomicBoolean armed = new AtomicBoolean(true);
        Schedule schedule = spawnerWithThrowingHook(w, c0, armed, 40, false);
        try (ScheduleExecutor executor = create(schedule)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("sync point ending phase " + Phase.UPDATE, e.system());
            assertEquals(-1, e.chunkOrdinal());
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(e.getMessage().contains("the failing sync point had applied its 80 commands before it failed"),
                    e.getMessage());
            assertEquals(40, w.entityCount(), "the sync point's spawns were applied before its hooks fired");
            assertFalse(w.isStructureLocked());
            armed.set(false);
            executor.run(); // usable after a failed sync point
            assertEquals(80, w.entityCount());
        }
    }

    @Test
    void shouldFailTheRunNamingAnAutomaticSyncPointInsideAPhase() {
        World w = new World(256);
        Component<Val> c0 = w.component(Val.class, "C0");
        AtomicBoolean armed = new AtomicBoolean(true);
        Schedule schedule = spawnerWithThrowingHook(w, c0, armed, 40, true);
        try (ScheduleExecutor executor = create(schedule)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("sync point before system 'reader'", e.system());
            assertTrue(e.getMessage().startsWith("the sync point before system 'reader' failed"), e.getMessage());
            assertEquals(40, w.entityCount());
            armed.set(false);
            executor.run();
            assertEquals(80, w.entityCount());
        }
    }

    @Test
    void shouldSayWhatAFailedRunAppliedAtItsSyncPoints() {
        World w = new World(256);
        Component<Val> c0 = w.component(Val.class, "C0");
        Component<Val> c1 = w.component(Val.class, "C1");
        for (int i = 0; i < 50; i++) {
            w.spawn(); // entities the failing system's despawns aim at
        }
        Schedule schedule = Schedule.builder(w).minBatchRows(16)
                .system("spawner").spawns(c0).forEachRange(() -> 30, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        job.commands().add(job.commands().spawn(), c0, new Val(i));
                    }
                })
                .system("reader").query(w.query().with(c0).build()).reads(c0).spawns(c1).forEachChunk(job -> {
                    job.commands().add(job.commands().spawn(), c1, new Val(1)); // pending when "breaker" fails
                })
                .system("breaker").after("reader").query(w.query().with(c0).build()).writes(c0).forEachChunk(job -> {
                    throw new ArithmeticException("boom");
                })
                .build();
        try (ScheduleExecutor executor = create(schedule)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("breaker", e.system());
            String m = e.getMessage();
            assertFalse(m.contains("structure is unchanged"), m);
            assertTrue(m.contains("60 commands applied at 1 earlier sync point of this run stay, 60 of them inside phase "
                    + Phase.UPDATE + " (the last before system 'reader')"), m);
            assertTrue(m.contains("this run's sync points spawned 30 entities"), m);
            assertTrue(m.matches(".*the [0-9]+ commands? still pending in phase " + Phase.UPDATE + " (was|were) "
                    + "discarded.*"), m);
            assertEquals(80, w.entityCount(), "the sync point's spawns stay; reader's pending spawns were discarded");
        }
    }
}
