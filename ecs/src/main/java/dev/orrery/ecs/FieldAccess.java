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
    /** True when {@code entity} is a live entity of the current generation. */
    boolean isAlive(long entity);

    /** Overwrites the value of {@code column} on a live entity that holds it. */
    <T> void set(long entity, Component<T> column, T value);

    /** One field of a live entity's column, as raw bits (see {@link FieldType#bits}). */
    long getBits(long entity, Field field);

    /** Writes one field of a live entity's column from raw bits. */
    void setBits(long entity, Field field, long bits);

    /** One field of a live entity's column, boxed (cold paths: tools, scripts). */
    Object getValue(long entity, Field field);

    /** One {@code float} field of a live entity. */
    float getFloat(long entity, Field field);

    /** Writes one {@code float} field of a live entity. */
    void setFloat(long entity, Field field, float value);

    /** One {@code int} field of a live entity. */
    int getInt(long entity, Field field);

    /** Writes one {@code int} field of a live entity. */
    void setInt(long entity, Field field, int value);

    /** One {@code double} field of a live entity. */
    double getDouble(long entity, Field field);

    /** Writes one {@code double} field of a live entity. */
    void setDouble(long entity, Field field, double value);

    /** One {@code long} field of a live entity. */
    long getLong(long entity, Field field);

    /** Writes one {@code long} field of a live entity. */
    void setLong(long entity, Field field, long value);
}
