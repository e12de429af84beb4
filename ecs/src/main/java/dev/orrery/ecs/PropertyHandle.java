package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.component.StaleEntityException;
import dev.orrery.ecs.hash.NameHash;
import dev.orrery.ecs.prototype.NamedInstances;
import dev.orrery.ecs.storage.EntityTable;
import java.util.Arrays;

/**
 * A pre-resolved property path, ("Fog", "density"), for code that reads or writes the same
 * property on many entities (tools, scripts, network input). The names are hashed once;
 * each call finds the entity's instance through the prototype index (cached by prototype)
 * and the field through a per-column table filled on first use, then reads or writes the
 * primitive array directly. No reflection and no string work per call, and nothing is
 * boxed by the typed accessors. Different entities may hold different types under the
 * same name; each resolves to its own field.
 *
 * <pre>{@code
 * PropertyHandle density = world.property("Fog", "density");
 * for (long e : lamps) density.setFloat(e, 0.5f);
 * }</pre>
 *
 * <p>Every setter is a boundary write: the world checks the field's
 * {@link dev.orrery.ecs.component.Range} and validators and refuses a value that breaks
 * them with an {@link dev.orrery.ecs.component.InvalidFieldValueException}, writing nothing.
 *
 * <p><b>Threading:</b> use on the world's owning thread (the handle caches resolutions and
 * the index's look-up cache is written on a miss).
 */
public final class PropertyHandle {
    private final FieldAccess world;
    private final EntityTable entities;
    private final NamedInstances names;
    private final String component;
    private final String field;
    private final int nameHash;
    private Field[] byColumn = new Field[8];

    /**
     * Used by {@code World.property}; resolves nothing yet. {@code world} is the world's
     * by-id field access (the world itself); {@code entities} is its entity table, read only
     * when an id is refused, to tell an id the world never handed out from a despawned one.
     */
    PropertyHandle(FieldAccess world, EntityTable entities, NamedInstances names, String component, String field) {
        this.world = world;
        this.entities = entities;
        this.names = names;
        this.component = component;
        this.field = field;
        this.nameHash = NameHash.of(component);
    }

    /**
     * The field this property names on a live entity.
     *
     * @param entity a live entity of the handle's world
     * @return the field of the instance the entity holds under the property's component name
     * @throws StaleEntityException if the entity is not alive, saying when the world never
     *     handed the id out (another world's, or one made up)
     * @throws IllegalArgumentException listing the entity's instance names, or the instance's fields
     */
    public Field resolve(long entity) {
        if (!world.isAlive(entity)) {
            throw entities.refusal(entity, "property " + this);
        }
        int col = names.columnOf(Entity.index(entity), nameHash);
        if (col >= 0 && col < byColumn.length) {
            Field f = byColumn[col];
            if (f != null) {
                return f;
            }
        }
        return resolveSlow(entity, col);
    }

    private Field resolveSlow(long entity, int col) {
        Component<?> c = col < 0 ? null : names.column(col);
        if (c == null || !c.name().equals(component)) {
            throw names.noSuchInstance(entity, component);
        }
        Field f = NamedInstances.fieldOf(c, entity, field);
        if (col >= byColumn.length) {
            byColumn = Arrays.copyOf(byColumn, Math.max(col + 1, byColumn.length * 2));
        }
        byColumn[col] = f;
        return f;
    }

    /**
     * The property's value, boxed (any field type).
     *
     * @param entity a live entity holding the property's instance
     * @return the value boxed ({@code Float}, {@code Integer}, ...; the object for a reference
     *     field)
     * @throws StaleEntityException if the entity is not alive
     * @throws IllegalArgumentException listing the entity's instance names, or the instance's
     *     fields
     */
    public Object get(long entity) {
        return world.getValue(entity, resolve(entity));
    }

    /**
     * Sets the property from a boxed value (see {@link #write}).
     *
     * @param entity a live entity holding the property's instance
     * @param value the new value, boxed, of the field's kind: a whole number within range for an
     *     integer field ({@code 5L} or {@code 5.0}, never {@code 5.9}); for a {@code float} or
     *     {@code double} field, a number rounded to the nearest value of the field's type
     * @throws IllegalArgumentException naming the field when the value does not fit it; nothing is
     *     written
     * @throws dev.orrery.ecs.component.InvalidFieldValueException when the value breaks the field's
     *     range or a validator; nothing is written
     */
    public void set(long entity, Object value) {
        write(world, entity, resolve(entity), value);
    }

    /**
     * The property's raw bits (see {@link FieldType#bits}).
     *
     * @param entity a live entity holding the property's instance
     * @return the field's value as raw bits
     */
    public long getBits(long entity) {
        return world.getBits(entity, resolve(entity));
    }

    /**
     * Writes the property's raw bits.
     *
     * @param entity a live entity holding the property's instance
     * @param bits the new value as raw bits, checked against the field's range and validators
     * @throws dev.orrery.ecs.component.InvalidFieldValueException when the value breaks a rule;
     *     nothing is written
     */
    public void setBits(long entity, long bits) {
        world.setBits(entity, resolve(entity), bits);
    }

    /**
     * A {@code float} property.
     *
     * @param entity a live entity holding the property's instance
     * @return the field's value
     * @throws IllegalArgumentException naming the fitting accessor when the field is not a
     *     {@code float}
     */
    public float getFloat(long entity) {
        return world.getFloat(entity, resolve(entity));
    }

    /**
     * Writes a {@code float} property.
     *
     * @param entity a live entity holding the property's instance
     * @param value the new value, checked against the field's range and validators
     * @throws IllegalArgumentException naming the fitting accessor when the field is not a
     *     {@code float}
     * @throws dev.orrery.ecs.component.InvalidFieldValueException when the value breaks a rule;
     *     nothing is written
     */
    public void setFloat(long entity, float value) {
        world.setFloat(entity, resolve(entity), value);
    }

    /**
     * An {@code int} property.
     *
     * @param entity a live entity holding the property's instance
     * @return the field's value
     * @throws IllegalArgumentException naming the fitting accessor when the field is not a
     *     {@code int}
     */
    public int getInt(long entity) {
        return world.getInt(entity, resolve(entity));
    }

    /**
     * Writes an {@code int} property.
     *
     * @param entity a live entity holding the property's instance
     * @param value the new value, checked against the field's range and validators
     * @throws IllegalArgumentException naming the fitting accessor when the field is not a
     *     {@code int}
     * @throws dev.orrery.ecs.component.InvalidFieldValueException when the value breaks a rule;
     *     nothing is written
     */
    public void setInt(long entity, int value) {
        world.setInt(entity, resolve(entity), value);
    }

    /**
     * A {@code double} property.
     *
     * @param entity a live entity holding the property's instance
     * @return the field's value
     * @throws IllegalArgumentException naming the fitting accessor when the field is not a
     *     {@code double}
     */
    public double getDouble(long entity) {
        return world.getDouble(entity, resolve(entity));
    }

    /**
     * Writes a {@code double} property.
     *
     * @param entity a live entity holding the property's instance
     * @param value the new value, checked against the field's range and validators
     * @throws IllegalArgumentException naming the fitting accessor when the field is not a
     *     {@code double}
     * @throws dev.orrery.ecs.component.InvalidFieldValueException when the value breaks a rule;
     *     nothing is written
     */
    public void setDouble(long entity, double value) {
        world.setDouble(entity, resolve(entity), value);
    }

    /**
     * A {@code long} property.
     *
     * @param entity a live entity holding the property's instance
     * @return the field's value
     * @throws IllegalArgumentException naming the fitting accessor when the field is not a
     *     {@code long}
     */
    public long getLong(long entity) {
        return world.getLong(entity, resolve(entity));
    }

    /**
     * Writes a {@code long} property.
     *
     * @param entity a live entity holding the property's instance
     * @param value the new value, checked against the field's range and validators
     * @throws IllegalArgumentException naming the fitting accessor when the field is not a
     *     {@code long}
     * @throws dev.orrery.ecs.component.InvalidFieldValueException when the value breaks a rule;
     *     nothing is written
     */
    public void setLong(long entity, long value) {
        world.setLong(entity, resolve(entity), value);
    }

    /**
     * Writes a boxed value into a field: a {@link Number}, {@link Boolean} or
     * {@link Character} of the field's kind for primitive fields, the object itself for a
     * reference component's {@code value} field. Numbers convert exactly (see
     * {@link FieldType#bitsOf}): an integer field takes a whole number within its type's range
     * ({@code 5L} or {@code 5.0} for an {@code int} field, never {@code 5.9} or
     * {@code 5_000_000_000L}); a {@code float} field takes the nearest {@code float} (a
     * {@code double} such as {@code 0.1}, or an integer beyond 2<sup>24</sup>, is rounded as a
     * {@code (float)} cast rounds it) and a {@code double} field the nearest {@code double} (a
     * {@code long} beyond 2<sup>53</sup>, such as {@code 9_007_199_254_740_993L}, is rounded as
     * a {@code (double)} cast rounds it), but neither takes a finite value beyond its range.
     *
     * @throws IllegalArgumentException naming the field when the value does not fit it (of
     *     another kind, fractional for an integer field, or outside the field type's range);
     *     nothing is written
     * @throws dev.orrery.ecs.component.InvalidFieldValueException when {@code world} checks
     *     field rules (the world does) and the value breaks one; nothing is written
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void write(FieldAccess world, long entity, Field field, Object value) {
        if (field.type() == FieldType.OBJECT) {
            Component c = field.component();
            if (c.kind() == ComponentKind.REFERENCE) {
                world.set(entity, c, value);
                return;
            }
        }
        long bits;
        try {
            bits = field.type().bitsOf(value);
        } catch (ClassCastException | NullPointerException e) {
            throw doesNotFit(field, value, "Pass " + aValueOf(field.type()), e);
        } catch (IllegalArgumentException e) { // a number of the right kind, but fractional or out of range
            throw doesNotFit(field, value, "Pass " + takes(field.type()), e);
        }
        world.setBits(entity, field, bits);
    }

    private static IllegalArgumentException doesNotFit(Field field, Object value, String fix, RuntimeException cause) {
        return new IllegalArgumentException("property " + field + " is " + field.type() + "; the value "
                + value + (value == null ? "" : " (" + value.getClass().getSimpleName() + ")")
                + " does not fit it. " + fix, cause);
    }

    /** A value of another kind refused: "an int value (a whole number from ... to ...)", "a boolean value". */
    private static String aValueOf(FieldType type) {
        String name = type.javaType().getSimpleName();
        String value = ("aeiou".indexOf(name.charAt(0)) >= 0 ? "an " : "a ") + name + " value";
        String takes = takes(type);
        return takes.endsWith(" value") ? value : value + " (" + takes + ")";
    }

    /** What a field of {@code type} takes, for a refusal of a number that does not fit it. */
    private static String takes(FieldType type) {
        switch (type) {
            case BYTE: return "a whole number from " + Byte.MIN_VALUE + " to " + Byte.MAX_VALUE;
            case SHORT: return "a whole number from " + Short.MIN_VALUE + " to " + Short.MAX_VALUE;
            case INT: return "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
            case LONG: return "a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
            case FLOAT: return "a number within the float range (about \u00b13.4e38)";
            case DOUBLE: return "a number within the double range (about \u00b11.8e308)";
            default: return "a " + type.javaType().getSimpleName() + " value";
        }
    }

    @Override
    public String toString() {
        return component + "." + field;
    }
}
