package dev.orrery.bench.hierarchy;

import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.World;
import dev.orrery.scheduler.Schedule;

/**
 * (b) Orrery without the level system: one exclusive system walks the {@code ChildOf}
 * {@link Hierarchy} slot by slot (a parent's slot is always before its children's) and reads
 * and writes the transforms by id through the world ({@code world.getFloat},
 * {@code world.setFloat}, each checked: alive, field rules, change stamps).
 *
 * <p><b>Threading:</b> single-threaded: the exclusive system runs on the caller.
 */
final class SerialPropagation extends ScheduledPropagation {

    SerialPropagation(Forest forest) {
        super(forest);
        Schedule schedule = Schedule.builder(t.world)
                .system("propagate").exclusive(this::walk)
                .build();
        start(schedule, 1);
    }

    private void walk(World w) {
        Hierarchy h = w.relations().hierarchy(t.childOf);
        for (int i = 0, n = h.size(); i < n; i++) {
            long e = h.entity(i);
            int p = h.parentSlot(i);
            float x = w.getFloat(e, t.lx);
            float y = w.getFloat(e, t.ly);
            float c = w.getFloat(e, t.lc);
            float s = w.getFloat(e, t.ls);
            if (p < 0) {
                w.setFloat(e, t.gx, x);
                w.setFloat(e, t.gy, y);
                w.setFloat(e, t.gc, c);
                w.setFloat(e, t.gs, s);
                continue;
            }
            long parent = h.entity(p);
            float px = w.getFloat(parent, t.gx);
            float py = w.getFloat(parent, t.gy);
            float pc = w.getFloat(parent, t.gc);
            float ps = w.getFloat(parent, t.gs);
            w.setFloat(e, t.gx, px + pc * x - ps * y);
            w.setFloat(e, t.gy, py + ps * x + pc * y);
            w.setFloat(e, t.gc, pc * c - ps * s);
            w.setFloat(e, t.gs, ps * c + pc * s);
        }
    }

    @Override
    public String describe() {
        return "Orrery, exclusive system walking the Hierarchy, by id through the world";
    }
}
