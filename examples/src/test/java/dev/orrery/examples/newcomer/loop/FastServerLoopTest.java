package dev.orrery.examples.newcomer.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ChromeTrace;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.RandomCursor;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newcomer's fast real-time server loop, written from README.md, docs/game-loop.md,
 * docs/the-simulation.md and docs/performance-and-tuning.md only: the particle loop run at a
 * fixed rate, stopped from another thread and closed, then every knob and figure the
 * performance chapter names checked against what the API reports.
 */
class FastServerLoopTest {
    record Position(float x, float y, float z) {}
    record Velocity(float x, float y, float z) {}
    record Health(float hp) {}

    static final ResourceKey<LongSum> DEATHS = ResourceKey.of("deaths", LongSum.class);
    static final ResourceKey<LongSum> LIVING = ResourceKey.of("living", LongSum.class);
    static final int SPAWN = CounterRandom.stream("spawn");
    static final float LIFETIME = 100;

    /** The game loop chapter's particle loop on {@code world}; {@code tune} may set batch knobs on the schedule. */
    static Simulation build(World world, int workers, int particles, Consumer<Schedule.Builder> tune) {
        return build(world, workers, particles, tune, Phase.POST_UPDATE);
    }

    /** As above, with {@code count} in {@code countPhase} (the chapter puts it in PostUpdate). */
    static Simulation build(World world, int workers, int particles, Consumer<Schedule.Builder> tune, Phase countPhase) {
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        Field px = pos.field("x"), py = pos.field("y"), pz = pos.field("z");
        Field vx = vel.field("x"), vy = vel.field("y"), vz = vel.field("z");
        Field hp = health.field("hp");
        Shape particle = world.shape(pos, vel, health);
        for (int i = 0; i < particles; i++) {
            particle.spawn(new Position(i, 0, 0), new Velocity(1, 0.5f, 0), new Health(1 + i % 100));
        }
        Query all = world.query().with(pos, vel, health).build();
        return Simulation.builder(world).workers(workers).seed(2024).stepSeconds(1 / 60.0)
                .resource(DEATHS, new LongSum())
                .resource(LIVING, new LongSum())
                .systems(s -> {
                    tune.accept(s);
                    s.system("move").query(all).reads(vel).writes(pos).readsResource(Simulation.CLOCK)
                            .forEachChunk(job -> {
                                float dt = job.resource(Simulation.CLOCK).dt();
                                ChunkView c = job.chunk();
                                float[] x = c.writeFloats(px), y = c.writeFloats(py), z = c.writeFloats(pz);
                                float[] dx = c.readFloats(vx), dy = c.readFloats(vy), dz = c.readFloats(vz);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    x[i] += dx[i] * dt;
                                    y[i] += dy[i] * dt;
                                    z[i] += dz[i] * dt;
                                }
                            });
                    s.system("damage").query(all).writes(health).forEachChunk(job -> {
                        float[] h = job.chunk().writeFloats(hp);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) h[i] -= 1;
                    });
                    s.system("reap").query(all).reads(health).despawns().reducesResource(DEATHS)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] h = c.readFloats(hp);
                                long[] ids = c.entities();
                                CommandBuffer commands = job.commands();
                                int died = 0;
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (h[i] <= 0) {
                                        commands.despawn(ids[i]);
                                        died++;
                                    }
                                }
                                job.add(DEATHS, died);
                            });
                    s.system("respawn").spawns(pos, vel, health)
                            .readsResource(DEATHS, Simulation.RANDOM, Simulation.CLOCK)
                            .forEachRange(() -> (int) s.resources().get(DEATHS).total(), (job, from, to) -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                RandomCursor rng = job.resource(Simulation.RANDOM).cursor();
                                CommandBuffer commands = job.commands();
                                for (int k = from; k < to; k++) {
                                    rng.reset(tick, k, SPAWN);
                                    long e = commands.spawn(particle);
                                    commands.setFloat(e, px, rng.nextFloat() * 100);
                                    commands.setFloat(e, vx, rng.nextFloat() - 0.5f);
                                    commands.setFloat(e, vy, rng.nextFloat() - 0.5f);
                                    commands.setFloat(e, hp, LIFETIME);
                                }
                            });
                    s.system("count").inPhase(countPhase).query(all).reducesResource(LIVING)
                            .forEachChunk(job -> job.add(LIVING, job.chunk().size()));
                    s.system("new tick").inPhase(Phase.PRE_UPDATE).writesResource(DEATHS, LIVING)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                job.resourceForWrite(DEATHS).reset();
                                job.resourceForWrite(LIVING).reset();
                            });
                })
                .build();
    }

    static Simulation build(int workers, int particles) {
        return build(new World(), workers, particles, s -> {});
    }

    static Map<String, BatchDecision> byName(List<BatchDecision> decisions) {
        return decisions.stream().collect(Collectors.toMap(BatchDecision::system, d -> d));
    }

    // ---- the loop: a fixed rate, a stop from another thread, close ----

    @Test
    void runsPacedTicksReportsEachAndCountsThemFromZero() {
        try (Simulation sim = build(2, 2_000)) {
            List<Long> ticks = new ArrayList<>();
            List<Long> nanos = new ArrayList<>();
            sim.run(20, 600.0, (tick, wall) -> {
                ticks.add(tick);
                nanos.add(wall);
            });
            assertEquals(20, ticks.size());
            assertEquals(0L, ticks.get(0));
            assertEquals(19L, ticks.get(19));
            assertTrue(nanos.stream().allMatch(n -> n > 0), "each tick's wall time: " + nanos);
            assertEquals(20, sim.currentTick());
            long ran = sim.tick();                                   // one more: tick 20
            assertEquals(20, ran);
            assertEquals(21, sim.currentTick());
            assertEquals(2_000, sim.resources().get(LIVING).total(), "one died, one respawned, every tick");
            assertEquals(20, sim.clock().tick());
            assertEquals(1 / 60.0, sim.clock().stepSeconds());
        }
    }

    @Test
    void aStopFromAnotherThreadEndsAnEndlessRunAndCloseAfterwardsRefusesTicks() throws Exception {
        Simulation sim = build(2, 2_000);
        Thread loop = new Thread(() -> sim.run(0, 1000.0), "server loop");
        loop.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (sim.progress().nextTick() < 5 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        sim.stop();
        loop.join(TimeUnit.SECONDS.toMillis(60));
        assertTrue(!loop.isAlive(), "run(0, hz) returns after stop()");
        long stoppedAt = sim.progress().nextTick();
        assertTrue(stoppedAt >= 5, "ran until stopped: " + stoppedAt);
        sim.close();                                                 // the loop thread has ended: no bind needed
        IllegalStateException closed = assertThrows(IllegalStateException.class, sim::tick);
        assertTrue(closed.getMessage().contains("simulation is closed; build a new one with Simulation.builder(world)"),
                closed.getMessage());
    }

    @Test
    void aStopBeforeTheRunMakesItReturnAtOnceAndEndsOnlyThatRun() {
        try (Simulation sim = build(1, 100)) {
            sim.stop();
            sim.run(0, 60.0);                                        // returns at once
            assertEquals(0, sim.currentTick());
            sim.run(3, 0);                                           // one stop ends one run
            assertEquals(3, sim.currentTick());
        }
    }

    @Test
    void aStopFromTheTickListenerEndsTheRunAfterThatTick() {
        try (Simulation sim = build(2, 100)) {
            sim.run(0, 0, (tick, wall) -> {
                if (tick == 4) sim.stop();
            });
            assertEquals(5, sim.currentTick());
        }
    }

    @Test
    void hashEveryNHashesEveryNthTickAndZeroNever() {
        World world = new World();
        Component<Health> health = world.component(Health.class);
        world.spawn(new Health(3));
        Field hp = health.field("hp");
        Query all = world.query().with(health).build();
        List<Long> hashed = new ArrayList<>();
        try (Simulation sim = Simulation.builder(world).hashEvery(3)
                .systems(s -> s.system("damage").query(all).writes(health).forEachChunk(job -> {
                    float[] h = job.chunk().writeFloats(hp);
                    for (int i = 0; i < job.chunk().size(); i++) h[i] -= 1;
                })).build()) {
            for (int i = 0; i < 9; i++) {
                long tick = sim.tick();
                if (sim.progress().hashed() && sim.progress().hashedTick() == tick) {
                    hashed.add(tick);
                    assertEquals(world.stateHash(), sim.lastHash(), "the hash of tick " + tick);
                }
            }
        }
        assertEquals(3, hashed.size(), hashed.toString());
        assertEquals(3, hashed.get(1) - hashed.get(0));
        try (Simulation never = Simulation.builder(new World()).hashEvery(0).build()) {
            never.run(5, 0);
            assertTrue(!never.progress().hashed(), never.progress().toString());
            assertEquals(0, never.lastHash());
        }
    }

    @Test
    void aRateThatIsNotOneIsRefusedNamingIt() {
        try (Simulation sim = build(1, 10)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sim.run(1, -60));
            assertTrue(e.getMessage().contains("-60"), e.getMessage());
        }
    }

    // ---- the figures: batching decisions per system ----

    @Test
    void batchingNamesEverySystemInGraphOrderAndFusesTheChunkPipeline() {
        try (Simulation sim = build(2, 20_000)) {
            assertEquals(List.of("new tick", "move", "damage", "reap", "respawn", "count"), sim.schedule().systemNames());
            sim.run(30, 0);
            List<BatchDecision> decisions = sim.batching();
            assertEquals(sim.schedule().systemNames(),
                    decisions.stream().map(BatchDecision::system).collect(Collectors.toList()));
            Map<String, BatchDecision> d = byName(decisions);
            assertEquals(BatchDecision.Mode.FUSED, d.get("damage").mode());
            assertEquals(BatchDecision.Mode.FUSED, d.get("reap").mode());
            assertEquals(BatchDecision.Mode.ADAPTIVE, d.get("move").mode());
            assertTrue(d.get("move").nanosPerRow() > 0, d.get("move").toString());
            assertEquals(20_000, d.get("move").lastRows());
            assertEquals(200, d.get("respawn").lastRows(), "the deaths of the last tick");
            String text = BatchDecision.toText(decisions);
            assertTrue(text.contains("damage: fused, runs in the jobs of the pipeline before it; last run 20000 rows in "), text);
            assertTrue(text.lines().filter(l -> l.startsWith("move: adaptive, ")).anyMatch(l -> l.contains(" ns/row, >= ")), text);
        }
    }

    @Test
    void theScheduleTextShowsTheChaptersPhasesAndAnAutoSyncPointHadCountBeenInUpdate() {
        try (Simulation sim = build(1, 10)) {
            String text = sim.schedule().toString();
            assertTrue(text.contains("phase PostUpdate (sync point at end)\n  5. count: reads [] writes [] reduces [living]"),
                    text);
            assertTrue(!text.contains("auto sync point"), text);
            assertEquals(List.of(), sim.batching(), "one worker, the default: every job on the tick thread");
        }
        try (Simulation sim = build(new World(), 1, 10, s -> {}, Phase.UPDATE)) {
            String text = sim.schedule().toString();
            int sync = text.indexOf("-- auto sync point");
            assertTrue(sync > text.indexOf("respawn") && sync < text.indexOf("count:"), text);
        }
    }

    @Test
    void minBatchRowsOnASystemOrTheScheduleIsExplicitAndTheDefaultValueStaysAdaptive() {
        try (Simulation sim = build(new World(), 2, 5_000, s -> s.minBatchRows(256))) {
            sim.run(10, 0);
            Map<String, BatchDecision> d = byName(sim.batching());
            assertEquals(BatchDecision.Mode.EXPLICIT, d.get("move").mode(), d.get("move").toString());
            assertEquals(256, d.get("move").minRows());
            assertEquals(BatchDecision.Mode.EXPLICIT, d.get("count").mode());
            assertTrue(d.get("move").lastJobs() > 1, "5000 rows in jobs of at least 256: " + d.get("move"));
        }
        try (Simulation sim = build(new World(), 2, 5_000, s -> s.minBatchRows(Schedule.DEFAULT_MIN_BATCH_ROWS))) {
            sim.run(10, 0);
            assertNotEquals(BatchDecision.Mode.EXPLICIT, byName(sim.batching()).get("move").mode());
        }
    }

    @Test
    void chunkPipelinesOffHandsEachSystemOutAlone() {
        String old = System.getProperty("orrery.chunkPipelines");
        System.setProperty("orrery.chunkPipelines", "maybe");
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> build(2, 10).close());
            assertTrue(e.getMessage().contains("orrery.chunkPipelines") && e.getMessage().contains("maybe"), e.getMessage());
        } finally {
            restore("orrery.chunkPipelines", old);
        }
        System.setProperty("orrery.chunkPipelines", "false");
        try (Simulation sim = build(2, 5_000)) {
            sim.run(5, 0);
            assertTrue(sim.batching().stream().noneMatch(b -> b.mode() == BatchDecision.Mode.FUSED),
                    BatchDecision.toText(sim.batching()));
        } finally {
            restore("orrery.chunkPipelines", old);
        }
    }

    @Test
    void targetJobNanosIsReadWhenTheExecutorIsBuiltAndABadValueNamesTheProperty() {
        String old = System.getProperty("orrery.batch.targetJobNanos");
        try {
            System.setProperty("orrery.batch.targetJobNanos", "0");
            try (Simulation sim = build(2, 20_000)) {
                sim.run(40, 0);
                BatchDecision move = byName(sim.batching()).get("move");
                assertEquals(BatchDecision.Mode.ADAPTIVE, move.mode());
                assertEquals(1, move.minRows(), "0 splits as far as allowed: " + move);
            }
            System.setProperty("orrery.batch.targetJobNanos", String.valueOf(Long.MAX_VALUE));
            try (Simulation sim = build(2, 20_000)) {
                sim.run(40, 0);
                assertTrue(sim.batching().stream().filter(b -> b.mode() == BatchDecision.Mode.ADAPTIVE)
                        .allMatch(b -> b.lastJobs() == 1), "a huge target keeps every system inline: "
                        + BatchDecision.toText(sim.batching()));
            }
            System.setProperty("orrery.batch.targetJobNanos", "abc");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> build(2, 10).close());
            assertTrue(e.getMessage().contains("orrery.batch.targetJobNanos"), e.getMessage());
            assertTrue(e.getMessage().contains("abc"), e.getMessage());
            assertTrue(e.getMessage().contains("10000"), "names the default: " + e.getMessage());
        } finally {
            restore("orrery.batch.targetJobNanos", old);
        }
    }

    static void restore(String key, String old) {
        if (old == null) System.clearProperty(key);
        else System.setProperty(key, old);
    }

    // ---- the chunk size ----

    @Test
    void aSmallerChunkBudgetGivesMoreSmallerChunks() {
        int[] big = chunkSizes(new World(), 50_000);
        int[] small = chunkSizes(new World(64 * 1024), 50_000);
        assertTrue(small[0] > big[0], "more chunks: " + small[0] + " vs " + big[0]);
        assertTrue(small[1] < big[1], "fewer rows in the largest: " + small[1] + " vs " + big[1]);
        assertThrows(IllegalArgumentException.class, () -> new World(255));
    }

    /** {chunks, rows in the largest} of the particles after a few ticks. */
    static int[] chunkSizes(World world, int particles) {
        try (Simulation sim = build(world, 1, particles, s -> {})) {
            sim.run(3, 0);
            int[] r = new int[2];
            world.query().with(world.component(Position.class)).build().forEachChunk(c -> {
                r[0]++;
                r[1] = Math.max(r[1], c.size());
            });
            return r;
        }
    }

    // ---- per-job timings, and the results on any worker count ----

    @Test
    void jobObserverReportsJobsOnWorkersIndexedBySystemName() {
        try (Simulation sim = build(2, 20_000)) {
            List<String> names = sim.schedule().systemNames();
            Map<String, Long> busy = new ConcurrentHashMap<>();
            List<String> bad = new CopyOnWriteArrayList<>();
            sim.observeJobs(new JobObserver() {
                @Override
                public void jobRan(int worker, int system, int from, int to, long start, long end) {
                    if (worker < 0 || worker >= 2 || end < start || to < from) bad.add(worker + " " + system + " " + from + " " + to);
                    busy.merge(names.get(system), end - start, Long::sum);
                }
            });
            sim.run(10, 0);
            assertEquals(List.of(), bad);
            assertTrue(busy.keySet().containsAll(List.of("new tick", "move", "respawn", "count")), busy.toString());
        }
    }

    @Test
    void anExclusiveSystemIsOneJobOfWorkerZeroWithChunkRangeMinusOne() {
        List<String> jobs = new CopyOnWriteArrayList<>();
        try (Simulation sim = Simulation.builder(new World()).workers(2)
                .systems(s -> s.system("census").exclusive(w -> { })).build()) {
            sim.observeJobs(new JobObserver() {
                @Override
                public void jobRan(int worker, int system, int from, int to, long start, long end) {
                    jobs.add(sim.schedule().systemNames().get(system) + " " + worker + " [" + from + ", " + to + ")");
                }
            });
            sim.run(2, 0);
        }
        assertEquals(List.of("census 0 [-1, -1)", "census 0 [-1, -1)"), jobs);
    }

    @Test
    void aChromeTraceHoldsTheTracedTicksJobsByName(@TempDir Path dir) throws Exception {
        try (Simulation sim = build(2, 20_000)) {
            ChromeTrace trace = sim.newTrace(4096);
            sim.trace(trace);
            sim.run(10, 0);
            sim.trace(null);
            sim.run(5, 0);                                           // not traced
            long jobs = trace.jobCount();
            assertTrue(jobs >= 10 * 4, "at least new tick, move, respawn and count each tick: " + jobs);
            Path file = dir.resolve("ticks.json");
            trace.write(file);
            String json = Files.readString(file);
            assertTrue(json.contains("\"move\""), json.substring(0, Math.min(400, json.length())));
            assertEquals(jobs, trace.jobCount(), "nothing recorded after trace(null)");
        }
    }

    @Test
    void aFullTraceKeepsTheFirstJobsAndTicksAndCountsTheRestAsDropped(@TempDir Path dir) throws Exception {
        try (Simulation sim = build(1, 2_000)) {
            ChromeTrace trace = sim.newTrace(3);                     // 3 jobs (and ticks) a worker
            sim.trace(trace);
            sim.run(10, 0);
            sim.trace(null);
            assertEquals(3, trace.jobCount());
            assertTrue(trace.droppedCount() >= 10 * 4 - 3, "the rest are counted: " + trace.droppedCount());
            Path file = dir.resolve("ticks.json");
            trace.write(file);
            String json = Files.readString(file);
            assertTrue(json.contains("\"tick 0\""), json);
            assertTrue(!json.contains("\"tick 9\""), "the first ticks are kept, not the latest: " + json);
        }
    }

    @Test
    void theWatchdogNamesTheSystemStillRunning() {
        List<String> overruns = new CopyOnWriteArrayList<>();
        CountDownLatch heard = new CountDownLatch(1);
        try (Simulation sim = Simulation.builder(new World())
                .watchdog(2, (tick, nanos, system, job) -> {            // 2 steps: 33 ms at 60 Hz
                    overruns.add(tick + " " + system + " " + job);
                    heard.countDown();
                })
                .systems(s -> s.system("slow").exclusive(w -> {
                    try {
                        heard.await(60, TimeUnit.SECONDS);             // held until the watchdog speaks
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }))
                .build()) {
            sim.tick();
        }
        assertEquals(1, overruns.size(), overruns.toString());
        assertTrue(overruns.get(0).startsWith("0 slow "), overruns.toString());
        assertTrue(overruns.get(0).contains("(exclusive)"), overruns.toString());
    }

    @Test
    void theStateIsBitIdenticalOnAnyWorkerCountAndAnyBatchKnob() {
        long one = hashAfter(new World(), 1, s -> {});
        assertEquals(one, hashAfter(new World(), 2, s -> {}));
        assertEquals(one, hashAfter(new World(), 3, s -> {}));
        assertEquals(one, hashAfter(new World(), 2, s -> s.minBatchRows(64)));
        String old = System.getProperty("orrery.chunkPipelines");
        System.setProperty("orrery.chunkPipelines", "false");
        try {
            assertEquals(one, hashAfter(new World(), 2, s -> {}), "pipelines off: same results");
        } finally {
            restore("orrery.chunkPipelines", old);
        }
    }

    /**
     * The performance chapter: the chunk budget changes the layout, not the entities and values,
     * but the state hash walks chunk by chunk and a snapshot carries the layout.
     */
    @Test
    void aChunkBudgetKeepsTheValuesButIsPartOfTheHashAndOfASnapshot() {
        World big = new World();
        World small = new World(64 * 1024);
        byte[] snapshot;
        try (Simulation a = build(big, 2, 20_000, s -> {}); Simulation b = build(small, 2, 20_000, s -> {})) {
            a.run(30, 0);
            b.run(30, 0);
            assertEquals(contents(big), contents(small), "the same entities, rows and values");
            assertNotEquals(big.stateHash(), small.stateHash(), "the hash goes chunk by chunk");
            snapshot = b.snapshot();
        }
        try (Simulation target = build(new World(), 1, 0, s -> {})) {
            Exception e = assertThrows(Exception.class, () -> target.restore(snapshot));
            assertTrue(e.getMessage().contains("another chunk budget than the writer's (new World(chunkBytes))"),
                    e.getMessage());
        }
    }

    /** Every particle's id, position bits and health, in row order. */
    static List<String> contents(World world) {
        Component<Position> pos = world.component(Position.class);
        Component<Health> health = world.component(Health.class);
        Field x = pos.field("x"), hp = health.field("hp");
        List<String> rows = new ArrayList<>();
        world.query().with(pos, health).build().forEachChunk(c -> {
            float[] px = c.readFloats(x), h = c.readFloats(hp);
            for (int i = 0; i < c.size(); i++) {
                rows.add(c.entity(i) + ":" + Float.floatToRawIntBits(px[i]) + ":" + Float.floatToRawIntBits(h[i]));
            }
        });
        return rows;
    }

    static long hashAfter(World world, int workers, Consumer<Schedule.Builder> tune) {
        try (Simulation sim = build(world, workers, 20_000, tune)) {
            sim.run(60, 0);
            return sim.world().stateHash();
        }
    }
}
