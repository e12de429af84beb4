package dev.orrery.ecs;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Writes and reads the objects of one reference component type in a snapshot. A snapshot
 * of a world holding a reference component with no registered codec fails, naming it.
 *
 * @param <T> the reference component's type
 */
public interface ReferenceCodec<T> {
    /** Writes {@code value} (may be null if the column was added without a value). */
    void write(T value, DataOutput out) throws IOException;

    /** Reads back what {@link #write} wrote. */
    T read(DataInput in) throws IOException;
}
