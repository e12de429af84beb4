package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.prototype.SpawnChain;
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

    /** Adds a column with zero values (or a tag). */
    public EntityBuilder with(Component<?> column) {
        return put(column, null);
    }

    /** Adds a column with its initial value. */
    public <T> EntityBuilder with(Component<T> column, T value) {
        return put(column, value);
    }

    private EntityBuilder put(Component<?> column, Object value) {
        if (columns.contains(column)) {
            throw new IllegalArgumentException("component " + column + " given twice to one entity builder");
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
    public Archetype archetype() {
        if (archetype == null) {
            archetype = world.archetypeFor(columnArray());
        }
        return archetype;
    }

    /** Spawns one entity and returns its id. */
    public long spawn() {
        if (chain == null) {
            chain = new SpawnChain(columnArray());
        }
        return world.spawnInto(archetype(), chain, valueArray());
    }

    /** Spawns {@code n} identical entities in bulk and returns their ids in order. */
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
