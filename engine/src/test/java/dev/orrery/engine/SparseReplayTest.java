package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.Phase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Systems toggle sparse components through their jobs' command buffers (add with a value,
 * set, remove, a tag on and off, spawns that carry one, despawns) and read them per row;
 * the state hash, sparse sets included, is the same on 1, 2 and 4 workers, and a recording
 * made on 2 workers replays with a matching hash at every tick on 1 and 4.
 */
class SparseReplayTest {
    record Pos(float x) {
    }

    record Burning(float dps) {
    }

    record Stunned() {
    }

    static final int TICKS = 200;

    static Simulation build(int workers, boolean populate) {
        World world = new World(1024);
        Component<Pos> pos = world.component(Pos.class);
        Component<Burning> burning = world.component(Burning.class, Storage.SPARSE);
        Component<Stunned> stunned = world.component(Stunned.class, Storage.SPARSE);
        if (populate) {
            world.entity().with(pos, new Pos(100)).spawnMany(2000);
        }
        Field px = pos.field("x");
        SimulationBuilder builder = Simulation.builder(world).seed(7).workers(workers).hashEvery(1);
        dev.orrery.scheduler.Resources res = builder.resources();
        return builder.systems(s -> s
                .system("ignite").query(world.query().with(pos).optional(burning, stunned).build())
                .reads(pos, burning, stunned).readsResource(Simulation.CLOCK, Simulation.RANDOM)
                .adds(burning, stunned).removes(burning, stunned)
                .forEachChunk(job -> {
                    CounterRandom rnd = res.get(Simulation.RANDOM);
                    long t = res.get(Simulation.CLOCK).tick();
                    CommandBuffer cmd = job.commands();
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long e = job.chunk().entity(i);
                        float roll = rnd.nextFloat(t, e, 0);
                        if (job.chunk().has(burning, i)) {
                            if (roll < 0.3f) {
                                cmd.remove(e, burning);
                            } else if (roll < 0.4f) {
                                cmd.set(e, burning, new Burning(job.chunk().get(burning, i).dps() * 1.5f));
                            }
                        } else if (roll < 0.15f) {
                            cmd.add(e, burning, new Burning(roll * 10));
                        }
                        if (rnd.nextFloat(t, e, 1) < 0.1f) {
                            if (job.chunk().has(stunned, i)) {
                                cmd.remove(e, stunned);
                            } else {
                                cmd.add(e, stunned);
                            }
                        }
                    }
                })
                .system("burn").inPhase(Phase.POST_UPDATE).query(world.query().with(pos).optional(burning, stunned)
                        .build())
                .writes(pos).reads(burning, stunned).despawns().spawns(pos, burning)
                .forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(px);
                    CommandBuffer cmd = job.commands();
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long e = job.chunk().entity(i);
                        if (job.chunk().has(burning, i) && !job.chunk().has(stunned, i)) {
                            x[i] -= job.getFloat(e, burning.field("dps"));
                        }
                        if (x[i] < 0) {
                            cmd.despawn(e);
                            long child = cmd.spawn();
                            cmd.add(child, pos, new Pos(50));
                            cmd.add(child, burning, new Burning(1));
                        }
                    }
                })).build();
    }

    @Test
    void sparseTogglesHashEquallyOnAnyWorkerCountAndReplay(@TempDir Path dir) throws Exception {
        long recorded;
        int burningAtEnd;
        try (Simulation sim = build(2, true);
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(64).maxPayloadBytes(16))) {
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
            }
            recorded = sim.world().stateHash();
            burningAtEnd = sim.world().query().with(sim.world().component(Burning.class, Storage.SPARSE)).build().count();
        }
        assertTrue(burningAtEnd > 0 && burningAtEnd < 2000, "the workload toggles: " + burningAtEnd + " burning");
        for (int workers : new int[] {1, 4}) {
            try (Simulation sim = build(workers, true)) {
                for (int t = 0; t < TICKS; t++) {
                    sim.tick();
                }
                assertEquals(recorded, sim.world().stateHash(), workers + " workers");
            }
            try (Simulation fresh = build(workers, false)) {
                RunReplayer.Result r = RunReplayer.replay(dir, fresh);
                assertEquals(TICKS, r.hashesChecked(), "a hash checked at every tick with " + workers + " workers");
                assertEquals(recorded, r.finalHash());
            }
        }
    }
}
