package dev.orrery.ecs.prototype;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.MovePlan;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.hash.NameHash;
import java.util.ArrayList;
import java.util.List;

/**
 * The world's view of the {@link PrototypeIndex}: it registers every table column an entity
 * holds under the column's instance name ({@link Component#name()}, the type's simple name
 * for the unnamed form), keeps the index current as the world spawns, moves and despawns
 * entities, and answers "which instance does this entity hold under this name". The
 * index's columns are the world's dense column ids and its names are the columns' 32-bit
 * name hashes, which the registry keeps unique per name.
 *
 * <p>Sparse columns stay out of the index: a sparse column's name is used by no other column
 * of the world, so a name the index does not hold is looked up in the registry and the one
 * sparse set of that name answers ({@link SparseMembers}). Adding or removing a sparse
 * column then leaves the entity's prototype alone (it was a third of the cost of a sparse
 * add and remove), and entities that differ only in sparse columns share one prototype. An
 * entity's names list ({@link #namesOf}) gives its table instances in registration order,
 * then its sparse ones in column-id order.
 *
 * <p>The world calls the {@code spawned}/{@code moved}/{@code despawned} hooks after it has
 * validated the change and applied it to the archetypes; the hooks cannot fail on a
 * consistent world, because the archetypes already refuse two instances with one name.
 *
 * <p><b>Threading:</b> owned by the world; changed only by the thread that applies
 * structural changes, like the world's location table. The look-ups fill the index's
 * look-up cache, so they too belong to that thread; a job that must resolve names reads
 * {@code index().findUncached}, which writes nothing, while no structural change runs.
 */
public final class NamedInstances {
    private final ComponentRegistry registry;
    private final SparseMembers sparse;
    private final PrototypeIndex index = new PrototypeIndex();
    // Per archetype id, the chain of a spawn straight into it (command playback's plain spawns),
    // with the archetype it was made for: an id is trusted only for that same archetype.
    private SpawnChain[] archetypeChains = new SpawnChain[0];
    private Archetype[] chainArchetypes = new Archetype[0];

    /** Which sparse columns an entity holds (the world's sparse sets answer). */
    public interface SparseMembers {
        /** True when the entity at index {@code entity} holds sparse {@code column}. */
        boolean holds(int entity, Component<?> column);

        /** How many sparse columns the entity at index {@code entity} holds (0 for an index never used). */
        int heldBy(int entity);
    }

    /**
     * Creates the (empty) index for a world whose columns come from {@code registry} and
     * whose sparse sets {@code sparse} reads.
     */
    public NamedInstances(ComponentRegistry registry, SparseMembers sparse) {
        this.registry = registry;
        this.sparse = sparse;
    }

    /** The underlying prototype index (read-only use outside the world). */
    public PrototypeIndex index() {
        return index;
    }

    // ---------------------------------------------------------------- world hooks

    /** A new entity was placed holding {@code columns}; registers them in that order. */
    public void spawned(int entity, Component<?>[] columns) {
        for (Component<?> c : columns) {
            index.register(entity, c.id(), c.nameHash());
        }
    }

    /**
     * A new entity was placed holding {@code chain}'s columns: registers them in that order,
     * in one step when the chain remembers the prototype they led to last time and no
     * prototype has been reclaimed since (the common case for a repeated spawn shape).
     */
    public void spawned(int entity, SpawnChain chain) {
        if (chain.prototype != PrototypeIndex.EMPTY && chain.epoch == index.reclaimEpoch()) {
            index.adopt(entity, chain.prototype);
            return;
        }
        spawned(entity, chain.columns);
        chain.prototype = index.prototypeOf(entity);
        chain.epoch = index.reclaimEpoch();
    }

    /**
     * The chain of a spawn straight into archetype {@code a}: its columns in column-id order,
     * as a move from the empty archetype registers them. Cached per archetype, so a repeated
     * spawn into one archetype adopts its prototype in one step ({@link #spawned(int, SpawnChain)}).
     */
    public SpawnChain chainOf(Archetype a) {
        int id = a.id();
        if (id >= archetypeChains.length) {
            int n = Math.max(id + 1, archetypeChains.length * 2);
            archetypeChains = java.util.Arrays.copyOf(archetypeChains, n);
            chainArchetypes = java.util.Arrays.copyOf(chainArchetypes, n);
        }
        SpawnChain chain = archetypeChains[id];
        if (chain == null || chainArchetypes[id] != a) {
            Component<?>[] columns = new Component<?>[a.columnCount()];
            for (int s = 0; s < columns.length; s++) {
                columns[s] = a.component(s);
            }
            chain = new SpawnChain(columns);
            archetypeChains[id] = chain;
            chainArchetypes[id] = a;
        }
        return chain;
    }

    /** Makes room for entity indices below {@code n} (see {@code Shape.reserve}). */
    public void reserveEntities(int n) {
        index.reserveEntities(n);
    }

    /**
     * Registers the names of entities a bulk spawn placed with {@code columns}, the ids
     * {@code ids[from..from+n)}: the first {@code recycled} of them came from the free list,
     * the rest are fresh consecutive indices (see {@code EntityTable.allocateMany}),
     * registered as one range.
     */
    public void spawnedMany(long[] ids, int from, int n, int recycled, Component<?>[] columns) {
        int[] cols = new int[columns.length];
        int[] names = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            cols[i] = columns[i].id();
            names[i] = columns[i].nameHash();
        }
        if (recycled > 0) {
            index.registerSpawned(ids, from, recycled, cols, names);
        }
        if (recycled < n) {
            index.registerSpawnedRange(Entity.index(ids[from + recycled]), n - recycled, cols, names);
        }
    }

    /**
     * An entity moved from archetype {@code from} to {@code to}: the instances it lost are
     * unregistered, then the ones it gained are registered in column-id order. A single add
     * or remove costs one scan of the two sorted column lists plus one cached transition.
     */
    public void moved(int entity, Archetype from, Archetype to) {
        int fn = from.columnCount();
        int tn = to.columnCount();
        if (tn == fn + 1) {
            int added = singleExtra(to, from);
            if (added >= 0) {
                Component<?> c = to.component(added);
                index.register(entity, c.id(), c.nameHash());
                return;
            }
        } else if (fn == tn + 1) {
            int removed = singleExtra(from, to);
            if (removed >= 0) {
                index.unregister(entity, from.component(removed).nameHash());
                return;
            }
        }
        int i = 0;
        int j = 0;
        while (i < fn) {
            int a = from.columnId(i);
            int b = j < tn ? to.columnId(j) : Integer.MAX_VALUE;
            if (a == b) {
                i++;
                j++;
            } else if (a < b) {
                index.unregister(entity, from.component(i).nameHash());
                i++;
            } else {
                j++;
            }
        }
        i = 0;
        j = 0;
        while (j < tn) {
            int a = i < fn ? from.columnId(i) : Integer.MAX_VALUE;
            int b = to.columnId(j);
            if (a == b) {
                i++;
                j++;
            } else if (b < a) {
                Component<?> c = to.component(j);
                index.register(entity, c.id(), c.nameHash());
                j++;
            } else {
                i++;
            }
        }
    }

    /**
     * An entity moved along {@code plan}: as {@link #moved(int, Archetype, Archetype)}, in
     * one step when the plan last took an entity from the same prototype to a prototype
     * that cannot have been reclaimed since (no reclamation between then and now).
     */
    public void moved(int entity, MovePlan plan) {
        int p = index.prototypeOf(entity);
        int epoch = index.reclaimEpoch();
        int q = plan.rememberedNames(p, epoch);
        if (q >= 0) {
            index.transfer(entity, q);
            return;
        }
        moved(entity, plan.source(), plan.target());
        if (index.reclaimEpoch() == epoch) { // else p may be freed and its handle reused within the new epoch
            plan.rememberNames(p, index.prototypeOf(entity), epoch);
        }
    }

    /**
     * An entity gained exactly {@code column}: registers it (what {@link #moved} does for a
     * move that adds one column, without comparing the two archetypes).
     */
    public void added(int entity, Component<?> column) {
        index.register(entity, column.id(), column.nameHash());
    }

    /** An entity lost exactly {@code column}: unregisters its name (as {@link #moved} would). */
    public void removed(int entity, Component<?> column) {
        index.unregister(entity, column.nameHash());
    }

    /**
     * The slot of the one column {@code larger} has beyond {@code smaller} (which has one
     * column fewer), or -1 when the two differ in more than that. One pass over the sorted ids.
     */
    private static int singleExtra(Archetype larger, Archetype smaller) {
        int n = smaller.columnCount();
        int i = 0;
        while (i < n && smaller.columnId(i) == larger.columnId(i)) {
            i++;
        }
        for (int k = i; k < n; k++) {
            if (smaller.columnId(k) != larger.columnId(k + 1)) {
                return -1;
            }
        }
        return i;
    }

    /** An entity was despawned: its chain is released and unused prototypes reclaimed. */
    public void despawned(int entity) {
        index.release(entity);
    }

    // ---------------------------------------------------------------- look-up

    /** The instance a live entity holds under {@code name}, or {@code null}. */
    public Component<?> find(int entity, String name) {
        int col = columnOf(entity, NameHash.of(name));
        if (col == PrototypeIndex.NOT_FOUND) {
            return null;
        }
        Component<?> c = registry.column(col);
        return c.name().equals(name) ? c : null; // an unregistered name may share a registered one's hash
    }

    /**
     * The column a live entity holds under the name hashing to {@code nameHash}, table or
     * sparse, or {@link PrototypeIndex#NOT_FOUND}. Fills the index's look-up cache, so it
     * belongs to the thread that applies structural changes.
     */
    public int columnOf(int entity, int nameHash) {
        int col = index.find(entity, nameHash);
        if (col == PrototypeIndex.NOT_FOUND) {
            Component<?> s = registry.sparseColumnNamed(nameHash);
            if (s != null && sparse.holds(entity, s)) {
                return s.id();
            }
        }
        return col;
    }

    /** Column {@code col}'s handle (used by property handles). */
    public Component<?> column(int col) {
        return registry.column(col);
    }

    /**
     * The instance a live entity holds under {@code name}.
     *
     * @throws IllegalArgumentException naming the entity and listing the instance names it holds
     */
    public Component<?> require(long entity, String name) {
        Component<?> c = find(Entity.index(entity), name);
        if (c == null) {
            throw noSuchInstance(entity, name);
        }
        return c;
    }

    /**
     * The field {@code field} of the instance a live entity holds under {@code component}.
     *
     * @throws IllegalArgumentException listing the instance names the entity holds, or the
     *     fields the instance has
     */
    public Field field(long entity, String component, String field) {
        return fieldOf(require(entity, component), entity, field);
    }

    /**
     * The field called {@code field} of instance {@code c}, held by {@code entity} (named in the refusal).
     *
     * @throws IllegalArgumentException listing the instance's fields
     * @throws NullPointerException listing them when {@code field} is null
     */
    public static Field fieldOf(Component<?> c, long entity, String field) {
        List<Field> fields = c.fields();
        for (int i = 0, n = fields.size(); i < n; i++) { // by index: an iterator allocated on every property call
            Field f = fields.get(i);
            if (f.name().equals(field)) {
                return f;
            }
        }
        if (field == null) { // looked up as the text "null" otherwise, and refused as a field of that name
            throw new NullPointerException("the field name is null; give the name of one of " + c.name() + "'s fields: "
                    + c.type().fieldNames());
        }
        throw new IllegalArgumentException("component " + c + " on entity " + Entity.toString(entity) + " has no field '"
                + field + "'; its fields are " + c.type().fieldNames() + (c.fields().isEmpty() ? " (a tag has none)" : ""));
    }

    public IllegalArgumentException noSuchInstance(long entity, String name) {
        return new IllegalArgumentException("entity " + Entity.toString(entity) + " has no component named '" + name
                + "'; it holds " + namesOf(Entity.index(entity)) + ". Check the spelling, or add the component first");
    }

    /**
     * The instance names an entity holds: table ones in registration order, then sparse ones
     * in column-id order (cold: tools, error messages).
     */
    public List<String> namesOf(int entity) {
        List<String> out = new ArrayList<>();
        for (int col : instancesOf(entity)) {
            out.add(registry.column(col).name());
        }
        return out;
    }

    /**
     * The columns an entity holds as its names list them ({@link #namesOf}): what a snapshot
     * records as the entity's chain, and restores table columns of in that order. Written per
     * row by a snapshot, so it costs the entity's own chain plus, when it holds sparse
     * columns, the world's sparse columns up to the last one it holds (never a scan of every
     * registered column), and builds one array.
     */
    public int[] instancesOf(int entity) {
        int held = registry.sparseColumnCount() == 0 ? 0 : sparse.heldBy(entity);
        int[] out = index.columnsOf(entity, held);
        for (int k = 0, n = out.length - held; n < out.length; k++) {
            Component<?> c = registry.sparseColumn(k);
            if (sparse.holds(entity, c)) {
                out[n++] = c.id();
            }
        }
        return out;
    }
}
