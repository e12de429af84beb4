package dev.orrery.ecs.component;

import dev.orrery.ecs.hash.NameHash;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A column: one component type under one instance name. An entity holds at most one
 * instance per column, and its instance names are unique, so one entity may carry two
 * {@code RenderData} instances as {@code "Fog"} and {@code "Vignette"}. The unnamed form of
 * a type uses the type's simple name as its instance name.
 *
 * <p>Handles are created once by the world's registry ({@code World.component(...)}) and
 * compared by identity; {@link #id()} is dense and stable for the life of the world.
 *
 * @param <T> the component's Java type
 */
public final class Component<T> {
    private final int id;
    private final ComponentType<T> type;
    private final String name;
    private final int nameHash;
    private final List<Field> fields;
    private final Storage storage;
    // The registry (so the world) that made it: ComponentRegistry.owns is one reference compare.
    final ComponentRegistry registry;
    // Per-row change versions (World.trackRowChanges); set during set-up, before any
    // archetype holds the column, and read when archetypes are made.
    private boolean rowsTracked;
    // The relation this column marks (ecs.relation.Relation), or null for an ordinary column.
    private Object relation;

    Component(ComponentRegistry registry, int id, ComponentType<T> type, String name, int nameHash, Storage storage) {
        this.registry = registry;
        this.id = id;
        this.storage = storage;
        this.type = type;
        this.name = name;
        this.nameHash = nameHash;
        List<Field> fs = new ArrayList<>(type.fieldCount());
        for (int i = 0; i < type.fieldCount(); i++) {
            fs.add(new Field(this, i));
        }
        this.fields = Collections.unmodifiableList(fs);
    }

    /**
     * Dense column id within the world.
     *
     * @return the column's id, 0 to the world's column count minus 1, in registration order
     */
    public int id() {
        return id;
    }

    /**
     * The component type stored in this column.
     *
     * @return the type: the Java class, its kind and its fields
     */
    public ComponentType<T> type() {
        return type;
    }

    /**
     * The instance name ("Fog"), or the type's simple name for the unnamed form.
     *
     * @return the instance name, never null or empty
     */
    public String name() {
        return name;
    }

    /**
     * The instance name's 32-bit hash (see {@link NameHash}).
     *
     * @return the hash of {@link #name()}, unique among the world's instance names
     */
    public int nameHash() {
        return nameHash;
    }

    /**
     * The storage kind of the type.
     *
     * @return value, tag or reference
     */
    public ComponentKind kind() {
        return type.kind();
    }

    /**
     * Where the column's values live: {@link Storage#TABLE} (in the archetype) or
     * {@link Storage#SPARSE} (in a sparse set; adding or removing it never moves the row).
     *
     * @return the column's storage, fixed when it is registered
     */
    public Storage storage() {
        return storage;
    }

    /**
     * True when chunks keep a changed version per row of this column, not only per chunk
     * (see {@code World.trackRowChanges}).
     *
     * @return true once row versions are turned on for this column
     */
    public boolean rowsTracked() {
        return rowsTracked;
    }

    /**
     * Turns per-row change versions on. Call it through {@code World.trackRowChanges}, which
     * refuses once an entity holds the column; on its own it affects only archetypes made later.
     */
    public void trackRowChanges() {
        rowsTracked = true;
    }

    /**
     * True when this column is a relation's marker ({@code world.relations()}): an entity
     * holds it while it holds at least one pair of the relation, and its one field is the
     * (first) target. Only the relation store adds, writes or removes it; the world, command
     * buffers and jobs refuse to.
     *
     * @return true for a relation's marker column, false for every column a user registers
     */
    public boolean isRelationMarker() {
        return relation != null;
    }

    /**
     * The relation this column marks ({@code dev.orrery.ecs.Relation}), or {@code null}.
     *
     * @return the relation, or {@code null} for an ordinary column
     */
    public Object relation() {
        return relation;
    }

    /**
     * Makes this column a relation's marker; called once by the registry when the relation is
     * registered, before any entity holds the column.
     */
    void markRelation(Object owner) {
        relation = owner;
    }

    /**
     * Refuses a change of a relation's marker column that goes round the relation store.
     *
     * @param operation the call refused, as the message starts with it ("add", "set")
     * @throws IllegalArgumentException naming the relation and the call to use instead
     */
    public void refuseIfRelationMarker(String operation) {
        if (relation != null) {
            throw new IllegalArgumentException(operation + " " + name + " refused: " + name + " is a relation's column, "
                    + "kept by the relation store; change pairs with world.relations().add(holder, " + name
                    + ", target) / remove(...), or commands.addPair(...) / removePair(...) in a job");
        }
    }

    /**
     * True when the column uses {@link Storage#SPARSE} storage.
     *
     * @return true for sparse storage, false for table storage
     */
    public boolean isSparse() {
        return storage == Storage.SPARSE;
    }

    /**
     * Handle of field {@code i}, for chunk access and property access.
     *
     * @param i the field's position in the record's declaration order, from 0
     * @return the field handle, the same object on every call
     * @throws IndexOutOfBoundsException naming the column and its fields when {@code i} is out of
     *     range
     */
    public Field field(int i) {
        if (i < 0 || i >= fields.size()) {
            throw new IndexOutOfBoundsException("component " + this + " has no field " + i + "; it has "
                    + fields.size() + (fields.size() == 1 ? " field" : " fields") + (fields.isEmpty() ? "" : " (0 to "
                    + (fields.size() - 1) + "): " + type.fieldNames()));
        }
        return fields.get(i);
    }

    /**
     * Handle of the named field.
     *
     * @param fieldName the record component's name ("x"), not null
     * @return the field handle, the same object on every call
     * @throws IllegalArgumentException listing the fields that exist when there is none by that name
     */
    public Field field(String fieldName) {
        return fields.get(type.fieldIndex(fieldName));
    }

    /**
     * All field handles in declaration order.
     *
     * @return an unmodifiable list, empty for a tag; position {@code i} holds {@code field(i)}
     */
    public List<Field> fields() {
        return fields;
    }

    /**
     * {@code "RenderData:Fog"} for a named instance, the type name for the unnamed form, and
     * for a relation's marker column the wildcard pair it stands for, {@code "(ChildOf, *)"},
     * as the relation is written about (its record type is internal). For messages: tools
     * and snapshots name columns by {@link #name()} and the type's name, never by this.
     */
    @Override
    public String toString() {
        if (relation != null) {
            return "(" + name + ", *)";
        }
        return name.equals(type.name()) ? name : type.name() + ":" + name;
    }
}
