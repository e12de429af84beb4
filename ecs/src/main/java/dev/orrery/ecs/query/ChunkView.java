package dev.orrery.ecs.query;

import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;

/**
 * A cursor over one chunk at a time, through which a system reads and writes columns. It
 * hands out the chunk's primitive field arrays, so a system's loop is a plain indexed loop:
 *
 * <pre>{@code
 * float[] px = chunk.writeFloats(posX);
 * float[] vx = chunk.readFloats(velX);
 * for (int i = 0, n = chunk.size(); i < n; i++) px[i] += vx[i] * dt;
 * }</pre>
 *
 * <p>Each accessor checks the field's type and, when the view carries an
 * {@link AccessPolicy}, that the owner declared the access: {@code read...} needs a
 * declared read or write, {@code write...} a declared write. Checks cost a few comparisons
 * per call and nothing per row; no accessor allocates.
 *
 * <p><b>Threading:</b> a view is used by one thread at a time; the scheduler keeps one per
 * worker and {@link #bind binds} it to each chunk of a job.
 */
public final class ChunkView {
    private final AccessPolicy policy;
    private Chunk chunk;

    /** A view with no access checks, for single-threaded code outside the scheduler. */
    public ChunkView() {
        this(null);
    }

    /** A view that checks every access against {@code policy} ({@code null}: no checks). */
    public ChunkView(AccessPolicy policy) {
        this.policy = policy;
    }

    /** Points the view at {@code chunk}; returns this view. */
    public ChunkView bind(Chunk chunk) {
        this.chunk = chunk;
        return this;
    }

    /**
     * The chunk the view is bound to. Package-private on purpose: a system reaches column
     * arrays only through the checked accessors below, never through the raw chunk.
     */
    Chunk chunk() {
        return chunk;
    }

    /** Number of live rows in the chunk. */
    public int size() {
        return chunk.size();
    }

    /** The entity at {@code row}. */
    public long entity(int row) {
        return chunk.entity(row);
    }

    /** The entity ids of the chunk (read-only by contract); rows {@code [0, size())} are live. */
    public long[] entities() {
        return chunk.entities();
    }

    /** True when the chunk's archetype holds {@code column} (for optional query terms). */
    public boolean has(Component<?> column) {
        return chunk.archetype().has(column.id());
    }

    /** The component value at {@code row} as a new record (cold code; hot loops use the arrays). */
    public <T> T get(Component<T> column, int row) {
        return column.type().read(chunk.columnArrays(slot(column, false)), row);
    }

    /** Overwrites the component value at {@code row} from a record or, for a reference column, an object. */
    public <T> void set(Component<T> column, int row, T value) {
        column.type().write(value, chunk.columnArrays(slot(column, true)), row);
    }

    /** The object array of a reference column, for reading. */
    public Object[] readObjects(Component<?> column) {
        requireReference(column);
        return (Object[]) chunk.array(slot(column, false), 0);
    }

    /** The object array of a reference column, for writing. */
    public Object[] writeObjects(Component<?> column) {
        requireReference(column);
        return (Object[]) chunk.array(slot(column, true), 0);
    }

    /** The boolean array of {@code field} for reading; rows {@code [0, size())} are live. */
    public boolean[] readBooleans(Field field) {
        return (boolean[]) array(field, FieldType.BOOLEAN, false);
    }

    /** The boolean array of {@code field} for writing; rows {@code [0, size())} are live. */
    public boolean[] writeBooleans(Field field) {
        return (boolean[]) array(field, FieldType.BOOLEAN, true);
    }
    /** The byte array of {@code field} for reading; rows {@code [0, size())} are live. */
    public byte[] readBytes(Field field) {
        return (byte[]) array(field, FieldType.BYTE, false);
    }

    /** The byte array of {@code field} for writing; rows {@code [0, size())} are live. */
    public byte[] writeBytes(Field field) {
        return (byte[]) array(field, FieldType.BYTE, true);
    }
    /** The short array of {@code field} for reading; rows {@code [0, size())} are live. */
    public short[] readShorts(Field field) {
        return (short[]) array(field, FieldType.SHORT, false);
    }

    /** The short array of {@code field} for writing; rows {@code [0, size())} are live. */
    public short[] writeShorts(Field field) {
        return (short[]) array(field, FieldType.SHORT, true);
    }
    /** The char array of {@code field} for reading; rows {@code [0, size())} are live. */
    public char[] readChars(Field field) {
        return (char[]) array(field, FieldType.CHAR, false);
    }

    /** The char array of {@code field} for writing; rows {@code [0, size())} are live. */
    public char[] writeChars(Field field) {
        return (char[]) array(field, FieldType.CHAR, true);
    }
    /** The int array of {@code field} for reading; rows {@code [0, size())} are live. */
    public int[] readInts(Field field) {
        return (int[]) array(field, FieldType.INT, false);
    }

    /** The int array of {@code field} for writing; rows {@code [0, size())} are live. */
    public int[] writeInts(Field field) {
        return (int[]) array(field, FieldType.INT, true);
    }
    /** The float array of {@code field} for reading; rows {@code [0, size())} are live. */
    public float[] readFloats(Field field) {
        return (float[]) array(field, FieldType.FLOAT, false);
    }

    /** The float array of {@code field} for writing; rows {@code [0, size())} are live. */
    public float[] writeFloats(Field field) {
        return (float[]) array(field, FieldType.FLOAT, true);
    }
    /** The long array of {@code field} for reading; rows {@code [0, size())} are live. */
    public long[] readLongs(Field field) {
        return (long[]) array(field, FieldType.LONG, false);
    }

    /** The long array of {@code field} for writing; rows {@code [0, size())} are live. */
    public long[] writeLongs(Field field) {
        return (long[]) array(field, FieldType.LONG, true);
    }
    /** The double array of {@code field} for reading; rows {@code [0, size())} are live. */
    public double[] readDoubles(Field field) {
        return (double[]) array(field, FieldType.DOUBLE, false);
    }

    /** The double array of {@code field} for writing; rows {@code [0, size())} are live. */
    public double[] writeDoubles(Field field) {
        return (double[]) array(field, FieldType.DOUBLE, true);
    }

    private Object array(Field field, FieldType expected, boolean write) {
        if (field.type() != expected) {
            throw new IllegalArgumentException("field " + field + " is " + field.type() + ", not " + expected
                    + "; use the accessor for " + field.type().javaType().getSimpleName());
        }
        return chunk.array(slot(field.component(), write), field.index());
    }

    private int slot(Component<?> column, boolean write) {
        if (policy != null && !(write ? policy.canWrite(column) : policy.canRead(column))) {
            throw new UndeclaredAccessException(policy.owner(), column, write);
        }
        int slot = chunk.archetype().slotOf(column.id());
        if (slot < 0) {
            throw new IllegalArgumentException("chunk of " + chunk.archetype() + " has no component " + column
                    + "; list it in the query's with(...) terms, or test has(" + column + ") first for an optional term");
        }
        return slot;
    }

    private static void requireReference(Component<?> column) {
        if (column.kind() != ComponentKind.REFERENCE) {
            throw new IllegalArgumentException("component " + column + " is a " + column.kind()
                    + " component; readObjects/writeObjects serve reference components only");
        }
    }
}
