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
        try (Simulation sim = Simulation.builder(world).stepSeconds(0.01)
                .watchdog(5, (tick, elapsed, system, job) -> reports.add(tick + " " + system + " " + job))
                .systems(s -> s.system("sleepy").query(world.query().with(hp).build()).reads(hp).forEachChunk(job -> {
                    // Long until the watchdog has reported it (at most 10 s), however late a loaded
                    // machine runs the watchdog's thread; a fixed 300 ms sleep failed under load.
                    long until = System.nanoTime() + 10_000_000_000L;
                    try {
                        while (job.chunk().size() > 0 && reports.isEmpty() && System.nanoTime() < until) {
                            Thread.sleep(5);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                })).build()) {
            sim.tick();
            assertEquals(1, reports.size(), reports.toString());
            assertTrue(reports.get(0).startsWith("0 sleepy worker 0 chunks [0, 1)"), reports.toString());
            sim.tick(); // fast: nothing more reported
            assertEquals(1, reports.size(), reports.toString());
        }
    }
}
