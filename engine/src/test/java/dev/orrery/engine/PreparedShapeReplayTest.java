package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulation whose set-up prepares spawn shapes (as the game-loop chapter teaches) restores
 * from a snapshot and replays a recording: the restore target is built by the same factory,
 * shapes included, and the hashes match the original run's.
 */
class PreparedShapeReplayTest {
    record Pos(float x) {
    }

    record Vel(float v) {
    }

    static final int TICKS = 60;

    /** The game's factory: registers components, prepares the bullet shape, declares the systems. */
    static Simulation build(int workers, boolean populate) {
        World world = new World(1024);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        Shape bullet = world.shape(pos, vel);
        if (populate) {
            for (int i = 0; i < 500; i++) {
                bullet.spawn(new Pos(i), new Vel(i % 7 - 3));
            }
        }
        Field px = pos.field("x");
        Field vv = vel.field("v");
        Query moving = world.query().with(pos, vel).build();
        return Simulation.builder(world).seed(3).workers(workers).hashEvery(1)
                .systems(s -> s
                        .system("move").query(moving).reads(vel).writes(pos).forEachChunk(job -> {
                            float[] x = job.chunk().writeFloats(px);
                            float[] v = job.chunk().readFloats(vv);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                x[i] += v[i];
                            }
                        })
                        .system("fire and reap").query(moving).reads(pos).spawns(pos, vel).despawns()
                        .forEachChunk(job -> {
                            CommandBuffer cmd = job.commands();
                            float[] x = job.chunk().readFloats(px);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                if (x[i] > 600 || x[i] < -100) {
                                    cmd.despawn(job.chunk().entity(i));
                                    cmd.spawn(bullet);
                                }
                            }
                        }))
                .build();
    }

    @Test
    void shouldRestoreASnapshotIntoASimulationThatPreparedItsShapes() {
        byte[] mid;
        long[] hashes = new long[TICKS];
        try (Simulation original = build(2, true)) {
            mid = null;
            for (int t = 0; t < TICKS; t++) {
                original.tick();
                hashes[t] = original.world().stateHash();
                if (t == 19) {
                    mid = original.snapshot();
                }
            }
        }
        try (Simulation restored = build(1, false)) {
            restored.restore(mid);
            for (int t = 20; t < TICKS; t++) {
                restored.tick();
                assertEquals(hashes[t], restored.world().stateHash(), "tick " + t + " after the restore");
            }
        }
    }

    @Test
    void shouldReplayARecordingIntoASimulationThatPreparedItsShapes(@TempDir Path dir) throws Exception {
        long finalHash;
        try (Simulation sim = build(2, true);
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(64).maxPayloadBytes(8))) {
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
            }
            finalHash = sim.world().stateHash();
        }
        try (Simulation fresh = build(2, false)) {
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertEquals(TICKS, r.ticks());
            assertTrue(r.hashesChecked() >= TICKS, "a hash checked at every tick");
            assertEquals(finalHash, r.finalHash());
        }
    }
}
