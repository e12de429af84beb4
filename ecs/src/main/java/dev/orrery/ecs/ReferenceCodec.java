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
    /**
     * Writes {@code value}. Called on the thread taking the snapshot, for rows that hold an
     * object only: a row whose column was added without a value (null) is marked absent by the
     * snapshot itself, and {@link #read} is not called for it on restore.
     *
     * @param value the component object of one row, never null
     * @param out   the snapshot's stream, positioned for this value
     * @throws IOException if writing to {@code out} fails; the snapshot then fails with a
     *     {@link SnapshotException} that carries it
     */
    void write(T value, DataOutput out) throws IOException;

    /**
     * Reads back what {@link #write} wrote. Called on the thread restoring the snapshot.
     *
     * @param in the snapshot's bytes, a {@link SnapshotInput} bounded by its section, so a
     *     count or length can be checked against {@link SnapshotInput#remaining()} before
     *     allocating
     * @return the component object, equal to the one written
     * @throws IOException if the bytes run out or are malformed; the restore then fails with
     *     one {@link SnapshotException} naming the section, the offset and the component, before
     *     anything is placed in the target world
     */
    T read(DataInput in) throws IOException;
}
