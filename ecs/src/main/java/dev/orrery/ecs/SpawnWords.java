package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.FieldType;

/**
 * Where the recorded values of one kind of deferred spawn sit in its command buffer's words,
 * and where each word goes in its archetype: per value word, its offset from the spawn's
 * first payload word, the archetype slot and field it fills, and the field's type. Command
 * playback makes such a spawn's entity at once and writes these words later, many spawns
 * at a time ({@link FieldScatter}).
 *
 * <p>Two kinds: a spawn through a shape, whose values are its command's payload in the
 * shape's order ({@link #ofShape}); and a {@code spawn()} followed by one {@code add(h,
 * column, value)} per column ({@link #ofAdds}), whose values are those adds' payloads, each
 * after its own command header. Neither holds an entity reference (those resolve against
 * the spawns made so far) or a sparse column.
 *
 * <p><b>Threading:</b> immutable.
 */
final class SpawnWords {
    /** The archetype the spawn's row lives in. */
    final Archetype archetype;
    /** True when the words fill every field of the archetype, so the row needs no zeroing. */
    final boolean coversRow;
    /** Per value word: its offset from the spawn's first payload word. */
    final int[] offset;
    /** Per value word: the archetype slot, the field within that slot's column, and its type. */
    final int[] slot;
    final int[] field;
    final FieldType[] type;

    private SpawnWords(Archetype archetype, boolean coversRow, int words) {
        this.archetype = archetype;
        this.coversRow = coversRow;
        this.offset = new int[words];
        this.slot = new int[words];
        this.field = new int[words];
        this.type = new FieldType[words];
    }

    /**
     * The words of a spawn through a shape whose value columns are {@code columns}, their
     * fields one word each in that order from the payload's start; {@code null} when one of
     * them is sparse or holds an entity reference.
     */
    static SpawnWords ofShape(Archetype archetype, Component<?>[] columns, int words, boolean coversRow) {
        if (!plainValues(columns, columns.length)) {
            return null;
        }
        SpawnWords w = new SpawnWords(archetype, coversRow, words);
        int at = 0;
        for (Component<?> c : columns) {
            if (c.kind() == ComponentKind.VALUE) {
                at = w.fill(at, at, c);
            }
        }
        return w;
    }

    /**
     * The words of a {@code spawn()} into {@code archetype} whose value adds are
     * {@code columns[0..n)}, the payload of add {@code k} starting {@code starts[k]} words after
     * the first one's; {@code null} unless every add carries a whole value of a distinct,
     * non-sparse value column of the archetype with no entity reference.
     */
    static SpawnWords ofAdds(Archetype archetype, Component<?>[] columns, int[] starts, int n, boolean coversRow) {
        if (!plainValues(columns, n)) {
            return null;
        }
        int words = 0;
        long seen = 0;
        for (int k = 0; k < n; k++) {
            Component<?> c = columns[k];
            int s = archetype.slotOf(c.id());
            if (c.kind() != ComponentKind.VALUE || c.type().fieldCount() == 0 || s < 0 || s >= Long.SIZE
                    || (seen & (1L << s)) != 0) {
                return null;
            }
            seen |= 1L << s;
            words += c.type().fieldCount();
        }
        SpawnWords w = new SpawnWords(archetype, coversRow, words);
        int at = 0;
        for (int k = 0; k < n; k++) {
            at = w.fill(at, starts[k], columns[k]);
        }
        return w;
    }

    /** True when none of {@code columns[0..n)} is sparse or has an entity-reference field. */
    private static boolean plainValues(Component<?>[] columns, int n) {
        for (int k = 0; k < n; k++) {
            Component<?> c = columns[k];
            if (c.isSparse()) {
                return false;
            }
            for (int f = 0; c.kind() == ComponentKind.VALUE && f < c.type().fieldCount(); f++) {
                if (c.type().isEntityRef(f)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Describes column {@code c}'s fields as words {@code at..}, read from offsets {@code from..}; returns the next word. */
    private int fill(int at, int from, Component<?> c) {
        int s = archetype.slotOf(c.id());
        for (int f = 0; f < c.type().fieldCount(); f++, at++) {
            offset[at] = from + f;
            slot[at] = s;
            field[at] = f;
            type[at] = c.type().fieldType(f);
        }
        return at;
    }
}
