package dev.orrery.bench.hierarchy;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.Schedule;

/**
 * (a) Orrery by id, the README's first idiom: a chunk system {@code roots} copies the local
 * transform of every entity without a parent ({@code without(childOf.column())}), then the level system
 * {@code propagate} walks the {@code ChildOf} hierarchy level by level, reading the parent's
 * world transform and the entity's local one by id through its job and writing the entity's
 * world transform ({@code job.getFloat}, {@code job.setFloat}, checked against the declared
 * reads and writes). Large levels are split into jobs on the executor's workers (adaptive
 * batching, as a system left at the default gets).
 *
 * <p><b>Threading:</b> driven by one thread; the executor's workers run the level jobs.
 */
final class LevelPropagation extends ScheduledPropagation {
    private final int workers;
    private boolean sorted;

    LevelPropagation(Forest forest, int workers) {
        super(forest);
        this.workers = workers;
        Schedule schedule = Schedule.builder(t.world)
                .system("roots").query(t.world.query().with(t.local, t.global).without(t.childOf.column()).build())
                .reads(t.local).writes(t.global).forEachChunk(this::copyRoots)
                .system("propagate").reads(t.local).writes(t.global).forEachLevel(t.childOf, (job, h, from, to) -> {
                    for (int i = from; i < to; i++) {
                        int p = h.parentSlot(i);
                        if (p < 0) {
                            continue; // a root: "roots" copied its local transform
                        }
                        long e = h.entity(i);
                        long parent = h.entity(p);
                        float px = job.getFloat(parent, t.gx);
                        float py = job.getFloat(parent, t.gy);
                        float pc = job.getFloat(parent, t.gc);
                        float ps = job.getFloat(parent, t.gs);
                        float x = job.getFloat(e, t.lx);
                        float y = job.getFloat(e, t.ly);
                        float c = job.getFloat(e, t.lc);
                        float s = job.getFloat(e, t.ls);
                        job.setFloat(e, t.gx, px + pc * x - ps * y);
                        job.setFloat(e, t.gy, py + ps * x + pc * y);
                        job.setFloat(e, t.gc, pc * c - ps * s);
                        job.setFloat(e, t.gs, ps * c + pc * s);
                    }
                })
                .build();
        start(schedule, workers);
    }

    private void copyRoots(JobContext job) {
        ChunkView v = job.chunk();
        int n = v.size();
        System.arraycopy(v.readFloats(t.lx), 0, v.writeFloats(t.gx), 0, n);
        System.arraycopy(v.readFloats(t.ly), 0, v.writeFloats(t.gy), 0, n);
        System.arraycopy(v.readFloats(t.lc), 0, v.writeFloats(t.gc), 0, n);
        System.arraycopy(v.readFloats(t.ls), 0, v.writeFloats(t.gs), 0, n);
    }

    /**
     * Sorts the children's rows into the hierarchy's slot order ({@code world.sortRows} with
     * the slot as key): each level's entities, and their parents, then sit side by side in the
     * columns. A game would redo it every so often as the pairs churn; here the pairs do not
     * change. Returns this.
     */
    LevelPropagation sortRowsInHierarchyOrder() {
        Hierarchy h = t.world.relations().hierarchy(t.childOf);
        int[] slotOf = new int[t.ids.length];
        for (int i = 0; i < h.size(); i++) {
            slotOf[Entity.index(h.entity(i))] = i;
        }
        Archetype children = EcsInternals.archetypeOf(t.world, t.ids[t.forest.kids[0]]);
        EcsInternals.sortRows(t.world, children, (chunk, row) -> slotOf[Entity.index(chunk.entity(row))]);
        sorted = true;
        return this;
    }

    @Override
    public String describe() {
        return "Orrery, level system by id, " + workers + (workers == 1 ? " worker" : " workers")
                + (sorted ? ", rows sorted in hierarchy order" : "");
    }
}
