package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Phase;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kit on a game whose systems add, set and remove sparse components (a named one and a
 * tag) through their jobs' command buffers, spawn children holding them and despawn parents
 * whose ChildOf cleanup takes those children along: it passes on 1 and 2 workers, across a
 * snapshot and a replay, and a sparse value that depends on the run is named with its system.
 */
class SparseDeterminismTest {
    record Pos(float x) {
    }

    record Aura(float radius) {
    }

    record Stunned() {
    }

    static int shared; // the flawed game's run-dependent counter

    static Simulation build(int workers, boolean populate, boolean flawed) {
        World world = new World(1024);
        Component<Pos> pos = world.component(Pos.class);
        Component<Aura> fog = world.component(Aura.class, "Fog", Storage.SPARSE);
        Component<Stunned> stunned = world.component(Stunned.class, Storage.SPARSE);
        Relation childOf = world.relations().childOf();
        if (populate) {
            long[] parents = world.entity().with(pos, new Pos(100)).spawnMany(40);
            for (int i = 0; i < 400; i++) {
                long child = world.spawn(new Pos(i % 100));
                world.relations().add(child, childOf, parents[i % parents.length]);
            }
        }
        Field px = pos.field("x");
        Field radius = fog.field("radius");
        return Simulation.builder(world).seed(11).workers(workers).systems(s -> s
                .system("fog").query(world.query().with(pos).optional(fog, stunned).build())
                .reads(pos, fog, stunned).adds(fog, stunned).removes(fog, stunned)
                .readsResource(Simulation.RANDOM, Simulation.CLOCK).forEachChunk(job -> {
                    CounterRandom r = job.resource(Simulation.RANDOM);
                    long t = job.resource(Simulation.CLOCK).tick();
                    ChunkView c = job.chunk();
                    CommandBuffer cmd = job.commands();
                    for (int i = 0, n = c.size(); i < n; i++) {
                        long e = c.entity(i);
                        float roll = r.nextFloat(t, e, 0);
                        if (c.has(fog, i)) {
                            if (roll < 0.2f) {
                                cmd.remove(e, fog);
                            } else if (roll < 0.5f) {
                                float grown = c.get(fog, i).radius() + (flawed && i == 0 ? shared++ % 3 : 1);
                                cmd.setFloat(e, radius, grown);
                            }
                        } else if (roll < 0.1f) {
                            cmd.add(e, fog, new Aura(roll * 10));
                        }
                        if (r.nextFloat(t, e, 1) < 0.05f) {
                            if (c.has(stunned, i)) {
                                cmd.remove(e, stunned);
                            } else {
                                cmd.add(e, stunned);
                            }
                        }
                    }
                })
                .system("cull").inPhase(Phase.POST_UPDATE).query(world.query().with(pos).optional(fog).build())
                .writes(pos).reads(fog).despawns().spawns(pos, fog).adds(childOf.column())
                .readsResource(Simulation.RANDOM, Simulation.CLOCK).forEachChunk(job -> {
                    CounterRandom r = job.resource(Simulation.RANDOM);
                    long t = job.resource(Simulation.CLOCK).tick();
                    ChunkView c = job.chunk();
                    float[] x = c.writeFloats(px);
                    CommandBuffer cmd = job.commands();
                    for (int i = 0, n = c.size(); i < n; i++) {
                        long e = c.entity(i);
                        if (c.has(fog, i)) {
                            x[i] -= 0.5f;
                        }
                        if (x[i] < 95 && r.nextFloat(t, e, 2) < 0.02f) {
                            cmd.despawn(e); // a parent takes its children, sparse columns and all
                        } else if (r.nextFloat(t, e, 3) < 0.01f) {
                            long child = cmd.spawn();
                            cmd.add(child, pos, new Pos(x[i]));
                            cmd.add(child, fog, new Aura(2));
                            cmd.addPair(child, childOf, e);
                        }
                    }
                })).build();
    }

    @Test
    void aGameTogglingSparseComponentsInJobsIsDeterministicAcrossWorkersSnapshotAndReplay() {
        try (Simulation sim = build(2, true, false)) {
            int fogged = 0;
            for (int t = 0; t < 60; t++) {
                sim.tick();
                fogged = Math.max(fogged, sim.world().query().with(sim.world().component(Aura.class, "Fog",
                        Storage.SPARSE)).build().count());
            }
            assertTrue(fogged > 0, "the game added fog");
            assertTrue(sim.world().entityCount() < 440, "parents were despawned: " + sim.world().entityCount());
        }
        List<String> runs = DeterminismCheck.of((workers, populate) -> build(workers, populate, false)).ticks(60)
                .workers(1, 2).run();
        assertTrue(runs.contains("restored from the snapshot of tick 30 on 2 workers")
                && runs.contains("the recording replayed on 2 workers"), runs.toString());
    }

    @Test
    void aRunDependentSparseValueIsNamedWithItsSystemAndComponent() {
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> DeterminismCheck.of((workers, populate) -> build(workers, populate, true)).ticks(30)
                        .workers(1, 2).run());
        assertEquals("fog", f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("components whose values differ: [Aura:Fog"), f.getMessage());
    }
}
