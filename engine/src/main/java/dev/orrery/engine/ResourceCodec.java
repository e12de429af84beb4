package dev.orrery.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Writes and reads one resource's value in a simulation snapshot. A resource put without a
 * codec is left out of snapshots (configuration the building code puts again), even when a
 * system writes it: give one a codec when a system keeps state in it across ticks.
 *
 * <p>{@link #read} makes a new object, which a restore puts under the key in place of the
 * object put before: systems must reach the value through the key ({@code job.resource(KEY)})
 * each time, never through an object they captured.
 *
 * @param <T> the resource's type
 */
public interface ResourceCodec<T> {
    /** Writes {@code value}. */
    void write(T value, DataOutput out) throws IOException;

    /** Reads back what {@link #write} wrote. */
    T read(DataInput in) throws IOException;
}
