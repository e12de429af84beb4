package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.prototype.SpawnChain;
import dev.orrery.ecs.structure.EntityRows;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects columns and values for a new entity so it is placed in its final archetype in
 * one step, and can spawn many identical entities in bulk:
 *
 * <pre>{@code
 * long[] ids = world.entity().with(pos, new Position(0, 0, 0)).with(vel, v).spawnMany(1_000_000);
 * }</pre>
 *
 * <p>A builder is reusable: {@link #set} replaces the value of a column it already holds
 * (keeping its archetype and prepared arrays, so a loop of varying spawns does one array
 * write per value and no look-up), and {@link #reset} empties it for another shape:
 *
 * <pre>{@code
 * EntityBuilder b = world.entity().with(pos).with(vel);
 * for (Spawn s : wave) {
 *     b.set(pos, s.position()).set(vel, s.velocity()).spawn();
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> use on the world's owning thread; a builder may be reused to spawn
 * several entities.
 */
public final class EntityBuilder {
    private final World world;
    private final List<Component<?>> columns = new ArrayList<>();
    private final List<Object> values = new ArrayList<>();
    private Archetype archetype;
    // The lists as arrays, built once per shape: a builder reused for one-by-one spawns
    // would otherwise allocate two arrays per entity (about 100 bytes with four columns).
    // The world only reads them.
    private Component<?>[] columnArray;
    private SpawnChain chain;
    private Object[] valueArray;

    EntityBuilder(World world) {
        this.world = world;
    }

    /**
     * Adds a column with zero values (a null reference for a reference column; or a tag).
     *
     * @param column a column of the builder's world, not yet in this builder
     * @return this builder
     * @throws IllegalArgumentException when the builder already holds {@code column} (use
     *     {@link #set} to change its value), or another world registered it
     */
    public EntityBuilder with(Component<?> column) {
        return put(column, null);
    }

    /**
     * Adds a column with its initial value.
     *
     * @param <T> the column's value type
     * @param column a column of the builder's world, not yet in this builder
     * @param value the initial value, not null; the same object is written to every entity spawned
     * @return this builder
     * @throws NullPointerException naming the call and the fix when {@code value} is null: to
     *     add the column zeroed (or a tag) call {@link #with(Component)}, as
     *     {@code world.add(entity, column, null)} is refused alike
     * @throws IllegalArgumentException when the builder already holds {@code column} (use
     *     {@link #set} to change its value), or another world registered it
     */
    public <T> EntityBuilder with(Component<T> column, T value) {
        if (value == null) {
            throw EntityRows.nullBuilderValue("entity().with", column);
        }
        return put(column, value);
    }

    /**
     * Replaces the value of {@code column}, which the builder already holds, for the spawns
     * that follow. Cheaper than a new builder: the archetype and prepared arrays stay.
     *
     * <p>Unlike {@code world.set}, this takes {@code null}, on purpose: it puts the column
     * back to what {@link #with(Component)} gives it, zero fields (a null reference for a
     * reference column, whose only zero that is; nothing for a tag), for the spawns that
     * follow. A reused builder has no other way back to that without losing its prepared
     * arrays. So a value that may be null by mistake spawns zeros here, not an error: check it
     * first where null is not meant.
     *
     * @param <T> the column's value type
     * @param column a column the builder holds
     * @param value the new value, or {@code null} for zero fields
     * @return this builder
     * @throws IllegalArgumentException if the builder does not hold {@code column} (add it with
     *     {@link #with}), or the value is not of the column's type
     */
    public <T> EntityBuilder set(Component<T> column, T value) {
        int i = columns.indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException("component " + column + " is not in this entity builder; add it with "
                    + "with(" + column + ", value) first");
        }
        if (value != null && !column.type().javaClass().isInstance(value)) {
            throw new IllegalArgumentException("value of type " + value.getClass().getName() + " given for component "
                    + column + " of type " + column.type().javaClass().getName());
        }
        values.set(i, value);
        if (valueArray != null) {
            valueArray[i] = value;
        }
        return this;
    }

    /**
     * Forgets every column and value, so the builder can describe another kind of entity; returns it.
     *
     * @return this builder, holding no column
     */
    public EntityBuilder reset() {
        columns.clear();
        values.clear();
        archetype = null;
        columnArray = null;
        chain = null;
        valueArray = null;
        return this;
    }

    private EntityBuilder put(Component<?> column, Object value) {
        world.owned(column, "entity().with");
        if (columns.contains(column)) {
            throw new IllegalArgumentException("component " + column + " given twice to one entity builder; use "
                    + "set(" + column + ", value) to replace its value");
        }
        columns.add(column);
        values.add(value);
        archetype = null;
        columnArray = null;
        chain = null;
        valueArray = null;
        return this;
    }

    /** The archetype the entity will have (that of its table columns; sparse columns live beside it). */
    Archetype archetype() {
        if (archetype == null) {
            archetype = world.archetypeFor(columnArray());
        }
        return archetype;
    }

    /**
     * Spawns one entity and returns its id.
     *
     * @return the new entity's id
     * @throws IllegalStateException while the world's structure is locked (a query iteration or a
     *     scheduled run); record the spawn in a {@link CommandBuffer} instead
     */
    public long spawn() {
        if (chain == null) {
            chain = new SpawnChain(columnArray());
        }
        return world.spawnInto(archetype(), chain, valueArray());
    }

    /**
     * Spawns {@code n} identical entities in bulk and returns their ids in order.
     *
     * @param n how many entities to spawn, 0 or more
     * @return the new ids, {@code n} long, in spawn order
     */
    public long[] spawnMany(int n) {
        return world.spawnManyInto(archetype(), n, columnArray(), valueArray());
    }

    private Component<?>[] columnArray() {
        if (columnArray == null) {
            columnArray = columns.toArray(new Component<?>[0]);
        }
        return columnArray;
    }

    private Object[] valueArray() {
        if (valueArray == null) {
            valueArray = values.toArray();
        }
        return valueArray;
    }
}
