package dev.orrery.bench.hierarchy;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The benchmark's hierarchy as plain arrays, the same for every implementation: {@code trees}
 * trees of {@code perTree} entities each, built one tree after another (as a game spawns
 * prefabs), each tree breadth first: the root always gets children, every other entity gets
 * children with probability {@value #BRANCH_CHANCE}, and an entity with children has 4 to 10
 * of them, until the tree holds {@code perTree} entities. With the defaults (1 000 trees of
 * 100) that is 100 000 entities, about 14 000 parents and 5 to 6 levels.
 *
 * <p>Entity {@code i} (creation order) has parent {@link #parent}{@code [i]} ({@code -1} for a
 * root), local transform {@code (lx, ly, lc, ls)[i]}, and its children are
 * {@code kids[kidStart[i] .. kidStart[i + 1])} in creation order: the flat baseline's
 * children lists, and the order the Orrery worlds make their pairs in.
 *
 * <p><b>Threading:</b> immutable once built.
 */
public final class Forest {
    /** The default seed: every implementation and run builds the same forest. */
    public static final long SEED = 0x5EED_F0E5L;
    /** Chance that a non-root entity has children. */
    static final double BRANCH_CHANCE = 0.3;

    final int size;
    final int trees;
    final int[] parent;
    final int[] kidStart;
    final int[] kids;
    final float[] lx;
    final float[] ly;
    final float[] lc;
    final float[] ls;
    final int parents;
    final int levels;

    /** Builds {@code trees} trees of {@code perTree} entities from {@code seed}. */
    public Forest(int trees, int perTree, long seed) {
        if (trees < 1 || perTree < 1) {
            throw new IllegalArgumentException("a forest needs at least 1 tree of 1 entity, got " + trees + " trees of "
                    + perTree);
        }
        SplittableRandom random = new SplittableRandom(seed);
        this.trees = trees;
        this.size = trees * perTree;
        this.parent = new int[size];
        int[] depth = new int[size];
        boolean[] expanded = new boolean[size];
        int n = 0;
        for (int t = 0; t < trees; t++) {
            int root = n;
            parent[n++] = -1;
            int end = root + perTree;
            while (n < end) { // passes over the tree's childless entities, breadth first, until it is full
                for (int e = root, last = n; e < last && n < end; e++) {
                    if (expanded[e] || e != root && random.nextDouble() >= BRANCH_CHANCE) {
                        continue;
                    }
                    expanded[e] = true;
                    for (int k = 4 + random.nextInt(7); k > 0 && n < end; k--) {
                        parent[n] = e;
                        depth[n] = depth[e] + 1;
                        n++;
                    }
                }
            }
        }
        this.kidStart = new int[size + 1];
        for (int i = 0; i < size; i++) {
            if (parent[i] >= 0) {
                kidStart[parent[i] + 1]++;
            }
        }
        int withKids = 0;
        for (int i = 0; i < size; i++) {
            withKids += kidStart[i + 1] > 0 ? 1 : 0;
            kidStart[i + 1] += kidStart[i];
        }
        this.parents = withKids;
        this.kids = new int[kidStart[size]];
        int[] fill = Arrays.copyOf(kidStart, size);
        for (int i = 0; i < size; i++) {
            if (parent[i] >= 0) {
                kids[fill[parent[i]]++] = i;
            }
        }
        this.levels = Arrays.stream(depth).max().orElse(0) + 1;
        this.lx = new float[size];
        this.ly = new float[size];
        this.lc = new float[size];
        this.ls = new float[size];
        for (int i = 0; i < size; i++) {
            double angle = random.nextDouble() * 2 * Math.PI;
            lx[i] = random.nextInt(200) - 100;
            ly[i] = random.nextInt(200) - 100;
            lc[i] = (float) StrictMath.cos(angle);
            ls[i] = (float) StrictMath.sin(angle);
        }
    }

    /** The default benchmark forest: 1 000 trees of 100 entities. */
    public static Forest standard() {
        return new Forest(1000, 100, SEED);
    }

    /**
     * The reparenting workload of the layout comparison: {@code count} non-root entities
     * spread evenly over the forest ({@code plan[0]}), each with a new parent ({@code plan[1]}:
     * the root of the tree half the forest away, so no move can close a cycle) and its own
     * parent to go back to ({@code plan[2]}).
     */
    int[][] reparentPlan(int count) {
        int perTree = size / trees;
        int[] movers = new int[count];
        int[] to = new int[count];
        int[] back = new int[count];
        for (int k = 0; k < count; k++) {
            int e = (int) ((long) size * k / count);
            if (parent[e] < 0) {
                e++; // a root: take its first child instead
            }
            movers[k] = e;
            to[k] = ((e / perTree + trees / 2) % trees) * perTree;
            back[k] = parent[e];
        }
        return new int[][] {movers, to, back};
    }

    /** Entities in the forest. */
    public int size() {
        return size;
    }

    /** Entities with at least one child. */
    public int parents() {
        return parents;
    }

    /** Depth of the deepest entity plus one. */
    public int levels() {
        return levels;
    }

    /** One line describing the forest's shape. */
    public String describe() {
        return size + " entities in " + trees + " trees, " + parents + " parents (4-10 children each), " + levels
                + " levels";
    }
}
