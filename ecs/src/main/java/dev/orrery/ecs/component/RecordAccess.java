package dev.orrery.ecs.component;

/**
 * Moves a value record's fields between the record and a column's field arrays: one
 * implementation per record type, made by {@link RecordAccessors}. Package-private; reached
 * through {@link ComponentType}.
 *
 * <p><b>Threading:</b> stateless; any thread may call it with arrays it may touch.
 */
interface RecordAccess {
    /** Stores each field of {@code value} into {@code arrays[i][row]}. */
    void write(Object value, Object[] arrays, int row);

    /** Stores the raw bits of each field of {@code value} into {@code dst[offset + i]} (see {@link FieldType#bits}). */
    void writeBits(Object value, long[] dst, int offset);

    /** A new record built from row {@code row} of {@code arrays}. */
    Object read(Object[] arrays, int row);

    /**
     * What a method handle's invocation threw, ready to rethrow: an unchecked exception as
     * it is, an error thrown from here as it is, anything else wrapped (a record's accessors
     * and constructor throw nothing checked, so that case is a defect).
     */
    static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
