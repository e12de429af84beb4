package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.engine.ArenaWorkload.Pos;
import dev.orrery.engine.ArenaWorkload.Vel;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.States;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunk pipelines under a simulation. A recording made under {@link FailurePolicy#SKIP_TICK}
 * on 2 workers, where the chunk systems "steer", "move" and "hurt" are fused into one pipeline
 * and its members throw on some chunks on some ticks, replays on 1 worker (unfused) and 2
 * (fused) with every hash matching and the same ticks skipped. A pipeline in a state's
 * {@code onEnter} and {@code onExit} phases (with a member that throws on one transition)
 * gives the same hash after every tick fused and unfused (1 worker, and 2 workers with
 * {@code -Dorrery.chunkPipelines=false}).
 */
class PipelineReplayTest {
    enum Mode { REST, FIGHT }

    static final int TICKS = 60;
    static final int ENTITIES = 5000;
    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
    /** The property ChunkPipelines reads when an executor is built. */
    static final String PIPELINES = "orrery.chunkPipelines";

    /** A member ("move", then "hurt") throws on a middle chunk every 7th tick from 3 on, once per tick. */
    static boolean fails(long t, int chunk, int member) {
        return t % 7 == 3 && chunk == 2 && member == (t / 7) % 2;
    }

    /** The transition pipelines' member "rally" throws on the second entering of FIGHT (at tick 25). */
    static boolean transitionFails(long t, int chunk) {
        return t == 25 && chunk == 1;
    }

    static Simulation build(int workers, boolean populate, boolean fused, boolean failing) {
        World world = new World(8192);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        Component<Hp> hp = world.component(Hp.class);
        if (populate) {
            for (int i = 0; i < ENTITIES; i++) {
                world.spawn(new Pos(i % 100, i / 100), new Vel(0, 0), new Hp(20 + i % 60));
            }
        }
        Field px = pos.field("x");
        Field vx = vel.field("x");
        Field h = hp.field("hp");
        Query all = world.query().with(pos, vel, hp).build();
        SimulationBuilder b = Simulation.builder(world).seed(3).workers(workers).hashEvery(1)
                .onSystemFailure(FailurePolicy.SKIP_TICK).resource(MODE, new States<>(Mode.class, Mode.REST));
        String old = System.getProperty(PIPELINES);
        System.setProperty(PIPELINES, Boolean.toString(fused));
        try {
            return b.systems(s -> s.minBatchRows(64)
                    .system("toggle").readsResource(Simulation.CLOCK).writesResource(MODE)
                    .forEachRange(() -> 1, (job, from, to) -> {
                        long t = job.resource(Simulation.CLOCK).tick();
                        if (t % 20 == 4 || t % 20 == 14) {
                            job.resourceForWrite(MODE).request(t % 20 == 4 ? Mode.FIGHT : Mode.REST);
                        }
                    })
                    .system("steer").after("toggle").query(all).writes(vel)
                    .readsResource(Simulation.CLOCK, Simulation.RANDOM).forEachChunk(job -> {
                        long t = job.resource(Simulation.CLOCK).tick();
                        ChunkView c = job.chunk();
                        float[] u = c.writeFloats(vx);
                        for (int i = 0, n = c.size(); i < n; i++) {
                            u[i] = job.resource(Simulation.RANDOM).nextFloat(t, c.entity(i), 0) - 0.5f;
                        }
                    })
                    .system("move").query(all).reads(vel).writes(pos).readsResource(Simulation.CLOCK)
                    .forEachChunk(job -> {
                        long t = job.resource(Simulation.CLOCK).tick();
                        ChunkView c = job.chunk();
                        float[] x = c.writeFloats(px);
                        float[] u = c.readFloats(vx);
                        boolean fail = failing && fails(t, job.chunkOrdinal(), 0);
                        for (int i = 0, n = c.size(); i < (fail ? n / 2 : n); i++) {
                            x[i] += u[i];
                        }
                        if (fail) {
                            throw new IllegalStateException("move fails at tick " + t);
                        }
                    })
                    .system("hurt").query(all).reads(pos).writes(hp).despawns().spawns(pos, vel, hp)
                    .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                        long t = job.resource(Simulation.CLOCK).tick();
                        ChunkView c = job.chunk();
                        int[] hh = c.writeInts(h);
                        float[] x = c.readFloats(px);
                        boolean fail = failing && fails(t, job.chunkOrdinal(), 1);
                        for (int i = 0, n = c.size(); i < n; i++) {
                            hh[i] -= ((int) Math.abs(x[i] * 7)) % 3;
                            if (hh[i] <= 0) {
                                long e = c.entity(i);
                                job.commands().despawn(e);
                                long r = job.commands().spawn();
                                job.commands().add(r, pos, new Pos(e % 100, 0));
                                job.commands().add(r, vel, new Vel(0, 0));
                                job.commands().add(r, hp, new Hp(30 + (int) (e % 40)));
                            }
                            if (fail && i == 7) {
                                throw new IllegalStateException("hurt fails at tick " + t);
                            }
                        }
                    })
                    .system("brace").onEnter(MODE, Mode.FIGHT).query(all).writes(vel).forEachChunk(job -> {
                        float[] u = job.chunk().writeFloats(vx);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            u[i] = 1.5f + (job.chunk().entity(i) % 5);
                        }
                    })
                    .system("rally").onEnter(MODE, Mode.FIGHT).query(all).reads(vel).writes(hp)
                    .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                        long t = job.resource(Simulation.CLOCK).tick();
                        ChunkView c = job.chunk();
                        int[] hh = c.writeInts(h);
                        float[] u = c.readFloats(vx);
                        boolean fail = failing && transitionFails(t, job.chunkOrdinal());
                        for (int i = 0, n = c.size(); i < (fail ? n / 3 : n); i++) {
                            hh[i] += (int) u[i];
                        }
                        if (fail) {
                            throw new IllegalStateException("rally fails at tick " + t);
                        }
                    })
                    .system("calm").onExit(MODE, Mode.FIGHT).query(all).writes(vel).forEachChunk(job -> {
                        float[] u = job.chunk().writeFloats(vx);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            u[i] *= 0.25f;
                        }
                    })
                    .system("heal").onExit(MODE, Mode.FIGHT).query(all).reads(vel).writes(hp, pos)
                    .forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        int[] hh = c.writeInts(h);
                        float[] x = c.writeFloats(px);
                        float[] u = c.readFloats(vx);
                        for (int i = 0, n = c.size(); i < n; i++) {
                            hh[i] += 2 + (int) (u[i] * 4);
                            x[i] -= u[i];
                        }
                    })).build();
        } finally {
            if (old != null) {
                System.setProperty(PIPELINES, old);
            } else {
                System.clearProperty(PIPELINES);
            }
        }
    }

    private static Map<String, BatchDecision.Mode> modes(Simulation sim) {
        Map<String, BatchDecision.Mode> out = new HashMap<>();
        for (BatchDecision d : sim.batching()) {
            out.put(d.system(), d.mode());
        }
        return out;
    }

    /** Fused on 2+ workers with pipelines on; never on 1 worker or with the property false. */
    private static void assertFusion(Simulation sim, boolean fused) {
        Map<String, BatchDecision.Mode> m = modes(sim);
        for (String member : new String[] {"move", "hurt", "rally", "heal"}) {
            assertEquals(fused, m.get(member) == BatchDecision.Mode.FUSED, member + "\n" + BatchDecision.toText(sim.batching()));
        }
    }

    /** The hash after every tick, and the skipped ticks as "tick system" in {@code skipped}. */
    private static long[] run(int workers, boolean fused, boolean failing, List<String> skipped) {
        long[] hashes = new long[TICKS];
        try (Simulation sim = build(workers, true, fused, failing)) {
            assertFusion(sim, fused && workers > 1);
            sim.failureListener((tick, failure, first) -> skipped.add(tick + " " + failure.system()));
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
                hashes[t] = sim.lastHash();
            }
            assertEquals(skipped.size(), sim.skippedTicks());
        }
        return hashes;
    }

    @Test
    void shouldReplayARecordingWithFailingPipelineMembersOnOneAndTwoWorkers(@TempDir Path dir) throws Exception {
        List<String> recorded = new ArrayList<>();
        long finalHash;
        try (Simulation sim = build(2, true, true, true);
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder(), Durability.EVERY_TICK)) {
            assertFusion(sim, true);
            sim.failureListener((tick, failure, first) -> recorded.add(tick + " " + failure.system()));
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
            }
            finalHash = sim.world().stateHash();
        }
        assertTrue(recorded.contains("3 move") && recorded.contains("10 hurt") && recorded.contains("25 rally"), recorded.toString());
        for (int workers : new int[] {1, 2}) {
            List<String> replayed = new ArrayList<>();
            try (Simulation fresh = build(workers, false, true, true)) {
                fresh.failureListener((tick, failure, first) -> replayed.add(tick + " " + failure.system()));
                RunReplayer.Result r = RunReplayer.replay(dir, fresh);
                assertEquals(TICKS, r.hashesChecked(), workers + " workers");
                assertEquals(recorded.size(), r.skippedTicks(), workers + " workers");
                assertTrue(r.closedCleanly());
                assertEquals(finalHash, r.finalHash(), workers + " workers");
            }
            assertEquals(recorded, replayed, workers + " workers");
        }
    }

    @Test
    void shouldHashTheSameFusedAndUnfusedWithPipelinesInTransitionPhases() {
        List<String> cleanSkips = new ArrayList<>();
        long[] clean = run(1, true, false, cleanSkips);
        assertEquals(List.of(), cleanSkips);
        List<String> refSkips = new ArrayList<>();
        long[] ref = run(1, true, true, refSkips);
        assertEquals(clean[2], ref[2], "nothing fails before tick 3");
        assertNotEquals(clean[3], ref[3], "a skipped tick leaves the half-written chunks");
        for (boolean fused : new boolean[] {false, true}) {
            List<String> skips = new ArrayList<>();
            assertArrayEquals(clean, run(2, fused, false, skips), "clean, 2 workers, fused " + fused);
            assertEquals(List.of(), skips);
            skips.clear();
            assertArrayEquals(ref, run(2, fused, true, skips), "failing, 2 workers, fused " + fused);
            assertEquals(refSkips, skips, "failing, 2 workers, fused " + fused);
        }
    }
}
