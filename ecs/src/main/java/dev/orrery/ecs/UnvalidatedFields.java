package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;

/**
 * The world's by-id field access without the field rules ({@link World#unvalidated()}):
 * reads delegate to the world, writes skip the ranges and validators and keep every other
 * check (liveness, field type, the job guard).
 *
 * <p><b>Threading:</b> as the world's by-id access: its owning thread.
 */
final class UnvalidatedFields implements FieldAccess {
    private final World world;

    UnvalidatedFields(World world) {
        this.world = world;
    }

    @Override
    public boolean isAlive(long entity) {
        return world.isAlive(entity);
    }

    @Override
    public <T> void set(long entity, Component<T> column, T value) {
        world.set(entity, column, value);
    }

    @Override
    public long getBits(long entity, Field field) {
        return world.getBits(entity, field);
    }

    @Override
    public void setBits(long entity, Field field, long bits) {
        world.setBitsUnvalidated(entity, field, bits);
    }

    @Override
    public Object getValue(long entity, Field field) {
        return world.getValue(entity, field);
    }

    @Override
    public float getFloat(long entity, Field field) {
        return world.getFloat(entity, field);
    }

    @Override
    public void setFloat(long entity, Field field, float value) {
        setBits(entity, World.requireType(field, FieldType.FLOAT), Float.floatToRawIntBits(value));
    }

    @Override
    public int getInt(long entity, Field field) {
        return world.getInt(entity, field);
    }

    @Override
    public void setInt(long entity, Field field, int value) {
        setBits(entity, World.requireType(field, FieldType.INT), value);
    }

    @Override
    public double getDouble(long entity, Field field) {
        return world.getDouble(entity, field);
    }

    @Override
    public void setDouble(long entity, Field field, double value) {
        setBits(entity, World.requireType(field, FieldType.DOUBLE), Double.doubleToRawLongBits(value));
    }

    @Override
    public long getLong(long entity, Field field) {
        return world.getLong(entity, field);
    }

    @Override
    public void setLong(long entity, Field field, long value) {
        setBits(entity, World.requireType(field, FieldType.LONG), value);
    }
}
