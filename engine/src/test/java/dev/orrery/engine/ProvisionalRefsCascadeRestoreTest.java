package dev.orrery.engine;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.EntityRef;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Command buffers spawning with {@link EntityRef} fields (table and sparse) that name
 * provisional handles, next to a despawn of the referent in the same playback, the
 * {@code ChildOf} cascade and a {@link Cleanup#REMOVE_PAIR} relation, across a restore and a
 * replay ({@link FeaturePairRuns}, 1 and 2 workers). Each tick a system spawns parent-child
 * pairs whose child's {@code Homing} names its provisional parent and whose breeder takes a
 * {@code Likes} pair to it, and despawns some of those parents in the same buffer; a later
 * system despawns some parents by id. After every tick, what the documentation promises
 * holds: a live child's resolved {@code Homing} is its live parent (a parent despawned in the
 * playback that spawned it took its child with it), and no {@code Likes} pair names a dead
 * entity; and the restored and replayed runs see, hash and snapshot the same.
 */
class ProvisionalRefsCascadeRestoreTest {
    record Hp(int hp) {
    }

    record Homing(@EntityRef long target) {
    }

    record Mark(int n) {
    }

    /** 40 breeders; see the class comment for what the systems do. */
    static Simulation build(int workers, boolean populate, FeaturePairRuns.Log log) {
        World world = new World(1024);
        Component<Hp> hp = world.component(Hp.class);
        Component<Homing> homing = world.component(Homing.class);
        Component<Homing> seek = world.component(Homing.class, "Seek", Storage.SPARSE);
        Component<Mark> mark = world.component(Mark.class, "Mark", Storage.SPARSE);
        Relation childOf = world.relations().childOf();
        Relation likes = world.relations().register("RefsLikes", false, false, Cleanup.REMOVE_PAIR);
        if (populate) {
            for (int i = 0; i < 40; i++) {
                world.spawn(new Hp(i));
            }
        }
        Field hpv = hp.field("hp");
        SimulationBuilder builder = Simulation.builder(world).seed(3).workers(workers).hashEvery(1);
        var res = builder.resources();
        return builder.systems(s -> s
                .system("breed").query(world.query().with(hp).without(childOf.column()).build()).reads(hp)
                .readsResource(Simulation.CLOCK).minBatchRows(4)
                .spawns(hp, homing, seek, mark).adds(childOf.column(), likes.column(), seek, mark).despawns()
                .forEachChunk(job -> {
                    long t = job.resource(Simulation.CLOCK).tick();
                    CommandBuffer cmd = job.commands();
                    int[] h = job.chunk().readInts(hpv);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        long e = job.chunk().entity(i);
                        if ((h[i] + t) % 5 != 0) {
                            continue;
                        }
                        long p = cmd.spawn();
                        cmd.add(p, hp, new Hp(h[i] + 1));
                        cmd.add(p, mark, new Mark((int) t));
                        long c = cmd.spawn();
                        cmd.add(c, hp, new Hp(h[i] + 2));
                        cmd.add(c, homing, new Homing(p));
                        cmd.add(c, seek, new Homing(e));
                        cmd.addPair(c, childOf, p);
                        cmd.addPair(e, likes, p);
                        cmd.add(e, seek, new Homing(c));
                        if ((h[i] + t) % 3 == 0) {
                            cmd.despawn(p); // the referent dies in the same playback: c goes with it, e loses the pair
                        }
                    }
                })
                .system("cull").after("breed").query(world.query().with(hp).optional(mark).build()).reads(hp, mark)
                .readsResource(Simulation.CLOCK).despawns().forEachChunk(job -> {
                    long t = job.resource(Simulation.CLOCK).tick();
                    for (int i = 0; i < job.chunk().size(); i++) {
                        if (job.chunk().has(mark, i) && (job.chunk().entity(i) + t) % 4 == 0) {
                            job.commands().despawn(job.chunk().entity(i));
                        }
                    }
                })
                .system("look").after("cull").exclusive(w -> {
                    long[] n = new long[4];
                    w.query().with(hp).build().forEach((v, row) -> {
                        long e = v.entity(row);
                        n[0]++;
                        if (w.has(e, seek) && w.isAlive(w.get(e, seek).target())) {
                            n[1]++;
                        }
                        if (w.has(e, homing)) {
                            long parent = w.get(e, homing).target();
                            if (!w.isAlive(parent) || w.relations().parent(e) != parent) {
                                throw new AssertionError("child " + e + " homes on " + parent + ", its parent is "
                                        + w.relations().parent(e));
                            }
                            n[2]++;
                        }
                        for (long liked : w.relations().targets(e, likes)) {
                            if (!w.isAlive(liked)) {
                                throw new AssertionError(e + " likes dead " + liked);
                            }
                            n[3]++;
                        }
                    });
                    if (n[2] == 0 || n[3] != n[2]) {
                        throw new AssertionError("tick " + res.get(Simulation.CLOCK).tick() + ": " + n[2]
                                + " live children, " + n[3] + " Likes pairs; each live child's parent is liked once");
                    }
                    log.add("tick " + res.get(Simulation.CLOCK).tick() + " " + java.util.Arrays.toString(n)
                            + " entities " + w.entityCount());
                }))
                .build();
    }

    @Test
    void shouldResolveRefsAndCascadeDespawnsOfProvisionalParentsAlikeAfterARestoreAndInAReplay(@TempDir Path dir) throws Exception {
        FeaturePairRuns.check(ProvisionalRefsCascadeRestoreTest::build, 12, dir, 0, 2, 5, 9);
    }
}
