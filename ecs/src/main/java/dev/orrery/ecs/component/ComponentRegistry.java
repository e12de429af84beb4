package dev.orrery.ecs.component;

import dev.orrery.ecs.hash.NameHash;
import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Registers component types and their columns (type plus instance name) and hands out
 * dense ids for both. Registering the same type or the same (type, name) twice returns
 * the existing handle, so registration is idempotent and order alone decides the ids.
 *
 * <p>Instance names are checked for hash collisions: two different names with the same
 * 32-bit hash are refused, so a name hash identifies its name within the world.
 *
 * <p><b>Threading:</b> not thread-safe; register components during set-up, on the thread
 * that owns the world.
 */
public final class ComponentRegistry {
    // The record type of relation marker columns (the first marker registered names it), refused as a column of its own.
    private ComponentType<?> markerType;
    private boolean registeringMarker;
    private final Map<Class<?>, ComponentType<?>> typesByClass = new HashMap<>();
    private final List<ComponentType<?>> types = new ArrayList<>();
    private final Map<ColumnKey, Component<?>> columnsByKey = new HashMap<>();
    private final List<Component<?>> columns = new ArrayList<>();
    private final Int2ObjectOpenHashMap<String> namesByHash = new Int2ObjectOpenHashMap<>();
    // Sparse columns by name hash: their names are unique in the world, so a name finds at most one.
    private final Int2ObjectOpenHashMap<Component<?>> sparseByName = new Int2ObjectOpenHashMap<>();
    // The sparse columns in id order (registration order is id order), the first sparseCount slots used.
    private Component<?>[] sparseInIdOrder = new Component<?>[4];
    // The unnamed column per class, once resolved: unnamedColumnOf is then one identity-keyed
    // look-up with no key object built.
    private final Map<Class<?>, Component<?>> unnamedByClass = new HashMap<>();
    private int sparseCount;

    private record ColumnKey(ComponentType<?> type, String name) {
    }


    /** Creates an empty registry. */
    public ComponentRegistry() {
    }

    /**
     * The value or tag type for a record class, registering it on first use.
     *
     * @param <T> the record type
     * @param type a record class whose components are all primitives (none for a tag), not null
     * @return the type, the same object on every call for the same class
     * @throws IllegalArgumentException if the class is not a record of primitive fields, or
     *     it was registered before as a reference component
     * @throws NullPointerException if {@code type} is null
     */
    @SuppressWarnings("unchecked")
    public <T> ComponentType<T> valueType(Class<T> type) {
        Objects.requireNonNull(type, "type");
        ComponentType<?> existing = typesByClass.get(type);
        if (existing != null) {
            if (existing.kind() == ComponentKind.REFERENCE) {
                throw new IllegalArgumentException(type.getName() + " is registered as a reference component; use "
                        + "World.referenceComponent for it everywhere");
            }
            return (ComponentType<T>) existing;
        }
        return added(type, ComponentType.ofRecord(types.size(), type));
    }

    /**
     * The reference type for a class, registering it on first use.
     *
     * @param <T> the stored object's type
     * @param type any class, not null; rows hold references to its instances
     * @return the type, the same object on every call for the same class
     * @throws IllegalArgumentException if the class was registered before as a value or tag component
     * @throws NullPointerException if {@code type} is null
     */
    @SuppressWarnings("unchecked")
    public <T> ComponentType<T> referenceType(Class<T> type) {
        Objects.requireNonNull(type, "type");
        ComponentType<?> existing = typesByClass.get(type);
        if (existing != null) {
            if (existing.kind() != ComponentKind.REFERENCE) {
                throw new IllegalArgumentException(type.getName() + " is registered as a " + existing.kind()
                        + " component; it cannot also be a reference component");
            }
            return (ComponentType<T>) existing;
        }
        return added(type, ComponentType.ofReference(types.size(), type));
    }

    /** Records a newly made type under its class and id. */
    private <T> ComponentType<T> added(Class<T> type, ComponentType<T> t) {
        types.add(t);
        typesByClass.put(type, t);
        return t;
    }

    /**
     * The column for {@code type} under instance {@code name}, creating it on first use with
     * {@link Storage#TABLE} storage; an existing column is returned whatever its storage.
     *
     * @param <T> the component's Java type
     * @param type a type from this registry
     * @param name the instance name, not null or empty ({@code type.name()} for the unnamed column)
     * @return the column, the same object on every call for the same type and name
     * @throws IllegalArgumentException if the name is empty, or its hash collides with
     *     another name already registered
     */
    public <T> Component<T> column(ComponentType<T> type, String name) {
        return column(type, name, null);
    }

    /**
     * The column for {@code type} under instance {@code name} with {@code storage}, creating
     * it on first use ({@code null} storage: the existing column's, or {@link Storage#TABLE}).
     *
     * <p>A sparse column never enters an archetype, so the per-archetype check that keeps an
     * entity's instance names unique cannot see it: a sparse column's instance name must
     * therefore be used by no other column of the world (and a table column may not take a
     * sparse column's name).
     *
     * @param <T> the component's Java type
     * @param type a type from this registry
     * @param name the instance name, not null or empty ({@code type.name()} for the unnamed column)
     * @param storage {@link Storage#TABLE}, {@link Storage#SPARSE}, or {@code null} for whichever
     *     the column has (table for a new one)
     * @return the column, the same object on every call for the same type and name
     * @throws IllegalArgumentException if the name is empty, its hash collides with another
     *     name already registered, the column exists with another storage, the name is
     *     shared between a sparse column and another column, or a relation has the name
     * @throws NullPointerException if {@code name} is null
     */
    @SuppressWarnings("unchecked")
    public <T> Component<T> column(ComponentType<T> type, String name, Storage storage) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("component instance name for " + type.name() + " must not be empty");
        }
        ColumnKey key = new ColumnKey(type, name);
        Component<?> existing = columnsByKey.get(key);
        if (existing != null && existing.isRelationMarker()) {
            throw new IllegalArgumentException(existing + " is relation '" + name + "''s column; get it from the relation "
                    + "(world.relations().byName(\"" + name + "\").column()) and change pairs through world.relations()");
        }
        if (type == markerType && !registeringMarker) {
            throw new IllegalArgumentException(type.name() + " is the type of relations' columns and cannot be a component of "
                    + "its own; register a relation with world.relations().register(name, ...) instead");
        }
        if (existing != null) {
            if (storage != null && existing.storage() != storage) {
                throw new IllegalArgumentException("component column " + existing + " is registered with " + existing.storage()
                        + " storage and cannot be registered again with " + storage + " storage; choose one storage "
                        + "per column and register it with that one everywhere");
            }
            return (Component<T>) existing;
        }
        Storage chosen = storage == null ? Storage.TABLE : storage;
        int hash = NameHash.of(name);
        String other = namesByHash.get(hash);
        if (other != null && !other.equals(name)) {
            throw new IllegalArgumentException("component instance name '" + name + "' has the same 32-bit hash as '"
                    + other + "' (0x" + Integer.toHexString(hash) + "); rename one of them");
        }
        if (other != null) {
            checkRelationNameFree(type, name);
            checkSparseNameFree(type, name, chosen);
        }
        namesByHash.put(hash, name);
        Component<T> c = new Component<>(this, columns.size(), type, name, hash, chosen);
        columns.add(c);
        columnsByKey.put(key, c);
        if (chosen == Storage.SPARSE) {
            if (sparseCount == sparseInIdOrder.length) {
                sparseInIdOrder = Arrays.copyOf(sparseInIdOrder, sparseCount * 2);
            }
            sparseInIdOrder[sparseCount++] = c;
            sparseByName.put(hash, c);
        }
        return c;
    }

    /**
     * Refuses a new column under a relation's name: the name is its marker column's, and a
     * relation registered after a column of its name is refused too ({@link #markerColumn}).
     */
    private void checkRelationNameFree(ComponentType<?> type, String name) {
        for (Component<?> c : columns) {
            if (c.isRelationMarker() && c.name().equals(name)) {
                throw new IllegalArgumentException("cannot register " + type.name() + " '" + name + "': the instance name is "
                        + "relation " + name + "'s (its column " + c + "); name the component otherwise");
            }
        }
    }

    /** Refuses a new column whose instance name a sparse column uses, or a new sparse column whose name is taken. */
    private void checkSparseNameFree(ComponentType<?> type, String name, Storage storage) {
        for (Component<?> c : columns) {
            if (c.name().equals(name) && (storage == Storage.SPARSE || c.isSparse())) {
                throw new IllegalArgumentException("cannot register " + type.name() + " '" + name + "' with " + storage
                        + " storage: column " + c + " (" + c.storage() + ") already uses the instance name '" + name
                        + "', and a sparse column's name must be unique in the world (sparse instances live outside "
                        + "the archetypes, which check names per entity); choose another instance name");
            }
        }
    }

    /**
     * The sparse column whose instance name hashes to {@code nameHash}, or {@code null}: a
     * sparse column's name is used by no other column of the world, so there is at most one.
     *
     * @param nameHash the instance name's hash ({@link Component#nameHash()})
     * @return the sparse column of that name, or {@code null} when no sparse column has it
     */
    public Component<?> sparseColumnNamed(int nameHash) {
        return sparseCount == 0 ? null : sparseByName.get(nameHash);
    }

    /**
     * Number of columns registered with {@link Storage#SPARSE} storage (0: the world has no sparse data).
     *
     * @return the sparse columns registered so far, 0 or more
     */
    public int sparseColumnCount() {
        return sparseCount;
    }

    /**
     * The {@code k}-th sparse column in column-id order, {@code 0 <= k < }{@link #sparseColumnCount()}:
     * the world's sparse columns without a scan of every column registered.
     *
     * @param k the sparse column's rank among the sparse columns, in column-id order
     * @return that sparse column
     * @throws IndexOutOfBoundsException if {@code k} is outside that range
     */
    public Component<?> sparseColumn(int k) {
        Objects.checkIndex(k, sparseCount);
        return sparseInIdOrder[k];
    }

    /**
     * The unnamed column of {@code value}'s class: its registered reference type's, or a
     * record's (registered as a value component on first use). {@code World.spawn(values...)}
     * uses it.
     *
     * @param value a component value, not null: an instance of a record or of a registered
     *     reference type
     * @return the column named after its class's simple name, the same object on every call
     * @throws IllegalArgumentException when the class is neither a record nor registered
     * @throws NullPointerException if {@code value} is null
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Component<Object> unnamedColumnOf(Object value) {
        Objects.requireNonNull(value, "component value");
        Class<?> cls = value.getClass();
        Component<?> cached = unnamedByClass.get(cls);
        if (cached != null) {
            return (Component) cached;
        }
        Component<Object> c = resolveUnnamed(cls);
        unnamedByClass.put(cls, c);
        return c;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Component<Object> resolveUnnamed(Class<?> cls) {
        ComponentType<?> known = typeOf(cls);
        if (known != null && known.kind() == ComponentKind.REFERENCE) {
            refuseBesideNamedInstances(known);
            return (Component) column(known, known.name());
        }
        if (cls.isRecord()) {
            ComponentType<?> t = valueType(cls);
            refuseBesideNamedInstances(t);
            return (Component) column(t, t.name());
        }
        throw new IllegalArgumentException(cls.getName() + " is not a record and is not registered; call "
                + "world.referenceComponent(" + cls.getSimpleName() + ".class) first");
    }

    /**
     * Refuses to register {@code type}'s unnamed column on the fly (a spawn of a bare value)
     * when the type already has named instances: the value was almost surely meant for one of
     * them, and a silent third column would hold it instead.
     */
    private void refuseBesideNamedInstances(ComponentType<?> type) {
        if (columnsByKey.containsKey(new ColumnKey(type, type.name()))) {
            return; // registered on purpose before: use it
        }
        List<String> named = new ArrayList<>();
        for (Component<?> c : columns) {
            if (c.type() == type) {
                named.add(c.name());
            }
        }
        if (!named.isEmpty()) {
            throw new IllegalArgumentException("a bare " + type.name() + " value would register a new, unnamed "
                    + type.name() + " column, but " + type.name() + " has named instances " + String.join(", ", named)
                    + "; give the value to one of them (world.entity().with(column, value), a shape or a template of "
                    + "the named columns), or register the unnamed column first with world.component(" + type.name()
                    + ".class) if a column of its own is meant");
        }
    }

    /**
     * Registers the marker column of a relation: a table column of {@code type} under
     * {@code name}, flagged as the relation's ({@link Component#isRelationMarker}).
     *
     * @param <T> the marker record type
     * @param type the marker type, shared by every relation of the world
     * @param name the relation's name, used as the column's instance name
     * @param relation the relation object, which {@link Component#relation()} then returns
     * @return the new column, with table storage
     * @throws IllegalArgumentException if a column with that name exists already
     */
    public <T> Component<T> markerColumn(ComponentType<T> type, String name, Object relation) {
        if (columnsByKey.containsKey(new ColumnKey(type, name)) || namesByHash.containsKey(NameHash.of(name))) {
            throw new IllegalArgumentException("cannot register relation '" + name + "': the instance name is taken by "
                    + "a component column; name the relation otherwise");
        }
        markerType = type;
        registeringMarker = true;
        try {
            Component<T> c = column(type, name, Storage.TABLE);
            c.markRelation(relation);
            return c;
        } finally {
            registeringMarker = false;
        }
    }

    /**
     * True when {@code column} was registered here (not by another world's registry).
     *
     * @param column a column from any world, not null
     * @return true when this registry made it; false for another world's column, whose ids mean
     *     nothing here
     */
    public boolean owns(Component<?> column) {
        return column.registry == this;
    }

    /**
     * The column with dense id {@code id}.
     *
     * @param id the column's id, 0 to {@code columnCount() - 1}
     * @return the column
     * @throws IndexOutOfBoundsException when {@code id} is out of that range
     */
    public Component<?> column(int id) {
        return columns.get(id);
    }

    /**
     * Number of columns registered.
     *
     * @return the columns registered so far, relation markers included; ids run from 0 to this
     *     minus 1
     */
    public int columnCount() {
        return columns.size();
    }

    /**
     * Number of types registered.
     *
     * @return the types registered so far; ids run from 0 to this minus 1
     */
    public int typeCount() {
        return types.size();
    }

    /**
     * The type registered for {@code javaClass}, or {@code null} when it is not registered.
     *
     * @param javaClass the component's class
     * @return the type, or {@code null}; it does not register the class
     */
    public ComponentType<?> typeOf(Class<?> javaClass) {
        return typesByClass.get(javaClass);
    }

    /**
     * The type with dense id {@code id}.
     *
     * @param id the type's id, 0 to {@code typeCount() - 1}
     * @return the type
     * @throws IndexOutOfBoundsException when {@code id} is out of that range
     */
    public ComponentType<?> type(int id) {
        return types.get(id);
    }

    /**
     * The registered name with this hash, or {@code null}.
     *
     * @param nameHash an instance name's hash ({@link Component#nameHash()})
     * @return the instance name registered with that hash, or {@code null} when none is
     */
    public String nameOf(int nameHash) {
        return namesByHash.get(nameHash);
    }

    /**
     * All columns in id order (a read-only view).
     *
     * @return an unmodifiable view in id order, which sees columns registered later
     */
    public List<Component<?>> columns() {
        return java.util.Collections.unmodifiableList(columns);
    }
}
