package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.LevelSystem;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Transform propagation, the worked example of a level system: every entity has a
 * {@link LocalTransform} (offset and rotation relative to its parent) and a
 * {@link WorldTransform}, which is its parent's world transform composed with its local one
 * (a root's is its local one). A 20 000-entity forest churns every tick (subtrees regrafted
 * directly by an exclusive system and to roots by pair commands from chunk jobs, leaves
 * spawned, every local transform turned); after every tick the world transforms must equal,
 * bit for bit, a straightforward serial walk up the parents computed here, and the state hash
 * must be the single-threaded executor's, on 1, 2 and 4 workers with adaptive and with fine
 * splits.
 */
class TransformPropagationTest {
    /**
     * A transform relative to the parent: offset {@code (x, y)} and rotation as the unit
     * vector {@code (cos, sin)}, so composing is multiplies and adds only (bitwise
     * reproducible, unlike {@code Math.sin}).
     */
    record LocalTransform(float x, float y, float cos, float sin) {
        static LocalTransform of(float x, float y, double angle) {
            return new LocalTransform(x, y, (float) StrictMath.cos(angle), (float) StrictMath.sin(angle));
        }
    }

    /** The transform in world space, written by the propagation. */
    record WorldTransform(float x, float y, float cos, float sin) {
    }

    static final int SIZE = 20_000;
    static final int ROOTS = 200;
    static final int TICKS = 25;
    /** A turn of about 0.6 degrees, applied to every local transform each tick. */
    static final float TURN_COS = (float) StrictMath.cos(0.01);
    static final float TURN_SIN = (float) StrictMath.sin(0.01);

    /** A way to compute the world transforms: the systems it adds after the scene's churn. */
    @FunctionalInterface
    interface Idiom {
        /** Adds the propagation's systems for {@code scene} to {@code builder}; returns the builder. */
        Schedule.Builder install(Scene scene, Schedule.Builder builder);
    }

    /** The forest, its churn and the propagation, as one schedule. */
    static final class Scene {
        final World world = new World(16 * 1024);
        final Component<LocalTransform> local = world.component(LocalTransform.class);
        final Component<WorldTransform> global = world.component(WorldTransform.class);
        final Field lx = local.field("x");
        final Field ly = local.field("y");
        final Field lc = local.field("cos");
        final Field ls = local.field("sin");
        final Field gx = global.field("x");
        final Field gy = global.field("y");
        final Field gc = global.field("cos");
        final Field gs = global.field("sin");
        final Relation childOf = world.relations().childOf();
        final long[] roots = new long[ROOTS];
        final List<Long> all = new ArrayList<>();
        final List<Long> nonRoots = new ArrayList<>();
        final AtomicInteger propagateJobs = new AtomicInteger();
        final Schedule schedule;
        int tick;

        Scene(int minBatchRows) {
            this(minBatchRows, Scene::propagateById);
        }

        /** The scene with its world transforms computed by {@code idiom}'s systems, after the churn. */
        Scene(int minBatchRows, Idiom idiom) {
            SplittableRandom random = new SplittableRandom(42);
            for (int i = 0; i < SIZE; i++) {
                long e = world.spawn(LocalTransform.of(random.nextInt(100) - 50, random.nextInt(100) - 50,
                        random.nextDouble() * 6.283), new WorldTransform(0, 0, 1, 0));
                if (i < ROOTS) {
                    roots[i] = e;
                } else {
                    world.relations().add(e, childOf, all.get(random.nextInt(all.size())));
                    nonRoots.add(e);
                }
                all.add(e);
            }
            Schedule.Builder churn = Schedule.builder(world).minBatchRows(minBatchRows)
                    .system("graft").inPhase(Phase.PRE_UPDATE).exclusive(w -> graft())
                    .system("turn").query(world.query().with(local).build()).writes(local).forEachChunk(this::turn)
                    .system("regraft").query(world.query().with(childOf.column()).build()).adds(childOf.column())
                    .forEachChunk(this::regraft);
            schedule = idiom.install(this, churn).build();
        }

        /** The README idiom: "roots" copies parentless entities, the level system reads and writes by id. */
        private static Schedule.Builder propagateById(Scene s, Schedule.Builder b) {
            return b.system("roots").query(s.world.query().with(s.local, s.global).without(s.childOf.column()).build())
                    .reads(s.local).writes(s.global).forEachChunk(s::copyRoots)
                    .system("propagate").reads(s.local).writes(s.global).forEachLevel(s.childOf, s.propagate());
        }

        /** Moves 20 random subtrees under random entities not inside them, and spawns 3 leaves. */
        private void graft() {
            for (int k = 0; k < 20; k++) {
                long x = nonRoots.get(StructuralDeterminismTest.roll(k, tick) % nonRoots.size());
                long y = all.get(StructuralDeterminismTest.roll(k + 1000, tick) % all.size());
                if (!isAncestorOrSelf(x, y)) {
                    world.relations().add(x, childOf, y);
                }
            }
            for (int k = 0; k < 3; k++) {
                long parent = all.get(StructuralDeterminismTest.roll(k + 2000, tick) % all.size());
                long leaf = world.spawn(LocalTransform.of(k, -k, tick * 0.1), new WorldTransform(0, 0, 1, 0));
                world.relations().add(leaf, childOf, parent);
                nonRoots.add(leaf);
                all.add(leaf);
            }
        }

        private boolean isAncestorOrSelf(long ancestor, long e) {
            for (long p = e; p != Entity.NULL; p = world.relations().parent(p)) {
                if (p == ancestor) {
                    return true;
                }
            }
            return false;
        }

        /** Turns every local transform a little and nudges its offset. */
        private void turn(JobContext job) {
            ChunkView v = job.chunk();
            float[] x = v.writeFloats(lx);
            float[] c = v.writeFloats(lc);
            float[] s = v.writeFloats(ls);
            for (int i = 0, n = v.size(); i < n; i++) {
                float c0 = c[i];
                c[i] = c0 * TURN_COS - s[i] * TURN_SIN;
                s[i] = s[i] * TURN_COS + c0 * TURN_SIN;
                x[i] += 0.25f;
            }
        }

        /** About one child in a hundred moves to a root (never a cycle: roots hold no pair). */
        private void regraft(JobContext job) {
            ChunkView v = job.chunk();
            for (int i = 0, n = v.size(); i < n; i++) {
                long e = v.entity(i);
                int roll = StructuralDeterminismTest.roll(e, tick);
                if (roll % 101 == 0) {
                    job.commands().addPair(e, childOf, roots[(roll >>> 8) % roots.length]);
                }
            }
        }

        /** An entity without a parent (a root, or a lone one) is where its local transform says. */
        private void copyRoots(JobContext job) {
            ChunkView v = job.chunk();
            Field[] from = {lx, ly, lc, ls};
            Field[] to = {gx, gy, gc, gs};
            for (int f = 0; f < 4; f++) {
                System.arraycopy(v.readFloats(from[f]), 0, v.writeFloats(to[f]), 0, v.size());
            }
        }

        /** The propagation, as the README shows it: each child's world is its parent's composed with its local. */
        private LevelSystem propagate() {
            return (job, h, from, to) -> {
                propagateJobs.incrementAndGet();
                for (int i = from; i < to; i++) {
                    int p = h.parentSlot(i);
                    if (p < 0) {
                        continue; // a root: "roots" copied its local transform
                    }
                    long e = h.entity(i);
                    long parent = h.entity(p);
                    float px = job.getFloat(parent, gx);
                    float py = job.getFloat(parent, gy);
                    float pc = job.getFloat(parent, gc);
                    float ps = job.getFloat(parent, gs);
                    float x = job.getFloat(e, lx);
                    float y = job.getFloat(e, ly);
                    float c = job.getFloat(e, lc);
                    float s = job.getFloat(e, ls);
                    job.setFloat(e, gx, px + pc * x - ps * y);
                    job.setFloat(e, gy, py + ps * x + pc * y);
                    job.setFloat(e, gc, pc * c - ps * s);
                    job.setFloat(e, gs, ps * c + pc * s);
                }
            };
        }

        /**
         * The reference: each entity's world transform by walking up its parents, one entity at
         * a time, from the world's local transforms and pairs alone. Compares every entity's
         * world transform with it bit for bit; returns how many differ.
         */
        int mismatches() {
            Map<Long, float[]> memo = new HashMap<>();
            int bad = 0;
            for (long e : all) {
                float[] want = reference(e, memo);
                WorldTransform got = world.get(e, global);
                if (Float.floatToRawIntBits(want[0]) != Float.floatToRawIntBits(got.x())
                        || Float.floatToRawIntBits(want[1]) != Float.floatToRawIntBits(got.y())
                        || Float.floatToRawIntBits(want[2]) != Float.floatToRawIntBits(got.cos())
                        || Float.floatToRawIntBits(want[3]) != Float.floatToRawIntBits(got.sin())) {
                    bad++;
                }
            }
            return bad;
        }

        private float[] reference(long e, Map<Long, float[]> memo) {
            float[] known = memo.get(e);
            if (known != null) {
                return known;
            }
            LocalTransform l = world.get(e, local);
            long parent = world.relations().parent(e);
            float[] w;
            if (parent == Entity.NULL) {
                w = new float[] {l.x(), l.y(), l.cos(), l.sin()};
            } else {
                float[] p = reference(parent, memo);
                w = new float[] {
                    p[0] + p[2] * l.x() - p[3] * l.y(),
                    p[1] + p[3] * l.x() + p[2] * l.y(),
                    p[2] * l.cos() - p[3] * l.sin(),
                    p[3] * l.cos() + p[2] * l.sin(),
                };
            }
            memo.put(e, w);
            return w;
        }
    }

    /** The state hash after each tick with the README idiom (by id), checking the reference after each. */
    static long[] run(int workers, int minBatchRows, boolean expectSplit) {
        return run(Scene::propagateById, workers, minBatchRows, expectSplit);
    }

    /**
     * The state hash after each tick with the world transforms computed by {@code idiom},
     * checking them against the serial reference after each tick (and, with
     * {@code expectSplit}, that the level walk ran as more jobs than levels).
     */
    static long[] run(Idiom idiom, int workers, int minBatchRows, boolean expectSplit) {
        Scene scene = new Scene(minBatchRows, idiom);
        long[] hashes = new long[TICKS];
        try (ScheduleExecutor executor = scene.schedule.executor(workers)) {
            for (int t = 0; t < TICKS; t++) {
                scene.tick = t;
                scene.propagateJobs.set(0);
                executor.run();
                assertEquals(0, scene.mismatches(), "world transforms differing from the serial reference after tick "
                        + t + " on " + workers + " workers, minBatchRows " + minBatchRows);
                hashes[t] = scene.world.stateHash();
                if (expectSplit) {
                    int levels = scene.world.relations().hierarchy(scene.childOf).levels();
                    assertTrue(scene.propagateJobs.get() > levels, "levels split into several jobs: "
                            + scene.propagateJobs.get() + " body calls over " + levels + " levels");
                }
            }
        }
        assertTrue(scene.world.entityCount() == SIZE + 3 * TICKS, "leaves spawned, nothing lost");
        return hashes;
    }

    @Test
    void shouldMatchTheSerialReferenceAndTheSingleThreadedHashOnAnyWorkerCount() {
        long[] serial = run(1, Schedule.DEFAULT_MIN_BATCH_ROWS, false);
        assertArrayEquals(serial, run(2, Schedule.DEFAULT_MIN_BATCH_ROWS, false), "2 workers, adaptive");
        assertArrayEquals(serial, run(4, Schedule.DEFAULT_MIN_BATCH_ROWS, false), "4 workers, adaptive");
        assertArrayEquals(serial, run(2, 64, true), "2 workers, 64 slots a job");
        assertArrayEquals(serial, run(4, 16, true), "4 workers, 16 slots a job");
    }

    @Test
    void shouldComposeRotationThenOffset() {
        Scene scene = new Scene(Schedule.DEFAULT_MIN_BATCH_ROWS);
        World w = scene.world;
        long base = w.spawn(new LocalTransform(10, 0, 0, 1), new WorldTransform(0, 0, 1, 0)); // turned 90 degrees
        long arm = w.spawn(new LocalTransform(2, 0, 1, 0), new WorldTransform(0, 0, 1, 0));
        long hand = w.spawn(new LocalTransform(0, 3, 1, 0), new WorldTransform(0, 0, 1, 0));
        w.relations().add(arm, scene.childOf, base);
        w.relations().add(hand, scene.childOf, arm);
        Schedule only = Schedule.builder(w)
                .system("roots").query(w.query().with(scene.local, scene.global).without(scene.childOf.column()).build())
                .reads(scene.local).writes(scene.global).forEachChunk(scene::copyRoots)
                .system("propagate").reads(scene.local).writes(scene.global).forEachLevel(scene.childOf,
                        scene.propagate())
                .build();
        try (ScheduleExecutor executor = only.executor(2)) {
            executor.run();
        }
        assertEquals(new WorldTransform(10, 2, 0, 1), w.get(arm, scene.global), "2 along x, turned 90: 2 along y");
        assertEquals(new WorldTransform(7, 2, 0, 1), w.get(hand, scene.global), "3 along y, turned 90: -3 along x");
    }
}
