package dev.orrery.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Writes and reads one resource's value in a simulation snapshot. A snapshot of a
 * simulation holding a resource with no codec fails, naming the resource.
 *
 * @param <T> the resource's type
 */
public interface ResourceCodec<T> {
    /** Writes {@code value}. */
    void write(T value, DataOutput out) throws IOException;

    /** Reads back what {@link #write} wrote. */
    T read(DataInput in) throws IOException;
}
