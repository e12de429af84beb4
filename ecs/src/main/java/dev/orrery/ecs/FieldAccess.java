package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;

/**
 * Reads and writes component values of live entities by entity id: what a
 * {@code PropertyHandle} needs from a world. {@code World} implements it; code that only
 * reads and writes fields by id (tools, scripts, property handles) can depend on this
 * instead of on the whole world.
 *
 * <p><b>Threading:</b> as the implementation's; {@code World}'s are called on the thread
 * that owns it, or from jobs only as the scheduler allows.
 */
public interface FieldAccess {
    /**
     * True when {@code entity} is a live entity of the current generation.
     *
     * @param entity any id, {@link dev.orrery.ecs.component.Entity#NULL} included
     * @return true when its slot holds that generation now; false for {@code NULL}, and for good
     *     once the entity is despawned
     */
    boolean isAlive(long entity);

    /**
     * Overwrites the value of {@code column} on a live entity that holds it.
     *
     * @param <T> the component's Java type
     * @param entity a live entity's id
     * @param column a column the entity holds, from the world's registry
     * @param value the new value, not null: a record for a value component, the object for a
     *     reference
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the entity and the column when it does not hold
     *     {@code column}
     */
    <T> void set(long entity, Component<T> column, T value);

    /**
     * One field of a live entity's column, as raw bits (see {@link FieldType#bits}).
     *
     * @param entity a live entity's id
     * @param field a field of a column the entity holds, from the world's registry
     * @return the field's value as {@link FieldType#bits} encodes it (a float's or double's raw
     *     IEEE bits)
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the entity and the column when it does not hold
     *     the field's column
     */
    long getBits(long entity, Field field);

    /**
     * Writes one field of a live entity's column from raw bits.
     *
     * @param entity a live entity's id
     * @param field a field of a column the entity holds, from the world's registry
     * @param bits the new value as {@link FieldType#bits} encodes it; a narrower type keeps the low
     *     bits
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the entity and the column when it does not hold
     *     the field's column
     */
    void setBits(long entity, Field field, long bits);

    /**
     * One field of a live entity's column, boxed (cold paths: tools, scripts).
     *
     * @param entity a live entity's id
     * @param field a field of a column the entity holds, from the world's registry
     * @return the value boxed ({@code Float} for a float field), or the stored object (may be null)
     *     for a reference component
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the entity and the column when it does not hold
     *     the field's column
     */
    Object getValue(long entity, Field field);

    /**
     * One {@code float} field of a live entity.
     *
     * @param entity a live entity's id
     * @param field a {@code float} field ({@code FieldType.FLOAT}) of a column the entity holds
     * @return the stored value
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the field's type when it is not {@code float}, or the
     *     entity does not hold the column
     */
    float getFloat(long entity, Field field);

    /**
     * Writes one {@code float} field of a live entity.
     *
     * @param entity a live entity's id
     * @param field a {@code float} field ({@code FieldType.FLOAT}) of a column the entity holds
     * @param value the new value
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the field's type when it is not {@code float}, or the
     *     entity does not hold the column
     */
    void setFloat(long entity, Field field, float value);

    /**
     * One {@code int} field of a live entity.
     *
     * @param entity a live entity's id
     * @param field a {@code int} field ({@code FieldType.INT}) of a column the entity holds
     * @return the stored value
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the field's type when it is not {@code int}, or the
     *     entity does not hold the column
     */
    int getInt(long entity, Field field);

    /**
     * Writes one {@code int} field of a live entity.
     *
     * @param entity a live entity's id
     * @param field a {@code int} field ({@code FieldType.INT}) of a column the entity holds
     * @param value the new value
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the field's type when it is not {@code int}, or the
     *     entity does not hold the column
     */
    void setInt(long entity, Field field, int value);

    /**
     * One {@code double} field of a live entity.
     *
     * @param entity a live entity's id
     * @param field a {@code double} field ({@code FieldType.DOUBLE}) of a column the entity holds
     * @return the stored value
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the field's type when it is not {@code double}, or
     *     the entity does not hold the column
     */
    double getDouble(long entity, Field field);

    /**
     * Writes one {@code double} field of a live entity.
     *
     * @param entity a live entity's id
     * @param field a {@code double} field ({@code FieldType.DOUBLE}) of a column the entity holds
     * @param value the new value
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the field's type when it is not {@code double}, or
     *     the entity does not hold the column
     */
    void setDouble(long entity, Field field, double value);

    /**
     * One {@code long} field of a live entity.
     *
     * @param entity a live entity's id
     * @param field a {@code long} field ({@code FieldType.LONG}) of a column the entity holds
     * @return the stored value
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the field's type when it is not {@code long}, or the
     *     entity does not hold the column
     */
    long getLong(long entity, Field field);

    /**
     * Writes one {@code long} field of a live entity.
     *
     * @param entity a live entity's id
     * @param field a {@code long} field ({@code FieldType.LONG}) of a column the entity holds
     * @param value the new value
     * @throws dev.orrery.ecs.component.StaleEntityException when {@code entity} is not alive
     *     (despawned, or never spawned)
     * @throws IllegalArgumentException naming the field's type when it is not {@code long}, or the
     *     entity does not hold the column
     */
    void setLong(long entity, Field field, long value);
}
