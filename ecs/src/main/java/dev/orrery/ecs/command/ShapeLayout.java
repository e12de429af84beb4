package dev.orrery.ecs.command;

import dev.orrery.ecs.Shape;
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
 * <p><b>Threading:</b> immutable once built; a buffer's recording thread builds it, and the
 * buffer's hand-over to the applying thread publishes it with the buffer.
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
     * True when a spawn's recorded values may be written after later spawns were made (and
     * by another thread): the shape has values to write, no entity reference among them
     * (those resolve against the spawns made so far) and no sparse column.
     */
    final boolean deferrable;

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
        boolean plain = w > 0;
        for (int i = 0; i < columns.length && plain; i++) {
            Component<?> c = columns[i];
            if (c.isSparse()) {
                plain = false;
            }
            for (int f = 0; offsets[i] >= 0 && f < c.type().fieldCount() && plain; f++) {
                plain = !c.type().isEntityRef(f);
            }
        }
        this.deferrable = plain;
    }

    /** The payload offset of {@code field}, or -1 when its column is not a value column of the shape. */
    int offsetOf(Field field) {
        Component<?> c = field.component();
        for (int i = 0; i < columns.length; i++) {
            if (columns[i] == c) {
                int at = offsets[i];
                return at < 0 ? -1 : at + field.index();
            }
        }
        return -1;
    }
}
