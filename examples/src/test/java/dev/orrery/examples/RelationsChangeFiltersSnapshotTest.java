package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.testkit.DeterminismCheck;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Relations x change filters x snapshots: pairs re-parented, removed and added back from jobs
 * through command buffers stamp the {@code ChildOf} marker column's chunks, so a system whose
 * query is {@code changed(childOf.column())} (chunk versions) and asks {@code changed(marker, row)}
 * (row tracking) sees exactly the rows whose pair changed since it last ran; what it saw is
 * written into the world each tick, so a restored run or a replay that filtered differently
 * would show in the state hash.
 */
class RelationsChangeFiltersSnapshotTest {
    record Pos(float x) {}
    record Seen(int chunks, int rows) {}

    static Simulation build(int workers, boolean populate) {
        World world = new World(8 * 1024);                           // small chunks: many of them
        Component<Pos> pos = world.component(Pos.class);
        Component<Seen> seen = world.component(Seen.class);
        Relation childOf = world.relations().childOf();
        Component<?> marker = childOf.column();
        world.trackRowChanges(marker);
        Field chunks = seen.field("chunks"), rows = seen.field("rows");
        long[] parents = new long[3];
        if (populate) {
            for (int k = 0; k < 3; k++) parents[k] = world.spawn(new Pos(-k));
            for (int i = 0; i < 2_000; i++) {
                long kid = world.spawn(new Pos(i), new Seen(0, 0));
                world.relations().add(kid, childOf, parents[i % 3]);
            }
        }
        Query kids = world.query().with(pos, marker).build();
        Query orphans = world.query().with(pos, seen).without(marker).build();
        Query watched = world.query().with(seen).changed(marker).build();
        return Simulation.builder(world).workers(workers).seed(3)
                .systems(s -> s
                        .system("reparent").query(kids).reads(marker).readsResource(Simulation.CLOCK)
                        .adds(marker).removes(marker).forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            long tick = job.resource(Simulation.CLOCK).tick();
                            long[] parent = c.readLongs(childOf.target());
                            CommandBuffer commands = job.commands();
                            for (int i = 0; i < c.size(); i++) {
                                long e = c.entity(i);
                                int key = (int) ((Entity.index(e) * 31L + tick) % 97);
                                if (key == 0) {
                                    commands.removePair(e, childOf, parent[i]);
                                } else if (key < 3) {
                                    long other = Entity.of((int) ((Entity.index(parent[i]) + 1) % 3),
                                            Entity.generation(parent[i]));
                                    commands.addPair(e, childOf, other);   // the three parents are indices 0..2
                                }
                            }
                        })
                        .system("adopt").query(orphans).readsResource(Simulation.CLOCK).adds(marker)
                        .forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            long tick = job.resource(Simulation.CLOCK).tick();
                            for (int i = 0; i < c.size(); i++) {
                                if ((Entity.index(c.entity(i)) + tick) % 4 == 0) {
                                    job.commands().addPair(c.entity(i), childOf, Entity.of((int) (tick % 3), 1));
                                }
                            }
                        })
                        .system("watch").after("reparent", "adopt").afterStructuralChanges().query(watched)
                        .reads(marker).writes(seen).forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            int[] ch = c.writeInts(chunks), rw = c.writeInts(rows);
                            for (int i = 0; i < c.size(); i++) {
                                ch[i]++;
                                if (c.changed(marker, i)) rw[i]++;
                            }
                        }))
                .build();
    }

    @Test
    void shouldSeeOnlyTheRowsWhosePairChanged() {
        try (Simulation sim = build(2, true)) {
            World world = sim.world();
            Component<Seen> seen = world.component(Seen.class);
            Query all = world.query().with(seen).build();
            for (int t = 0; t < 30; t++) {
                sim.tick();
            }
            int[] total = {0, 0, 0};
            all.forEachReadOnly((c, i) -> {
                Seen s = world.get(c.entity(i), seen);
                total[0] += s.rows();
                total[1] += s.chunks();
                total[2]++;
            });
            assertEquals(2_000, total[2]);
            assertTrue(total[0] > 0 && total[0] < total[1],
                    "row tracking saw fewer rows than the chunk filter visited: rows " + total[0] + ", chunk visits " + total[1]);
            assertTrue(total[1] < 2_000 * 30 + 2_000, "the chunk filter skipped chunks: " + total[1]);
        }
    }

    @Test
    void shouldFilterTheSameOnEveryWorkerCountAfterARestoreAndInAReplay() {
        List<String> runs = DeterminismCheck.of(RelationsChangeFiltersSnapshotTest::build).ticks(40).workers(1, 2).run();
        assertTrue(runs.contains("the recording replayed on 2 workers"), runs.toString());
    }
}
