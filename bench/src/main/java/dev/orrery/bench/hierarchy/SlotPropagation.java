package dev.orrery.bench.hierarchy;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;

/**
 * (d) Orrery in slot space, the root README's idiom: the propagation runs on arrays indexed
 * by {@link Hierarchy} slot (a {@link SlotTransforms} resource), and the components are
 * touched only by chunk loops in row order. Four systems, in this order:
 *
 * <ol>
 *   <li>{@code slots} (exclusive, so on the world's thread with no job out): takes the
 *       {@code ChildOf} hierarchy into the resource and sizes its arrays;</li>
 *   <li>{@code gather} (chunk system, {@code reads(local).writesResource(SLOTS)}): copies each
 *       entity's local transform to its slot ({@code h.slotOf(entity)}); the jobs write
 *       disjoint slots;</li>
 *   <li>{@code propagate} (level system, {@code writesResource(SLOTS)}): world[slot] =
 *       world[parentSlot] composed with local[slot], on the arrays only, no by-id call;</li>
 *   <li>{@code scatter} (chunk system, {@code reads(local).writes(global).readsResource(SLOTS)}):
 *       writes each entity's world transform from its slot (an entity in no tree: its local
 *       transform).</li>
 * </ol>
 *
 * The declared resource access orders them (gather and propagate write the resource, scatter
 * reads it), and checked mode verifies each job's use of it.
 *
 * <p><b>Threading:</b> driven by one thread; the executor's workers run the jobs.
 */
final class SlotPropagation extends ScheduledPropagation {
    private final int workers;

    SlotPropagation(Forest forest, int workers) {
        this(forest, workers, Schedule.DEFAULT_MIN_BATCH_ROWS);
    }

    /** With a fixed {@code minBatchRows} (the tests: fine splits on a small forest). */
    SlotPropagation(Forest forest, int workers, int minBatchRows) {
        super(forest);
        this.workers = workers;
        Schedule.Builder b = Schedule.builder(t.world).minBatchRows(minBatchRows)
                .resource(SlotTransforms.KEY, new SlotTransforms());
        Resources resources = b.resources();
        Schedule schedule = b
                .system("slots").exclusive(w -> resources.getForWrite(SlotTransforms.KEY).refresh(w, t.childOf))
                .system("gather").query(t.world.query().with(t.local).build())
                .reads(t.local).writesResource(SlotTransforms.KEY).forEachChunk(this::gather)
                .system("propagate").writesResource(SlotTransforms.KEY).forEachLevel(t.childOf, this::propagate)
                .system("scatter").query(t.world.query().with(t.local, t.global).build())
                .reads(t.local).writes(t.global).readsResource(SlotTransforms.KEY).forEachChunk(this::scatter)
                .build();
        start(schedule, workers);
    }

    /** Local transforms, rows to slots. */
    private void gather(JobContext job) {
        SlotTransforms st = job.resourceForWrite(SlotTransforms.KEY);
        Hierarchy h = st.hierarchy;
        float[] out = st.local;
        ChunkView v = job.chunk();
        long[] ids = v.entities();
        float[] x = v.readFloats(t.lx);
        float[] y = v.readFloats(t.ly);
        float[] c = v.readFloats(t.lc);
        float[] s = v.readFloats(t.ls);
        for (int row = 0, n = v.size(); row < n; row++) {
            int slot = h.slotOf(ids[row]);
            if (slot >= 0) {
                int k = slot * SlotTransforms.STRIDE;
                out[k] = x[row];
                out[k + 1] = y[row];
                out[k + 2] = c[row];
                out[k + 3] = s[row];
            }
        }
    }

    /** World transforms of slots {@code [from, to)}, from their parents' (a level earlier) and their locals. */
    private void propagate(JobContext job, Hierarchy h, int from, int to) {
        SlotTransforms st = job.resourceForWrite(SlotTransforms.KEY);
        float[] l = st.local;
        float[] g = st.world;
        for (int i = from; i < to; i++) {
            int k = i * SlotTransforms.STRIDE;
            float x = l[k];
            float y = l[k + 1];
            float c = l[k + 2];
            float s = l[k + 3];
            int p = h.parentSlot(i);
            if (p < 0) {
                g[k] = x;
                g[k + 1] = y;
                g[k + 2] = c;
                g[k + 3] = s;
                continue;
            }
            int q = p * SlotTransforms.STRIDE;
            float px = g[q];
            float py = g[q + 1];
            float pc = g[q + 2];
            float ps = g[q + 3];
            g[k] = px + pc * x - ps * y;
            g[k + 1] = py + ps * x + pc * y;
            g[k + 2] = pc * c - ps * s;
            g[k + 3] = ps * c + pc * s;
        }
    }

    /** World transforms, slots to rows; an entity in no tree is where its local transform says. */
    private void scatter(JobContext job) {
        SlotTransforms st = job.resource(SlotTransforms.KEY);
        Hierarchy h = st.hierarchy;
        float[] in = st.world;
        ChunkView v = job.chunk();
        long[] ids = v.entities();
        float[] x = v.writeFloats(t.gx);
        float[] y = v.writeFloats(t.gy);
        float[] c = v.writeFloats(t.gc);
        float[] s = v.writeFloats(t.gs);
        float[] lx = v.readFloats(t.lx);
        float[] ly = v.readFloats(t.ly);
        float[] lc = v.readFloats(t.lc);
        float[] ls = v.readFloats(t.ls);
        for (int row = 0, n = v.size(); row < n; row++) {
            int slot = h.slotOf(ids[row]);
            if (slot < 0) {
                x[row] = lx[row];
                y[row] = ly[row];
                c[row] = lc[row];
                s[row] = ls[row];
                continue;
            }
            int k = slot * SlotTransforms.STRIDE;
            x[row] = in[k];
            y[row] = in[k + 1];
            c[row] = in[k + 2];
            s[row] = in[k + 3];
        }
    }

    @Override
    public String describe() {
        return "Orrery, slot space (gather, level walk over slot arrays, scatter), " + workers
                + (workers == 1 ? " worker" : " workers");
    }
}
