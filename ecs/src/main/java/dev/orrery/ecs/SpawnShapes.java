package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.prototype.SpawnChain;
import java.util.Arrays;

/**
 * The cache behind {@link World#spawn(Object...)}: for each sequence of value classes seen,
 * the columns they go to and the archetype they make, so that a repeated spawn of one
 * shape resolves with a few identity comparisons and allocates nothing. The last shape
 * used is tried first (a loop spawning one kind of entity hits it every time); the others
 * sit in an open-addressing table keyed by the classes' identity hashes. Columns never
 * change after registration and archetypes never change their columns, so an entry never
 * goes stale.
 *
 * <p><b>Threading:</b> used only by the thread that owns the world.
 */
final class SpawnShapes {
    /** One resolved shape: the value classes in call order, their columns and the archetype. */
    static final class Entry {
        final Class<?>[] classes;
        final SpawnChain chain;
        final Archetype archetype;
        final int hash;

        Entry(Class<?>[] classes, Component<?>[] columns, Archetype archetype, int hash) {
            this.classes = classes;
            this.chain = new SpawnChain(columns);
            this.archetype = archetype;
            this.hash = hash;
        }

        /** True when {@code values} are, one by one, exactly of this entry's classes (nulls never match). */
        boolean matches(Object[] values) {
            Class<?>[] c = classes;
            if (values.length != c.length) {
                return false;
            }
            for (int i = 0; i < c.length; i++) {
                Object v = values[i];
                if (v == null || v.getClass() != c[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The last shape used, when the first {@code n} (1 to 4) of {@code a, b, c, d} are exactly
     * of its classes, in order; else null. The fixed-arity spawns try it before they put their
     * values in an array: a loop spawning one kind of entity matches here every time.
     */
    Entry findLast(int n, Object a, Object b, Object c, Object d) {
        Entry e = last;
        if (e == null || e.classes.length != n) {
            return null;
        }
        Class<?>[] k = e.classes;
        boolean same = exactly(a, k[0]) && (n < 2 || exactly(b, k[1])) && (n < 3 || exactly(c, k[2]))
                && (n < 4 || exactly(d, k[3]));
        return same ? e : null;
    }

    private static boolean exactly(Object value, Class<?> type) {
        return value != null && value.getClass() == type;
    }

    private Entry last;
    private Entry[] table = new Entry[16];
    private int count;

    /** The cached shape of {@code values}, or null on a miss (also when a value is null). */
    Entry find(Object[] values) {
        Entry e = last;
        if (e != null && e.matches(values)) {
            return e;
        }
        int h = hash(values);
        Entry[] t = table;
        int mask = t.length - 1;
        for (int i = h & mask; (e = t[i]) != null; i = (i + 1) & mask) {
            if (e.hash == h && e.matches(values)) {
                last = e;
                return e;
            }
        }
        return null;
    }

    /** Caches the shape of {@code values} (all non-null): they go to {@code columns}, making {@code archetype}. */
    Entry put(Object[] values, Component<?>[] columns, Archetype archetype) {
        Class<?>[] classes = new Class<?>[values.length];
        for (int i = 0; i < values.length; i++) {
            classes[i] = values[i].getClass();
        }
        Entry e = new Entry(classes, columns.clone(), archetype, hash(values));
        if (2 * (count + 1) > table.length) {
            Entry[] old = table;
            table = new Entry[old.length * 2];
            for (Entry o : old) {
                if (o != null) {
                    insert(o);
                }
            }
        }
        insert(e);
        count++;
        last = e;
        return e;
    }

    private void insert(Entry e) {
        int mask = table.length - 1;
        int i = e.hash & mask;
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = e;
    }

    /** Number of shapes cached (tests). */
    int size() {
        return count;
    }

    private static int hash(Object[] values) {
        int h = values.length;
        for (Object v : values) {
            h = 31 * h + (v == null ? 0 : System.identityHashCode(v.getClass()));
        }
        return h ^ (h >>> 16);
    }

    @Override
    public String toString() {
        return "SpawnShapes[" + count + " shapes" + (last == null ? "" : ", last " + Arrays.toString(last.classes)) + "]";
    }
}
