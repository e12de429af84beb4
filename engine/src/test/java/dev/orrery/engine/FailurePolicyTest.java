package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.engine.ArenaWorkload.Pos;
import dev.orrery.engine.ArenaWorkload.Vel;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.SystemFailedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The failure policy: STOP throws; SKIP_TICK skips the tick (the failing phase runs to its
 * end, its pending command buffers are discarded) the same way on any worker count, and a
 * recording of skipped ticks replays with matching hashes and skips.
 */
class FailurePolicyTest {
    static final int TICKS = 30;
    static final int ENTITIES = 3000;

    /** Fails every 5th tick from 2 on: "fragile" writes half of chunks 1 and 3, despawns one entity, then throws. */
    static SimulationBuilder builder(int workers, boolean fragile) {
        return builder(workers, fragile, true);
    }

    /** Unpopulated ({@code populate} false) for a replay, which restores the recorded start. */
    static SimulationBuilder builder(int workers, boolean fragile, boolean populate) {
        World world = new World(4096);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        Component<Hp> hp = world.component(Hp.class);
        if (populate) {
            world.entity().with(pos, new Pos(0, 0)).with(vel, new Vel(0, 0)).with(hp, new Hp(100)).spawnMany(ENTITIES);
        }
        Field px = pos.field("x");
        Field vx = vel.field("x");
        SimulationBuilder b = Simulation.builder(world).seed(5).workers(workers).hashEvery(1);
        Resources res = b.resources();
        return b.systems(s -> s
                .system("wander").query(world.query().with(vel).build()).writes(vel)
                .readsResource(Simulation.CLOCK, Simulation.RANDOM).forEachChunk(job -> {
                    long t = res.get(Simulation.CLOCK).tick();
                    float[] u = job.chunk().writeFloats(vx);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        u[i] = res.get(Simulation.RANDOM).nextFloat(t, job.chunk().entity(i), 0) - 0.5f;
                    }
                })
                .system("fragile").query(world.query().with(pos, vel).build()).reads(vel).writes(pos).despawns()
                .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                    long t = res.get(Simulation.CLOCK).tick();
                    float[] x = job.chunk().writeFloats(px);
                    float[] u = job.chunk().readFloats(vx);
                    int n = job.chunk().size();
                    boolean fails = fragile && t % 5 == 2 && (job.chunkOrdinal() == 1 || job.chunkOrdinal() == 3);
                    for (int i = 0; i < (fails ? n / 2 : n); i++) {
                        x[i] += u[i];
                    }
                    if (fails) {
                        job.commands().despawn(job.chunk().entity(0));
                        throw new IllegalStateException("fragile fails at tick " + t);
                    }
                }));
    }

    static long[] hashes(int workers) {
        long[] h = new long[TICKS];
        try (Simulation sim = builder(workers, true).onSystemFailure(FailurePolicy.SKIP_TICK).build()) {
            List<Boolean> firsts = new ArrayList<>();
            sim.failureListener((tick, failure, first) -> {
                assertEquals("fragile", failure.system());
                assertEquals(1, failure.chunkOrdinal(), "the lowest failing chunk is the one reported");
                firsts.add(first);
            });
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
                h[t] = sim.lastHash();
            }
            assertEquals(6, sim.skippedTicks());
            assertEquals(List.of(true, false, false, false, false, false), firsts);
            assertEquals(ENTITIES, sim.world().entityCount(), "the failing phase's despawns were discarded");
        }
        return h;
    }

    @Test
    void shouldStopByDefault() {
        try (Simulation sim = builder(2, true).build()) {
            assertEquals(FailurePolicy.STOP, sim.failurePolicy());
            sim.tick();
            sim.tick();
            SystemFailedException e = assertThrows(SystemFailedException.class, sim::tick);
            assertEquals("fragile", e.system());
            assertEquals(2, sim.currentTick(), "the failed tick did not count");
        }
    }

    @Test
    void shouldSkipFailingTicksTheSameWayOnAnyWorkerCount() {
        long[] one = hashes(1);
        assertArrayEquals(one, hashes(2));
        assertArrayEquals(one, hashes(4));
        long[] clean = new long[TICKS];
        try (Simulation sim = builder(1, false).build()) {
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
                clean[t] = sim.lastHash();
            }
        }
        assertEquals(one[1], clean[1]);
        assertFalse(one[2] == clean[2], "a skipped tick leaves the half-written chunks");
    }

    @Test
    void shouldRecordSkippedTicksAndReplayThemOnAnotherWorkerCount(@TempDir Path dir) throws Exception {
        long finalHash;
        try (Simulation sim = builder(4, true).onSystemFailure(FailurePolicy.SKIP_TICK).build();
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder(), Durability.EVERY_TICK)) {
            sim.failureListener((tick, failure, first) -> { });
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
            }
            finalHash = sim.world().stateHash();
        }
        // built under STOP: the replay adopts the recorded policy
        try (Simulation fresh = builder(1, true, false).build()) {
            fresh.failureListener((tick, failure, first) -> { });
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertEquals(TICKS, r.ticks());
            assertEquals(TICKS, r.hashesChecked());
            assertEquals(6, r.skippedTicks());
            assertTrue(r.closedCleanly());
            assertEquals(finalHash, r.finalHash());
        }
        try (Simulation fixed = builder(2, false, false).build()) {
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> RunReplayer.replay(dir, fixed));
            assertEquals(2, e.tick());
            assertTrue(e.getMessage().contains("skipped the tick (system 'fragile' threw)"), e.getMessage());
        }
    }

    @Test
    void shouldReportALongTickNamingTheSystemStillRunning() {
        List<String> reports = new CopyOnWriteArrayList<>();
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(1)).spawnMany(10);
        AtomicBoolean hold = new AtomicBoolean();
        // 20 steps (200 ms), not 5 (50 ms): on a loaded machine the tick's own steps (the first tick's class
        // loading, a descheduled tick thread) could pass 50 ms and be reported instead (once a tick), or a fast
        // tick pass it.
        try (Simulation sim = Simulation.builder(world).stepSeconds(0.01)
                .watchdog(20, (tick, elapsed, system, job) -> reports.add(tick + " " + system + " " + job))
                .systems(s -> s.system("sleepy").query(world.query().with(hp).build()).reads(hp).forEachChunk(job -> {
                    // Long until the watchdog has reported it (at most 10 s), however late a loaded
                    // machine runs the watchdog's thread; a fixed 300 ms sleep failed under load.
                    long until = System.nanoTime() + 10_000_000_000L;
                    try {
                        while (hold.get() && job.chunk().size() > 0 && reports.isEmpty() && System.nanoTime() < until) {
                            Thread.sleep(5);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                })).build()) {
            sim.tick(); // warm: the first tick's class loading is not the system's
            reports.clear();
            hold.set(true);
            sim.tick();
            assertEquals(1, reports.size(), reports.toString());
            assertTrue(reports.get(0).startsWith("1 sleepy worker 0 chunks [0, 1)"), reports.toString());
            hold.set(false);
            sim.tick(); // fast: nothing more reported
            assertEquals(1, reports.size(), reports.toString());
        }
    }
    /**
     * A world whose "seeder" spawns 4 Hp entities a tick (and "breaker" after it throws when
     * {@code breaks}); an onAdd(Hp) hook misbehaves on the ticks {@code armedAt} picks: it throws,
     * or ({@code runaway}) spawns a thousand Hp entities for each new one.
     */
    static SimulationBuilder hooked(World world, int workers, java.util.function.LongPredicate armedAt, boolean runaway,
            boolean breaks) {
        Component<Hp> hp = world.component(Hp.class);
        dev.orrery.ecs.Shape seed = world.shape(hp);
        SimulationBuilder b = Simulation.builder(world).seed(1).workers(workers).hashEvery(1);
        Resources res = b.resources();
        world.observe(hp).onAdd((w, e, commands) -> {
            if (!armedAt.test(res.value(Simulation.CLOCK).tick())) {
                return;
            }
            if (!runaway) {
                throw new IllegalStateException("the hook refuses " + dev.orrery.ecs.component.Entity.toString(e));
            }
            for (int k = 0; k < 1000; k++) {
                commands.spawn(seed);
            }
        });
        return b.systems(s -> s
                .system("seeder").spawns(hp).forEachRange(() -> 4, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        job.commands().add(job.commands().spawn(), hp, new Hp(i));
                    }
                })
                .system("breaker").query(world.query().with(hp).build()).reads(hp).forEachChunk(job -> {
                    if (breaks) {
                        throw new IllegalStateException("breaker breaks");
                    }
                }));
    }

    @Test
    void shouldSkipATickWhoseSyncPointHookThrows() {
        World world = new World();
        try (Simulation sim = hooked(world, 2, t -> t == 1, false, false).onSystemFailure(FailurePolicy.SKIP_TICK)
                .build()) {
            List<String> skipped = new ArrayList<>();
            sim.failureListener((tick, failure, first) -> skipped.add(tick + " " + failure.system()));
            sim.tick();
            sim.tick(); // the hook throws at the sync point before "breaker": absorbed, not thrown
            sim.tick();
            assertEquals(List.of("1 sync point before system 'breaker'"), skipped);
            assertEquals(1, sim.skippedTicks());
            assertEquals(3, sim.currentTick());
            assertEquals(12, world.entityCount(), "the failing sync point's spawns were applied before its hooks ran");
        }
        try (Simulation sim = hooked(new World(), 1, t -> true, false, false).build()) {
            dev.orrery.scheduler.SystemFailedException e = assertThrows(dev.orrery.scheduler.SystemFailedException.class,
                    sim::tick);
            assertEquals("sync point before system 'breaker'", e.system());
            assertTrue(e.getMessage().contains("the hook refuses"), e.getMessage());
        }
    }

    @Test
    void shouldSkipATickWhoseObserverCascadeRunsAway() {
        World world = new World();
        try (Simulation sim = hooked(world, 2, t -> t == 0, true, false).onSystemFailure(FailurePolicy.SKIP_TICK)
                .build()) {
            List<dev.orrery.scheduler.SystemFailedException> failures = new ArrayList<>();
            sim.failureListener((tick, failure, first) -> failures.add(failure));
            sim.tick();
            assertEquals(1, failures.size());
            Throwable cause = failures.get(0).getCause();
            assertTrue(cause instanceof dev.orrery.ecs.ObserverCascadeException, String.valueOf(cause));
            assertTrue(cause.getMessage().contains("more than 1000000 commands in one cascade"), cause.getMessage());
            assertTrue(world.entityCount() < 10_000, "refused long before memory ran out: " + world.entityCount());
            int before = world.entityCount();
            sim.tick();
            assertEquals(before + 4, world.entityCount(), "the next tick runs normally");
        }
    }

    @Test
    void shouldReplayATickSkippedAtASyncPoint(@TempDir Path dir) throws Exception {
        long finalHash;
        try (Simulation sim = hooked(new World(), 2, t -> t == 3, false, false).onSystemFailure(FailurePolicy.SKIP_TICK)
                .build();
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder(), Durability.EVERY_TICK)) {
            sim.failureListener((t, failure, first) -> { });
            for (int t = 0; t < 8; t++) {
                sim.tick();
            }
            finalHash = sim.world().stateHash();
        }
        World fresh = new World();
        try (Simulation sim = hooked(fresh, 1, t -> t == 3, false, false).build()) {
            sim.failureListener((t, failure, first) -> { });
            RunReplayer.Result r = RunReplayer.replay(dir, sim);
            assertEquals(1, r.skippedTicks());
            assertEquals(finalHash, r.finalHash());
        }
    }

    @Test
    void shouldSayWhatASkippedTickApplied() {
        World world = new World();
        try (Simulation sim = hooked(world, 1, t -> false, false, true).onSystemFailure(FailurePolicy.SKIP_TICK)
                .build()) {
            List<String> messages = new ArrayList<>();
            sim.failureListener((tick, failure, first) -> messages.add(failure.getMessage()));
            sim.tick();
            String m = messages.get(0);
            assertTrue(m.startsWith("system 'breaker' failed"), m);
            assertFalse(m.contains("structure is unchanged"), m);
            assertTrue(m.contains("8 commands applied at 1 earlier sync point of this run stay"), m);
            assertEquals(4, world.entityCount(), "the automatic sync point's spawns stay");
        }
    }
    @Test
    @org.junit.jupiter.api.Timeout(120)
    void shouldSkipATickStuckOnAJobPastItsDeadline() {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(1)).spawnMany(600);
        Thread tickThread = Thread.currentThread();
        java.util.concurrent.CountDownLatch workerInJob = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch never = new java.util.concurrent.CountDownLatch(1);
        boolean[] stuck = {true};
        try (Simulation sim = Simulation.builder(world).workers(2).stepSeconds(0.01).tickDeadline(300)
                .onSystemFailure(FailurePolicy.SKIP_TICK)
                .systems(s -> s.system("stuck").minBatchRows(1).query(world.query().with(hp).build()).writes(hp)
                        .forEachChunk(job -> {
                            if (!stuck[0]) {
                                return;
                            }
                            try { // the tick thread's job waits until a worker holds one; that one never returns
                                if (Thread.currentThread() == tickThread) {
                                    workerInJob.await(60, java.util.concurrent.TimeUnit.SECONDS);
                                } else if (workerInJob.getCount() > 0) {
                                    workerInJob.countDown();
                                    never.await();
                                }
                            } catch (InterruptedException e) {
                                throw new IllegalStateException("interrupted", e);
                            }
                        }))
                .build()) {
            List<dev.orrery.scheduler.SystemFailedException> failures = new ArrayList<>();
            sim.failureListener((tick, failure, first) -> failures.add(failure));
            sim.tick();
            assertEquals(1, sim.skippedTicks());
            assertEquals("stuck", failures.get(0).system());
            assertTrue(failures.get(0).getMessage().contains("(its deadline: 3000 ms)"), failures.get(0).getMessage());
            assertFalse(world.isStructureLocked());
            assertEquals(600, world.entityCount());
            stuck[0] = false;
            long hashBefore = world.stateHash();
            sim.tick();
            sim.tick();
            assertEquals(1, sim.skippedTicks(), "later ticks run");
            assertEquals(600, world.entityCount());
            assertEquals(hashBefore, world.stateHash(), "a system that writes nothing leaves the hash as it was");
        }
    }

    @Test
    void shouldReportALongEndOfTickHookByName() {
        List<String> reports = new CopyOnWriteArrayList<>();
        AtomicBoolean hold = new AtomicBoolean();
        World world = new World();
        world.component(Hp.class);
        // 20 steps, not 5: see shouldReportALongTickNamingTheSystemStillRunning.
        try (Simulation sim = Simulation.builder(world).stepSeconds(0.01)
                .watchdog(20, (tick, elapsed, system, job) -> reports.add(tick + " [" + system + "] " + job))
                .systems(s -> { }).build()) {
            sim.atEndOfTick((tick, nanos) -> {
                if (!hold.get()) {
                    return;
                }
                // A tool reading the world for too long: until the watchdog has reported it (at most
                // 10 s), however late a loaded machine runs the watchdog's thread; a fixed 300 ms
                // sleep could end, and the tick with it, before the watchdog looked.
                long until = System.nanoTime() + 10_000_000_000L;
                try {
                    while (reports.isEmpty() && System.nanoTime() < until) {
                        Thread.sleep(5);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            sim.tick(); // warm
            reports.clear();
            hold.set(true);
            sim.tick();
            assertEquals(1, reports.size(), reports.toString());
            assertTrue(reports.get(0).startsWith("1 [] no job running: the end-of-tick hook"), reports.toString());
            hold.set(false);
            sim.tick(); // fast: nothing more reported
            assertEquals(1, reports.size(), reports.toString());
        }
    }
}
