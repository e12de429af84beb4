package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Field;
import java.util.List;

/**
 * Where a {@link Shape}'s field values sit in the payload of a spawn-through-shape command:
 * every value column's fields as raw bits, one word each, columns in the shape's order
 * (reference and tag columns take no words; a reference is set by a separate command).
 * Made once per shape per buffer ({@link CommandBuffer} caches it), then read by recording
 * (field to word) and playback (word to column array).
 *
 * <p><b>Threading:</b> immutable once built, but for a memory of the last spawn's write order
 * that only the buffer's recording thread reads and writes ({@link #offsetOfWrite}); that
 * thread builds it, and the buffer's hand-over to the applying thread publishes it with the
 * buffer.
 */
final class ShapeLayout {
    /** The most payload words one command holds (the header's 8-bit payload length). */
    static final int MAX_WORDS = 255;

    final Shape shape;
    final Component<?>[] columns;
    /** The payload offset of each column's first field; -1 for a column without words. */
    final int[] offsets;
    final int words;
    /**
     * Where a spawn's recorded values go when they may be written after later spawns were
     * made (and by another thread), or {@code null}: the shape has values to write, no entity
     * reference among them (those resolve against the spawns made so far) and no sparse
     * column. Its {@link SpawnWords#coversRow} is true when the payload holds every field of
     * the shape's archetype (no reference column, whose object is not in the payload):
     * playback then leaves the row unzeroed, as the values overwrite all of it.
     */
    final SpawnWords deferred;
    // Index into columns by component id (-1: not in the shape), for offsetOf in O(1).
    private final int[] columnById;
    // The recording thread's memory of the fields written into the last spawn, by position, and
    // their offsets (see offsetOfWrite): mutable, and never read by playback.
    private final Field[] writeOrder;
    private final int[] writeOffset;

    ShapeLayout(Shape shape) {
        this.shape = shape;
        List<Component<?>> list = shape.columns();
        this.columns = list.toArray(new Component<?>[0]);
        this.offsets = new int[columns.length];
        int w = 0;
        for (int i = 0; i < columns.length; i++) {
            Component<?> c = columns[i];
            if (c.kind() == ComponentKind.VALUE && c.type().fieldCount() > 0) {
                offsets[i] = w;
                w += c.type().fieldCount();
            } else {
                offsets[i] = -1;
            }
        }
        if (w > MAX_WORDS) {
            throw new IllegalArgumentException(shape + " has " + w + " fields, more than the " + MAX_WORDS + " one "
                    + "spawn command holds; record spawn() and add(...) its columns instead");
        }
        this.words = w;
        boolean covers = true;
        for (Component<?> c : columns) {
            covers &= c.kind() == ComponentKind.VALUE;
        }
        covers &= shape.archetype().columnCount() == columns.length;
        this.deferred = w > 0 ? SpawnWords.ofShape(shape.archetype(), columns, w, covers) : null;
        int maxId = -1;
        for (Component<?> c : columns) {
            maxId = Math.max(maxId, c.id());
        }
        this.columnById = new int[maxId + 1];
        java.util.Arrays.fill(columnById, -1);
        for (int i = 0; i < columns.length; i++) {
            columnById[columns[i].id()] = i;
        }
        this.writeOrder = new Field[w];
        this.writeOffset = new int[w];
    }

    /**
     * {@link #offsetOf} for the {@code k}-th typed write into one spawn: a job writes the same
     * fields in the same order spawn after spawn, so the field last seen at position {@code k}
     * answers with one comparison. Called only by the owning buffer's recording thread, the
     * one that writes the remembered order (playback never reads it).
     */
    int offsetOfWrite(int k, Field field) {
        Field[] seen = writeOrder;
        if (k < seen.length && seen[k] == field) {
            return writeOffset[k];
        }
        int off = offsetOf(field);
        if (k < seen.length) {
            seen[k] = field;
            writeOffset[k] = off;
        }
        return off;
    }

    /** The payload offset of {@code field}, or -1 when its column is not a value column of the shape. */
    int offsetOf(Field field) {
        Component<?> c = field.component();
        int id = c.id();
        int i = id < columnById.length ? columnById[id] : -1;
        if (i < 0 || columns[i] != c) {
            return -1;
        }
        int at = offsets[i];
        return at < 0 ? -1 : at + field.index();
    }
}
