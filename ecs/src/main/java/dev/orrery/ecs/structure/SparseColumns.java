package dev.orrery.ecs.structure;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.prototype.NamedInstances;
import dev.orrery.ecs.storage.SparseColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A world's sparse columns ({@link dev.orrery.ecs.component.Storage#SPARSE}): one
 * {@link SparseColumn} per sparse column id, made on first use. How many sparse columns an
 * entity holds (what a despawn asks first) is read from the sets themselves while the world
 * has at most {@value #SCAN_LIMIT} of them: a despawn then asks each set once, and a warm
 * add or remove updates no per-entity count (keeping it cost about 5% of a one-by-one sparse
 * add and remove, measured with {@code PeerAddRemoveBenchmark}). With more sets a count per
 * entity index is kept from then on (built from the sets' members when the limit is
 * passed), so a despawn of an entity with none costs one load however many sparse columns
 * the world has. Sparse instances stay out of the {@link dev.orrery.ecs.prototype.NamedInstances prototype index}: the registry keeps
 * a sparse column's instance name unique in the world, so a name look-up that the index does
 * not answer asks the one sparse set of that name ({@link #has}), and an add or remove here
 * leaves the entity's prototype as it was.
 *
 * <p>{@code World} checks the owner thread, the structure lock and that the entity is alive
 * before it calls the mutators; nothing here checks them again.
 *
 * <p><b>Threading:</b> as {@link SparseColumn}: one writer, the thread applying structural
 * changes; readers (jobs reading values, the state hash) while no structural change runs.
 */
public final class SparseColumns implements NamedInstances.SparseMembers {
    private final ComponentRegistry registry;
    /** The most sets whose membership {@link #heldBy} and {@link #despawned} scan instead of keeping counts. */
    static final int SCAN_LIMIT = 4;

    private SparseColumn[] byId = new SparseColumn[16];
    // The sets made so far, in the order they were made: what the scan walks.
    private SparseColumn[] made = new SparseColumn[SCAN_LIMIT];
    private int madeCount;
    // Per entity index, how many sparse columns it holds; null while madeCount <= SCAN_LIMIT.
    private int[] held;

    /** The sparse storage of a world whose columns come from {@code registry}. */
    public SparseColumns(ComponentRegistry registry) {
        this.registry = registry;
    }

    /** True when the world registered at least one sparse column (false: every sparse path is skipped). */
    public boolean any() {
        return registry.sparseColumnCount() != 0;
    }

    /**
     * The set of sparse column {@code column}. The world makes it when the column is
     * registered, on the owner's thread, so jobs reading it on workers find it made; a column
     * registered otherwise gets its set here on first use, which only the owner may cause.
     *
     * @throws IllegalArgumentException if the column is a table column or another world's
     */
    public SparseColumn of(Component<?> column) {
        int id = column.id();
        SparseColumn s = id < byId.length ? byId[id] : null;
        if (s != null && s.column() == column) {
            return s;
        }
        return create(column);
    }

    /** Whether {@code column}'s set has been made (tests). */
    boolean made(Component<?> column) {
        int id = column.id();
        return id < byId.length && byId[id] != null && byId[id].column() == column;
    }

    private SparseColumn create(Component<?> column) {
        int id = column.id();
        if (!registry.owns(column)) {
            throw new IllegalArgumentException("component " + column + " was registered by another world; use this "
                    + "world's component handles");
        }
        if (!column.isSparse()) {
            throw new IllegalArgumentException("component " + column + " uses " + column.storage()
                    + " storage, not SPARSE");
        }
        if (id >= byId.length) {
            byId = Arrays.copyOf(byId, Math.max(id + 1, byId.length * 2));
        }
        SparseColumn s = new SparseColumn(column);
        byId[id] = s;
        if (madeCount == made.length) {
            made = Arrays.copyOf(made, made.length * 2);
        }
        made[madeCount++] = s;
        if (madeCount > SCAN_LIMIT && held == null) {
            held = countHeld();
        }
        return s;
    }

    /** The per-entity-index counts of the sets made so far, from their members. */
    private int[] countHeld() {
        int[] counts = new int[1024];
        for (int k = 0; k < madeCount; k++) {
            SparseColumn s = made[k];
            for (int p = 0, n = s.size(); p < n; p++) {
                int index = Entity.index(s.entity(p));
                if (index >= counts.length) {
                    counts = Arrays.copyOf(counts, Math.max(index + 1, counts.length * 2));
                }
                counts[index]++;
            }
        }
        return counts;
    }

    /** One more than the highest column id {@link #inIdOrder(int)} can be asked for. */
    public int idLimit() {
        return registry.columnCount();
    }

    /**
     * The sparse column with id {@code id} (its set made if need be), or {@code null} when that
     * column is not sparse: {@link #inIdOrder()} one id at a time, without the list, for the
     * state hash that a simulation takes every tick.
     */
    public SparseColumn inIdOrder(int id) {
        Component<?> c = registry.column(id);
        return c.isSparse() ? of(c) : null;
    }

    /** Every sparse column of the world in column-id order (their sets made if need be): the hash's and snapshot's order. */
    public List<SparseColumn> inIdOrder() {
        List<SparseColumn> out = new ArrayList<>();
        if (!any()) {
            return out;
        }
        for (Component<?> c : registry.columns()) {
            if (c.isSparse()) {
                out.add(of(c));
            }
        }
        return out;
    }

    /** True when the entity at index {@code index} holds sparse {@code column}. */
    public boolean has(int index, Component<?> column) {
        return of(column).contains(index);
    }

    /** As {@link #has}: the prototype index asks it for the sparse names an entity holds. */
    @Override
    public boolean holds(int index, Component<?> column) {
        return has(index, column);
    }

    /** Number of sparse columns the entity at index {@code index} holds. */
    @Override
    public int heldBy(int index) {
        int[] h = held;
        if (h != null) {
            return index < h.length ? h[index] : 0;
        }
        int n = 0;
        for (int k = 0; k < madeCount; k++) {
            if (made[k].contains(index)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Adds sparse {@code column} to live {@code entity} (index {@code index}), zeroed; returns
     * its dense position.
     *
     * @throws IllegalStateException if the entity already holds it
     */
    public int add(int index, long entity, Component<?> column) {
        return add(index, entity, column, true);
    }

    /**
     * {@link #add(int, long, Component)}; with {@code zero} false the new position's fields are
     * left as they are, for a caller that writes every field next.
     */
    public int add(int index, long entity, Component<?> column, boolean zero) {
        return add(of(column), index, entity, zero);
    }

    /**
     * {@link #add(int, long, Component, boolean)} into {@code s}, the column's set as
     * {@link #of} gave it: a caller that writes the new position's fields next already holds it.
     */
    public int add(SparseColumn s, int index, long entity, boolean zero) {
        if (s.contains(index)) {
            Component<?> column = s.column();
            throw new IllegalStateException("entity " + Entity.toString(entity) + " already holds " + column
                    + "; use set(...) to change its value, or remove it first");
        }
        return insert(s, index, entity, zero);
    }

    /** Adds sparse {@code column} to {@code entity} (index {@code index}), zeroed: snapshot restore. */
    public int restore(int index, long entity, Component<?> column) {
        return insert(of(column), index, entity, true);
    }

    private int insert(SparseColumn s, int index, long entity, boolean zero) {
        int p = s.add(entity, zero);
        int[] h = held;
        if (h != null) {
            if (index >= h.length) {
                held = h = Arrays.copyOf(h, Math.max(index + 1, h.length * 2));
            }
            h[index]++;
        }
        return p;
    }

    /** Removes sparse {@code column} from the entity at index {@code index}; false when it lacked it. */
    public boolean remove(int index, Component<?> column) {
        if (!of(column).remove(index)) {
            return false;
        }
        if (held != null) {
            held[index]--;
        }
        return true;
    }

    /**
     * The entity at index {@code index} is being despawned: drops it from every sparse set.
     */
    public void despawned(int index) {
        if (held == null) {
            for (int k = 0; k < madeCount; k++) {
                made[k].remove(index);
            }
            return;
        }
        if (heldBy(index) == 0) {
            return;
        }
        for (int id = 0; id < byId.length && held[index] > 0; id++) {
            SparseColumn s = byId[id];
            if (s != null && s.remove(index)) {
                held[index]--;
            }
        }
    }

    /**
     * The dense field arrays of sparse {@code column} for live {@code entity} (index
     * {@code index}); its position is {@link #positionOf}.
     *
     * @throws IllegalArgumentException naming the entity and the column when the entity lacks it
     */
    public Object[] arraysOf(int index, long entity, Component<?> column) {
        SparseColumn s = of(column);
        if (!s.contains(index)) {
            throw new IllegalArgumentException("entity " + Entity.toString(entity) + " has no component " + column
                    + " (sparse storage). Add it first, or test has(...)");
        }
        return s.arrays();
    }

    /** The dense position of the entity at index {@code index} in sparse {@code column}, or -1. */
    public int positionOf(int index, Component<?> column) {
        return of(column).positionOf(index);
    }
}
