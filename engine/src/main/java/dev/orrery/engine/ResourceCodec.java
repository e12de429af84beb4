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
    /**
     * Writes {@code value}. Called on the tick thread, between ticks, while the snapshot is
     * taken.
     *
     * @param value the resource's current value, as put under its key
     * @param out   a buffer of this resource's own; what is written here is what {@link #read}
     *     is handed
     * @throws IOException if the value cannot be written; the snapshot then fails with a
     *     {@link dev.orrery.ecs.SnapshotException} that names the resources and carries it
     */
    void write(T value, DataOutput out) throws IOException;

    /**
     * Reads back what {@link #write} wrote; it must read exactly those bytes. Called on the
     * thread restoring the snapshot, before anything is put.
     *
     * @param in the bytes {@link #write} wrote, as a {@link dev.orrery.ecs.SnapshotInput}
     *     bounded by them (so a count or length can be checked before allocating)
     * @return a new object holding the value, put under the key in place of the old one
     * @throws IOException if the bytes run out or are malformed; the restore then fails with
     *     one {@link dev.orrery.ecs.SnapshotException} naming the section, the offset and the
     *     resource, and changes nothing
     */
    T read(DataInput in) throws IOException;
}
