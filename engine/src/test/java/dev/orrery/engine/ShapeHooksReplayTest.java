package dev.orrery.engine;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prepared shapes spawning every way ({@code spawn(values)}, {@code spawnRow()},
 * {@code spawnMany(n, writer)} in an exclusive system; {@code commands.spawn(shape)} with its
 * field writes in a job, 600 at once so playback takes the parallel-spawn path) next to
 * observer hooks that read the values they see, an {@code onRemove} hook with the value that
 * left, and a removal log of the shape's column read later in the tick. What the hooks and the
 * log saw must be what the documentation promises (a {@code spawnRow()} hook sees zeros, the
 * others see the written values) and the same after a restore on 1 and 2 workers and in a replay.
 */
class ShapeHooksReplayTest {
    record Pos(float x) {
    }

    record Vel(int v) {
    }

    static Simulation build(int workers, boolean populate, FeaturePairRuns.Log log) {
        World world = new World(256);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        Field px = pos.field("x");
        Field vv = vel.field("v");
        Shape bolt = world.shape(pos, vel);
        world.trackRemoved(vel);
        long[] added = new long[3];  // hooks this tick: count, sum of v seen, sum of x seen
        long[] removed = new long[2];  // onRemove this tick: count, sum of the last v
        world.observe(vel).onAdd((w, e, commands) -> {
            added[0]++;
            added[1] += w.getInt(e, vv);
            added[2] += (long) w.getFloat(e, px);
            float x = w.getFloat(e, px);
            int v = w.getInt(e, vv);
            if (x >= 1000 && x < 2000 && v != 7 || x == 2000 && v != 9) {
                throw new AssertionError("onAdd of a commands.spawn(shape) of " + e + " saw v " + v + " x " + x);
            }
        }).onRemove((w, e, last, commands) -> {
            removed[0]++;
            removed[1] += last.v();
            if (last.v() == 7) {
                long heir = commands.spawn(bolt);    // a hook's own shape spawn, with its field writes
                commands.setInt(heir, vv, 9);
                commands.setFloat(heir, px, 2000);
            }
        });
        if (populate) {
            for (int i = 0; i < 40; i++) {
                bolt.spawn(new Pos(i), new Vel(i % 5));
            }
            added[0] = 0;  // the set-up's hooks are no tick's
            added[1] = 0;
            added[2] = 0;
        }
        SimulationBuilder builder = Simulation.builder(world).seed(4).workers(workers).hashEvery(1);
        var res = builder.resources();
        return builder.systems(s -> s
                .system("fire").inPhase(Phase.PRE_UPDATE).query(world.query().with(pos, vel).build()).reads(pos)
                .spawns(pos, vel).readsResource(Simulation.CLOCK).forEachChunk(job -> {
                    long t = job.resource(Simulation.CLOCK).tick();
                    int n = t % 3 == 1 ? 600 : 3;
                    if (job.chunkOrdinal() != 0) {
                        return;
                    }
                    CommandBuffer cmd = job.commands();
                    for (int i = 0; i < n; i++) {
                        long b = cmd.spawn(bolt);
                        cmd.setFloat(b, px, 1000 + i);
                        cmd.setInt(b, vv, 7);
                    }
                })
                .system("reap").inPhase(Phase.UPDATE).query(world.query().with(pos, vel).build()).reads(vel)
                .despawns().readsResource(Simulation.CLOCK).forEachChunk(job -> {
                    long t = job.resource(Simulation.CLOCK).tick();
                    int[] v = job.chunk().readInts(vv);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        if ((v[i] + t) % 4 == 0 || v[i] == 7) {
                            job.commands().despawn(job.chunk().entity(i));
                        }
                    }
                })
                .system("direct").inPhase(Phase.UPDATE).after("reap").exclusive(w -> {
                    long t = res.get(Simulation.CLOCK).tick();
                    long[] before = added.clone();
                    bolt.spawn(new Pos(t), new Vel(3));
                    log.add("tick " + t + " spawn(values) hook saw v " + (added[1] - before[1]));
                    before = added.clone();
                    bolt.spawnRow().setInt(vv, 5).setFloat(px, 9);
                    log.add("tick " + t + " spawnRow hook saw v " + (added[1] - before[1]) + " x "
                            + (added[2] - before[2]));
                    before = added.clone();
                    bolt.spawnMany(4, (rows, from, to, first) -> {
                        int[] v = rows.writeInts(vv);
                        for (int r = from; r < to; r++) {
                            v[r] = 2;
                        }
                    });
                    log.add("tick " + t + " spawnMany hooks " + (added[0] - before[0]) + " saw v "
                            + (added[1] - before[1]));
                })
                .system("report").inPhase(Phase.POST_UPDATE).reads(vel).exclusive((w, job) -> {
                    RemovedEntities gone = job.removed(vel);
                    long sum = 0;
                    for (int i = 0; i < gone.count(); i++) {
                        sum += gone.entity(i) * 31 + gone.tick(i);
                    }
                    log.add("tick " + res.get(Simulation.CLOCK).tick() + " added " + added[0] + "/" + added[1] + "/"
                            + added[2] + " removed " + removed[0] + "/" + removed[1] + " log " + gone.count() + "/"
                            + sum);
                    java.util.Arrays.fill(added, 0);
                    java.util.Arrays.fill(removed, 0);
                }))
                .build();
    }

    @Test
    void shapeSpawnsFireTheSameHooksAndRemovalsAfterARestoreAndInAReplay(@TempDir Path dir) throws Exception {
        FeaturePairRuns.check(ShapeHooksReplayTest::build, 10, dir, 0, 1, 2, 5);
    }
}
