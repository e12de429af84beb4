package dev.orrery.scheduler.check;

import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;

/**
 * Fingerprints of the columns a system declared read-only, over the chunks one job covers:
 * the checked mode's way to catch a job that writes into an array a {@code read...}
 * accessor returned (which the chunk view cannot see). The executor takes the fingerprint of
 * each read-only component before the job and compares after it; a difference is a write.
 * The fingerprint mixes every field value's exact bits (a reference column's identity hash)
 * with its position, so a changed value is missed only on a 64-bit hash collision.
 *
 * <p><b>Threading:</b> stateless; called by the thread running the job, over chunks that no
 * other thread writes while it runs (the graph keeps writers of a read-only column away).
 */
public final class ReadOnlyColumns {
    private static final long MIX = 0x9E37_79B9_7F4A_7C15L;

    private ReadOnlyColumns() {
    }

    /**
     * The fingerprint of {@code column} over the live rows of {@code chunks[from, to)}; chunks
     * whose archetype lacks the column (an optional query term) add nothing. Allocates nothing.
     */
    public static long fingerprint(Component<?> column, Chunk[] chunks, int from, int to) {
        long h = column.id();
        int fields = column.type().fieldCount();
        for (int c = from; c < to; c++) {
            Chunk chunk = chunks[c];
            int slot = chunk.archetype().slotOf(column.id());
            if (slot < 0) {
                continue;
            }
            int n = chunk.size();
            for (int f = 0; f < fields; f++) {
                h = mixArray(h * MIX + c, chunk.array(slot, f), n);
            }
        }
        return h;
    }

    /** Fingerprints each of {@code columns} over {@code chunks[from, to)} into {@code into}. Allocates nothing. */
    public static void fingerprintAll(Component<?>[] columns, Chunk[] chunks, int from, int to, long[] into) {
        for (int i = 0; i < columns.length; i++) {
            into[i] = fingerprint(columns[i], chunks, from, to);
        }
    }

    /**
     * The first of {@code columns} whose fingerprint over {@code chunks[from, to)} differs from
     * {@code before} (as {@link #fingerprintAll} took it), or {@code null} when none was written.
     */
    public static Component<?> firstChanged(Component<?>[] columns, Chunk[] chunks, int from, int to, long[] before) {
        for (int i = 0; i < columns.length; i++) {
            if (fingerprint(columns[i], chunks, from, to) != before[i]) {
                return columns[i];
            }
        }
        return null;
    }

    private static long mixArray(long h, Object array, int n) {
        if (array instanceof float[] a) {
            for (int i = 0; i < n; i++) {
                h = (h + Float.floatToRawIntBits(a[i])) * MIX;
            }
        } else if (array instanceof int[] a) {
            for (int i = 0; i < n; i++) {
                h = (h + a[i]) * MIX;
            }
        } else if (array instanceof long[] a) {
            for (int i = 0; i < n; i++) {
                h = (h + a[i]) * MIX;
            }
        } else if (array instanceof double[] a) {
            for (int i = 0; i < n; i++) {
                h = (h + Double.doubleToRawLongBits(a[i])) * MIX;
            }
        } else if (array instanceof byte[] a) {
            for (int i = 0; i < n; i++) {
                h = (h + a[i]) * MIX;
            }
        } else if (array instanceof short[] a) {
            for (int i = 0; i < n; i++) {
                h = (h + a[i]) * MIX;
            }
        } else if (array instanceof char[] a) {
            for (int i = 0; i < n; i++) {
                h = (h + a[i]) * MIX;
            }
        } else if (array instanceof boolean[] a) {
            for (int i = 0; i < n; i++) {
                h = (h + (a[i] ? 1 : 2)) * MIX;
            }
        } else if (array instanceof Object[] a) {
            for (int i = 0; i < n; i++) {
                h = (h + System.identityHashCode(a[i])) * MIX;
            }
        }
        return h ^ (h >>> 29);
    }
}
