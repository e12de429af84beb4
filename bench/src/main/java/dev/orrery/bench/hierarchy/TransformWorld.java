package dev.orrery.bench.hierarchy;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;

/**
 * The {@link Forest} in an Orrery world as Orrery stores pairs (non-fragmenting): every
 * entity holds a {@link LocalTransform} and a {@link WorldTransform}, every child also the
 * {@code ChildOf} marker column, so all children share one archetype whatever their parent;
 * the pairs (made in creation order, so each parent's children are in creation order) live in
 * the relation store.
 *
 * <p>Also the non-fragmenting side of the layout comparison: {@link #childPass} reads every
 * child through a query, {@link #reparent} moves the {@link Forest#reparentPlan} children.
 *
 * <p><b>Threading:</b> built and used on one thread (the executors that walk it run their
 * jobs on their workers).
 */
final class TransformWorld {
    final Forest forest;
    final World world = new World();
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
    /** Entity ids by creation index. */
    final long[] ids;
    private final Query children;

    TransformWorld(Forest forest) {
        this.forest = forest;
        this.ids = new long[forest.size];
        WorldTransform unset = new WorldTransform(0, 0, 1, 0);
        for (int i = 0; i < forest.size; i++) {
            ids[i] = world.spawn(new LocalTransform(forest.lx[i], forest.ly[i], forest.lc[i], forest.ls[i]), unset);
        }
        for (int i = 0; i < forest.size; i++) {
            if (forest.parent[i] >= 0) {
                world.relations().add(ids[i], childOf, ids[forest.parent[i]]);
            }
        }
        this.children = world.query().with(local, global, childOf.column()).build();
    }

    /** A mix of every entity's world transform bits, in creation order. */
    long checksum() {
        long h = 17;
        for (long e : ids) {
            h = Propagation.mix(h, world.getFloat(e, gx), world.getFloat(e, gy), world.getFloat(e, gc),
                    world.getFloat(e, gs));
        }
        return h;
    }

    /** One read pass over every child's local and world x (the query over {@code (ChildOf, *)}). */
    double childPass() {
        return childPass(children, lx, gx);
    }

    /**
     * One read pass over {@code children}'s {@code lx} and {@code gx}: the loop both layouts run
     * ({@link FragmentingWorld#childPass} too), so they differ only in the chunks it visits.
     */
    static double childPass(Query children, Field lx, Field gx) {
        double[] sum = new double[1];
        children.forEachChunk(v -> {
            float[] x = v.readFloats(lx);
            float[] wx = v.readFloats(gx);
            double s = 0;
            for (int i = 0, n = v.size(); i < n; i++) {
                s += x[i] + wx[i];
            }
            sum[0] += s;
        });
        return sum[0];
    }

    /** Reparents the plan's children: to their new parents in even rounds, back in odd ones. */
    void reparent(int[][] plan, int round) {
        int[] movers = plan[0];
        int[] to = plan[round % 2 == 0 ? 1 : 2];
        for (int k = 0; k < movers.length; k++) {
            world.relations().add(ids[movers[k]], childOf, ids[to[k]]);
        }
    }
}
