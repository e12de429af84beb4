package dev.orrery.ecs.archetype;

import dev.orrery.ecs.component.Component;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import it.unimi.dsi.fastutil.ints.IntList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * All archetypes of a world, the graph of add and remove edges between them, and the
 * component index: for each column id, the archetypes that hold it, in creation order.
 * Archetype 0 is the empty archetype. Archetypes are never destroyed, so ids and the
 * creation order (which queries and the state hash follow) only grow.
 *
 * <p><b>Threading:</b> mutated only by the thread that applies structural changes.
 */
public final class Archetypes {
    /**
     * The default chunk budget: 256 KiB, so one chunk's columns fit in L2 together while a
     * system walks them, and each field array is a long sequential stream the prefetcher
     * follows. Measured against flat arrays over 1 M entities (IterationBenchmark), 16 KiB
     * chunks (512 rows of pos+vel, Unity's size) ran 2.4-4x slower than flat arrays, 256 KiB
     * chunks 0.85-1.2x. An archetype's first chunk starts at 64 rows and doubles, so worlds
     * with many small archetypes do not pay 256 KiB for each.
     */
    public static final int DEFAULT_CHUNK_BYTES = 256 * 1024;

    private final int chunkBytes;
    private final ChangeClock clock = new ChangeClock();
    private final List<Archetype> all = new ArrayList<>();
    private final Map<ColumnSet, Archetype> bySet = new HashMap<>();
    private final List<IntArrayList> byColumn = new ArrayList<>();

    private record ColumnSet(int[] ids) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ColumnSet other && Arrays.equals(ids, other.ids);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ids);
        }
    }

    /** Creates the archetype set with the empty archetype and a chunk budget in bytes. */
    public Archetypes(int chunkBytes) {
        if (chunkBytes < 256) {
            throw new IllegalArgumentException("chunk budget " + chunkBytes + " bytes is too small; use at least 256");
        }
        this.chunkBytes = chunkBytes;
        create(new Component<?>[0]);
    }

    /** The world's change clock: the tick every row arrival and direct write stamps. */
    public ChangeClock clock() {
        return clock;
    }

    /** The archetype with no columns. */
    public Archetype empty() {
        return all.get(0);
    }

    /** Number of archetypes created so far. */
    public int count() {
        return all.size();
    }

    /** The archetype with id {@code id}. */
    public Archetype get(int id) {
        return all.get(id);
    }

    /** The ids of the archetypes that hold column {@code columnId}, in creation order. */
    public IntList withColumn(int columnId) {
        return columnId < byColumn.size() ? byColumn.get(columnId) : IntList.of();
    }

    /**
     * The archetype of {@code from} plus {@code column}, following the cached edge.
     *
     * @throws IllegalArgumentException if {@code from} already holds another instance with
     *     the same instance name (names are unique per entity)
     */
    public Archetype withAdded(Archetype from, Component<?> column) {
        MovePlan edge = from.edges.addEdge(column.id());
        if (edge != null) {
            return edge.target();
        }
        if (from.has(column.id())) {
            return from;
        }
        for (int s = 0; s < from.columnCount(); s++) {
            Component<?> other = from.component(s);
            if (other.nameHash() == column.nameHash()) {
                throw new IllegalArgumentException("cannot add " + column + ": the entity already holds " + other
                        + " under the same instance name '" + column.name() + "'; instance names are unique per entity, "
                        + "choose another name");
            }
        }
        Component<?>[] cols = Arrays.copyOf(from.componentArray(), from.columnCount() + 1);
        cols[cols.length - 1] = column;
        Arrays.sort(cols, Comparator.comparingInt(Component::id));
        Archetype to = lookupOrCreate(cols);
        from.edges.putAddEdge(column.id(), to);
        to.edges.putRemoveEdge(column.id(), from);
        return to;
    }

    /**
     * The move plan from {@code from} to {@link #withAdded}{@code (from, column)}, following
     * the cached edge: what a single-entity add uses.
     *
     * @throws IllegalArgumentException as {@link #withAdded} does
     */
    public MovePlan addPlan(Archetype from, Component<?> column) {
        MovePlan edge = from.edges.addEdge(column.id());
        return edge != null ? edge : from.planTo(withAdded(from, column));
    }

    /** The move plan from {@code from} to {@link #withRemoved}{@code (from, column)}, following the cached edge. */
    public MovePlan removePlan(Archetype from, Component<?> column) {
        MovePlan edge = from.edges.removeEdge(column.id());
        return edge != null ? edge : from.planTo(withRemoved(from, column));
    }

    /** The archetype of {@code from} without {@code column} ({@code from} itself if it lacks it). */
    public Archetype withRemoved(Archetype from, Component<?> column) {
        MovePlan edge = from.edges.removeEdge(column.id());
        if (edge != null) {
            return edge.target();
        }
        int slot = from.slotOf(column.id());
        if (slot < 0) {
            return from;
        }
        Component<?>[] src = from.componentArray();
        Component<?>[] cols = new Component<?>[src.length - 1];
        System.arraycopy(src, 0, cols, 0, slot);
        System.arraycopy(src, slot + 1, cols, slot, src.length - slot - 1);
        Archetype to = lookupOrCreate(cols);
        from.edges.putRemoveEdge(column.id(), to);
        to.edges.putAddEdge(column.id(), from);
        return to;
    }

    /**
     * The archetype with exactly these columns (any order), created if new.
     *
     * @throws IllegalArgumentException if two of the columns share an instance name
     */
    public Archetype of(Component<?>... columns) {
        Component<?>[] cols = columns.clone();
        Arrays.sort(cols, Comparator.comparingInt(Component::id));
        for (int i = 0; i < cols.length; i++) {
            for (int j = i + 1; j < cols.length; j++) {
                if (cols[i] == cols[j]) {
                    throw new IllegalArgumentException("component " + cols[i] + " is listed twice; an entity holds a "
                            + "column once, so list each column once");
                }
                if (cols[i].nameHash() == cols[j].nameHash()) {
                    throw new IllegalArgumentException(cols[i] + " (" + cols[i].type().javaClass().getName() + ") and "
                            + cols[j] + " (" + cols[j].type().javaClass().getName() + ") share the instance name '"
                            + cols[i].name() + "'; instance names are unique per entity, so register one under a "
                            + "name of its own: world.component(" + cols[j].type().javaClass().getSimpleName()
                            + ".class, \"OtherName\")");
                }
            }
        }
        return lookupOrCreate(cols);
    }

    /**
     * The chunks an archetype of these columns would hold {@code rows} rows in, appended
     * one after another: every chunk full but the last. Creates nothing, so a snapshot
     * restore checks its change section against the layout before it builds any row.
     */
    public int chunksFor(Component<?>[] columns, int rows) {
        int capacity = Archetype.capacityFor(chunkBytes, Archetype.rowBytesOf(columns));
        return (int) ((rows + (long) capacity - 1) / capacity);
    }

    private Archetype lookupOrCreate(Component<?>[] sorted) {
        int[] ids = new int[sorted.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = sorted[i].id();
        }
        Archetype a = bySet.get(new ColumnSet(ids));
        return a != null ? a : create(sorted);
    }

    private Archetype create(Component<?>[] sorted) {
        Archetype a = new Archetype(all.size(), sorted, chunkBytes, clock);
        int[] ids = new int[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            ids[i] = sorted[i].id();
            while (byColumn.size() <= ids[i]) {
                byColumn.add(new IntArrayList());
            }
            byColumn.get(ids[i]).add(a.id());
        }
        all.add(a);
        bySet.put(new ColumnSet(ids), a);
        return a;
    }
}
