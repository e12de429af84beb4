package dev.orrery.ecs.storage;

import java.util.Arrays;

/**
 * Sorts entity indices (whole numbers from 0) ascending in arrays it keeps: a radix sort of
 * one byte a pass, skipping the high bytes no index uses, so a caller that sorts every tick
 * (the state hash walks each sparse column's members in index order) allocates nothing once
 * the arrays have grown to its largest set, and pays a few linear passes, not
 * {@code n log n}.
 *
 * <p><b>Threading:</b> one thread at a time; the array {@link #sort} returns is overwritten by
 * the next {@link #room}.
 */
public final class IndexSort {
    private static final int INSERTION_BELOW = 48;
    private int[] keys = new int[16];
    private int[] spare = new int[16];
    private final int[] counts = new int[257];

    /** The array to fill with {@code n} indices before {@link #sort}{@code (n)}; grown if needed. */
    public int[] room(int n) {
        if (keys.length < n) {
            int size = Math.max(n, keys.length * 2);
            keys = new int[size];
            spare = new int[size];
        }
        return keys;
    }

    /**
     * Sorts the first {@code n} entries of the array {@link #room} gave (each at least 0)
     * ascending and returns the array now holding them in order (one of this sort's own).
     */
    public int[] sort(int n) {
        int[] a = keys;
        if (n < INSERTION_BELOW) {
            for (int i = 1; i < n; i++) {
                int k = a[i];
                int j = i - 1;
                while (j >= 0 && a[j] > k) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = k;
            }
            return a;
        }
        int[] b = spare;
        int used = 0;
        for (int i = 0; i < n; i++) {
            used |= a[i];
        }
        for (int shift = 0; shift < Integer.SIZE && (used >>> shift) != 0; shift += Byte.SIZE) {
            Arrays.fill(counts, 0);
            for (int i = 0; i < n; i++) {
                counts[((a[i] >>> shift) & 0xFF) + 1]++;
            }
            for (int d = 0; d < 256; d++) {
                counts[d + 1] += counts[d];
            }
            for (int i = 0; i < n; i++) {
                b[counts[(a[i] >>> shift) & 0xFF]++] = a[i];
            }
            int[] t = a;
            a = b;
            b = t;
        }
        keys = a;
        spare = b;
        return a;
    }
}
