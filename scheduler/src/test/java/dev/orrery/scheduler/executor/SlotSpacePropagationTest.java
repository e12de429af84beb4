package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
import dev.orrery.scheduler.check.CheckedMode;
import dev.orrery.scheduler.executor.TransformPropagationTest.LocalTransform;
import dev.orrery.scheduler.executor.TransformPropagationTest.Scene;
import dev.orrery.scheduler.executor.TransformPropagationTest.WorldTransform;
import dev.orrery.scheduler.internal.SchedulerInternals;
import org.junit.jupiter.api.Test;

/**
 * Transform propagation in slot space, the faster idiom: an exclusive system takes the
 * {@code ChildOf} {@link Hierarchy} into a resource of arrays indexed by slot, a chunk system
 * gathers every local transform into its slot ({@link Hierarchy#slotOf}), the level system
 * composes on the arrays alone, and a chunk system scatters the world transforms back. Over
 * {@link TransformPropagationTest}'s churning 20 000-entity forest it must give, after every
 * tick, world transforms equal bit for bit to the serial reference, and state hashes equal on
 * 1, 2 and 4 workers (adaptive and finely split) and equal to the by-id idiom's.
 */
class SlotSpacePropagationTest {
    /** The scratch arrays by slot: four floats a slot (x, y, cos, sin), local and world. */
    static final class SlotTransforms {
        Hierarchy hierarchy;
        float[] local = new float[0];
        float[] world = new float[0];

        /** Takes the current hierarchy and grows the arrays to it; on the world's thread. */
        void refresh(World w, Relation relation) {
            hierarchy = w.relations().hierarchy(relation);
            int need = hierarchy.size() * 4;
            if (local.length < need) {
                local = new float[need + need / 2];
                world = new float[need + need / 2];
            }
        }
    }

    static final ResourceKey<SlotTransforms> SLOTS = ResourceKey.of("slot transforms", SlotTransforms.class);

    /** Adds the four slot-space systems after the scene's churn. */
    static Schedule.Builder install(Scene s, Schedule.Builder b) {
        return installWith(s, b, true);
    }

    /** The same; {@code declareScatterRead} false leaves out scatter's {@code readsResource(SLOTS)}. */
    private static Schedule.Builder installWith(Scene s, Schedule.Builder b, boolean declareScatterRead) {
        b.resource(SLOTS, new SlotTransforms());
        Resources resources = b.resources();
        b.system("slots").exclusive(w -> resources.getForWrite(SLOTS).refresh(w, s.childOf))
                .system("gather").query(s.world.query().with(s.local).build())
                .reads(s.local).writesResource(SLOTS).forEachChunk(job -> gather(s, job))
                .system("propagate").writesResource(SLOTS).forEachLevel(s.childOf, (job, h, from, to) -> {
                    s.propagateJobs.incrementAndGet();
                    SlotTransforms st = job.resourceForWrite(SLOTS);
                    float[] l = st.local;
                    float[] g = st.world;
                    for (int i = from; i < to; i++) {
                        int k = 4 * i;
                        int p = h.parentSlot(i);
                        if (p < 0) {
                            System.arraycopy(l, k, g, k, 4); // a root
                            continue;
                        }
                        int q = 4 * p;
                        float px = g[q];
                        float py = g[q + 1];
                        float pc = g[q + 2];
                        float ps = g[q + 3];
                        float x = l[k];
                        float y = l[k + 1];
                        float c = l[k + 2];
                        float sn = l[k + 3];
                        g[k] = px + pc * x - ps * y;
                        g[k + 1] = py + ps * x + pc * y;
                        g[k + 2] = pc * c - ps * sn;
                        g[k + 3] = ps * c + pc * sn;
                    }
                });
        var scatter = b.system("scatter").query(s.world.query().with(s.local, s.global).build())
                .reads(s.local).writes(s.global);
        if (declareScatterRead) {
            scatter.readsResource(SLOTS);
        }
        return scatter.forEachChunk(job -> scatter(s, job));
    }

    private static void gather(Scene s, JobContext job) {
        SlotTransforms st = job.resourceForWrite(SLOTS);
        ChunkView v = job.chunk();
        long[] ids = v.entities();
        float[] x = v.readFloats(s.lx);
        float[] y = v.readFloats(s.ly);
        float[] c = v.readFloats(s.lc);
        float[] sn = v.readFloats(s.ls);
        for (int row = 0, n = v.size(); row < n; row++) {
            int slot = st.hierarchy.slotOf(ids[row]);
            if (slot >= 0) {
                st.local[4 * slot] = x[row];
                st.local[4 * slot + 1] = y[row];
                st.local[4 * slot + 2] = c[row];
                st.local[4 * slot + 3] = sn[row];
            }
        }
    }

    private static void scatter(Scene s, JobContext job) {
        SlotTransforms st = job.resource(SLOTS);
        ChunkView v = job.chunk();
        long[] ids = v.entities();
        float[][] local = {v.readFloats(s.lx), v.readFloats(s.ly), v.readFloats(s.lc), v.readFloats(s.ls)};
        float[][] global = {v.writeFloats(s.gx), v.writeFloats(s.gy), v.writeFloats(s.gc), v.writeFloats(s.gs)};
        for (int row = 0, n = v.size(); row < n; row++) {
            int slot = st.hierarchy.slotOf(ids[row]);
            for (int f = 0; f < 4; f++) {
                global[f][row] = slot < 0 ? local[f][row] : st.world[4 * slot + f]; // in no tree: local
            }
        }
    }

    @Test
    void shouldMatchTheSerialReferenceAndTheByIdIdiomsHashesOnAnyWorkerCount() {
        assertTrue(CheckedMode.ENABLED, "tests run in checked mode, so undeclared resource use would throw");
        long[] byId = TransformPropagationTest.run(1, Schedule.DEFAULT_MIN_BATCH_ROWS, false);
        long[] serial = TransformPropagationTest.run(SlotSpacePropagationTest::install, 1,
                Schedule.DEFAULT_MIN_BATCH_ROWS, false);
        assertArrayEquals(byId, serial, "slot space computes the by-id idiom's world, tick for tick");
        assertArrayEquals(serial, TransformPropagationTest.run(SlotSpacePropagationTest::install, 2,
                Schedule.DEFAULT_MIN_BATCH_ROWS, false), "2 workers, adaptive");
        assertArrayEquals(serial, TransformPropagationTest.run(SlotSpacePropagationTest::install, 4,
                Schedule.DEFAULT_MIN_BATCH_ROWS, false), "4 workers, adaptive");
        assertArrayEquals(serial, TransformPropagationTest.run(SlotSpacePropagationTest::install, 2, 64, true),
                "2 workers, 64 slots a job");
        assertArrayEquals(serial, TransformPropagationTest.run(SlotSpacePropagationTest::install, 4, 16, true),
                "4 workers, 16 slots a job");
    }

    @Test
    void shouldOrderGatherPropagateScatterByTheirResourceAccess() {
        Scene scene = new Scene(Schedule.DEFAULT_MIN_BATCH_ROWS, SlotSpacePropagationTest::install);
        String graph = SchedulerInternals.graph(scene.schedule).toText();
        int slots = graph.indexOf("slots");
        int gather = graph.indexOf("gather");
        int propagate = graph.indexOf("propagate");
        int scatter = graph.indexOf("scatter");
        assertTrue(slots >= 0 && slots < gather && gather < propagate && propagate < scatter, graph);
        assertTrue(graph.contains("after gather (slot transforms)") && graph.contains("after propagate (slot transforms)"),
                "propagate waits for gather and scatter for propagate, by the resource:\n" + graph);
    }

    @Test
    void shouldComposeRotationThenOffsetAndLeaveALonerAtItsLocalTransform() {
        Scene scene = new Scene(Schedule.DEFAULT_MIN_BATCH_ROWS, (s, b) -> b);
        World w = scene.world;
        long base = w.spawn(new LocalTransform(10, 0, 0, 1), new WorldTransform(0, 0, 1, 0)); // turned 90 degrees
        long arm = w.spawn(new LocalTransform(2, 0, 1, 0), new WorldTransform(0, 0, 1, 0));
        long hand = w.spawn(new LocalTransform(0, 3, 1, 0), new WorldTransform(0, 0, 1, 0));
        long loner = w.spawn(new LocalTransform(5, 6, 0, -1), new WorldTransform(0, 0, 1, 0));
        w.relations().add(arm, scene.childOf, base);
        w.relations().add(hand, scene.childOf, arm);
        Schedule only = install(scene, Schedule.builder(w)).build();
        try (ScheduleExecutor executor = only.executor(2)) {
            executor.run();
        }
        assertEquals(new WorldTransform(10, 2, 0, 1), w.get(arm, scene.global), "2 along x, turned 90: 2 along y");
        assertEquals(new WorldTransform(7, 2, 0, 1), w.get(hand, scene.global), "3 along y, turned 90: -3 along x");
        assertEquals(new WorldTransform(5, 6, 0, -1), w.get(loner, scene.global), "in no tree: its local transform");
        assertEquals(0, scene.mismatches(), "every entity of the scene's forest too");
    }

    @Test
    void shouldRefuseAScatterThatDidNotDeclareItsResourceRead() {
        Scene scene = new Scene(Schedule.DEFAULT_MIN_BATCH_ROWS, (s, b) -> installWith(s, b, false));
        try (ScheduleExecutor executor = scene.schedule.executor(2)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            Throwable cause = e;
            while (cause != null && !(cause instanceof UndeclaredResourceAccessException)) {
                cause = cause.getCause();
            }
            assertTrue(cause != null && cause.getMessage().contains("scatter")
                    && cause.getMessage().contains("slot transforms"), String.valueOf(e));
        }
    }
}
