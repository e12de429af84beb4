package dev.orrery.bench.hierarchy;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.internal.EcsInternals;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link Forest} laid out as a fragmenting design (Flecs: one archetype, "table", per
 * {@code (ChildOf, parent)} pair) would lay it out, emulated in an Orrery world: each parent's
 * children get a distinct combination of {@link Tag} instances ({@code Tag0} .. as many as the
 * parent count needs, 14 for 16 383 parents) beside their {@link LocalTransform},
 * {@link WorldTransform} and {@link ParentRef}, so they live in an archetype of their own, with
 * its own chunks; roots have just the two transforms. Reparenting is an archetype move (the row
 * moves to the new parent's children's archetype) and the parent column is rewritten.
 *
 * <p>It does not model what a real fragmenting design adds on top (the pair ids in the table
 * type, per-table query caching, the parent's children list being its table), only the row
 * layout and the cost of moving rows, which is what the choice turns on.
 *
 * <p><b>Threading:</b> built and used on one thread.
 */
final class FragmentingWorld {
    final Forest forest;
    final World world = new World();
    final Component<LocalTransform> local = world.component(LocalTransform.class);
    final Component<WorldTransform> global = world.component(WorldTransform.class);
    final Component<ParentRef> parentRef = world.component(ParentRef.class);
    final Field lx = local.field("x");
    final Field gx = global.field("x");
    final Field parentField = parentRef.field("parent");
    final int tagCount;
    final long[] ids;
    /** The archetype of each parent's children, by the parent's creation index (null for a leaf). */
    private final Archetype[] childrenOf;
    private final Query children;

    FragmentingWorld(Forest forest) {
        this.forest = forest;
        int tags = 1;
        while ((1 << tags) - 1 < forest.parents) {
            tags++;
        }
        this.tagCount = tags;
        List<Component<Tag>> tagColumns = new ArrayList<>();
        for (int t = 0; t < tags; t++) {
            tagColumns.add(world.component(Tag.class, "Tag" + t));
        }
        this.childrenOf = new Archetype[forest.size];
        int ordinal = 0;
        for (int p = 0; p < forest.size; p++) {
            if (forest.kidStart[p] == forest.kidStart[p + 1]) {
                continue;
            }
            ordinal++; // 1 .. parents: a non-empty combination of tags per parent
            List<Component<?>> cols = new ArrayList<>(List.of(local, global, parentRef));
            for (int t = 0; t < tags; t++) {
                if ((ordinal & (1 << t)) != 0) {
                    cols.add(tagColumns.get(t));
                }
            }
            Shape shape = world.shape(cols.toArray(new Component<?>[0]));
            childrenOf[p] = EcsInternals.archetype(shape);
        }
        Archetype roots = EcsInternals.archetype(world.shape(local, global));
        this.ids = new long[forest.size];
        WorldTransform unset = new WorldTransform(0, 0, 1, 0);
        for (int i = 0; i < forest.size; i++) {
            int p = forest.parent[i];
            long e = EcsInternals.spawnZeroed(world, p < 0 ? roots : childrenOf[p]);
            world.set(e, local, new LocalTransform(forest.lx[i], forest.ly[i], forest.lc[i], forest.ls[i]));
            world.set(e, global, unset);
            if (p >= 0) {
                world.setLong(e, parentField, ids[p]);
            }
            ids[i] = e;
        }
        this.children = world.query().with(local, global, parentRef).build();
    }

    /** One read pass over every child's local and world x: the query visits one archetype per parent. */
    double childPass() {
        return TransformWorld.childPass(children, lx, gx);
    }

    /** Reparents the plan's children by archetype moves: to their new parents in even rounds, back in odd ones. */
    void reparent(int[][] plan, int round) {
        int[] movers = plan[0];
        int[] to = plan[round % 2 == 0 ? 1 : 2];
        for (int k = 0; k < movers.length; k++) {
            long e = ids[movers[k]];
            EcsInternals.moveTo(world, e, childrenOf[to[k]]);
            world.setLong(e, parentField, ids[to[k]]);
        }
    }
}
