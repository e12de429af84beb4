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
}
