package dev.orrery.ecs;

import java.util.Arrays;

/**
 * Reused argument arrays for the fixed-arity spawn calls ({@code world.spawn(a, b)},
 * {@code shape.spawn(a, b)}): the values travel to the varargs form in an array kept here
 * instead of a new varargs array per call (24-40 bytes each). A call that re-enters while
 * the array is out (a record accessor that spawns: refused in checked mode before it takes
 * one, see {@code EntityRows.writeValue}) gets a fresh array, and {@link #release} clears the
 * array so no caller's record stays reachable from the world.
 *
 * <pre>{@code
 * Object[] v = arguments.take(2);
 * v[0] = a;
 * v[1] = b;
 * try {
 *     return spawn(v);
 * } finally {
 *     arguments.release(v);
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> owned by the world's owning thread, like the spawns that use it.
 */
final class ArgumentScratch {
    private final Object[][] byLength;
    private boolean inUse;

    /** Keeps one array of each length from {@code minLength} to {@code maxLength}. */
    ArgumentScratch(int minLength, int maxLength) {
        byLength = new Object[maxLength + 1][];
        for (int n = minLength; n <= maxLength; n++) {
            byLength[n] = new Object[n];
        }
    }

    /** An array of length {@code n}: the kept one when it is free, else a new one. */
    Object[] take(int n) {
        Object[] kept = inUse || n >= byLength.length ? null : byLength[n];
        if (kept == null) {
            return new Object[n];
        }
        inUse = true;
        return kept;
    }

    /**
     * {@link #take(int)} holding the first {@code n} (1 to 4) of {@code a, b, c, d}: the
     * fixed-arity spawns' way into the array path.
     */
    Object[] take(int n, Object a, Object b, Object c, Object d) {
        Object[] v = take(n);
        v[0] = a;
        if (n > 1) {
            v[1] = b;
        }
        if (n > 2) {
            v[2] = c;
        }
        if (n > 3) {
            v[3] = d;
        }
        return v;
    }

    /** Gives back an array {@link #take} handed out; a kept one is cleared and free again. */
    void release(Object[] array) {
        if (array.length < byLength.length && array == byLength[array.length]) {
            Arrays.fill(array, null);
            inUse = false;
        }
    }

    /** True when no kept array holds a reference (tests). */
    boolean holdsNothing() {
        for (Object[] a : byLength) {
            for (int i = 0; a != null && i < a.length; i++) {
                if (a[i] != null) {
                    return false;
                }
            }
        }
        return true;
    }
}
