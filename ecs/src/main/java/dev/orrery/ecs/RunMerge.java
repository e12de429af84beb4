package dev.orrery.ecs;

/**
 * Sorts (key, locator) pairs lexicographically by merging the sorted runs they already
 * form. Playback's pairs come buffer by buffer, and each buffer's commands are sorted by
 * key within every chunk a job processed (the sequence only grows inside a chunk, and the
 * locator only grows inside a buffer), so the input is a few long ascending runs: finding
 * them costs one pass, and merging {@code r} runs costs {@code n log r} comparisons instead
 * of a full sort. The order is exactly that of a lexicographic sort of the pairs (the key,
 * then the locator), which is total because locators are distinct.
 *
 * <p><b>Threading:</b> one instance per {@link CommandPlayback}, used by its thread only.
 */
final class RunMerge {
    private long[] scratchKeys = new long[0];
    private long[] scratchLocators = new long[0];
    private int[] runs = new int[16];

    /**
     * Sorts {@code keys[0..n)} ascending, breaking ties by {@code locators}, moving each
     * locator with its key. Every key and locator must be non-negative (they compare as
     * signed longs, as a radix sort of non-negative longs orders them).
     */
    void sort(long[] keys, long[] locators, int n) {
        int runCount = findRuns(keys, locators, n);
        if (runCount <= 1) {
            return;
        }
        if (scratchKeys.length < n) {
            scratchKeys = new long[keys.length];
            scratchLocators = new long[keys.length];
        }
        long[] srcK = keys;
        long[] srcL = locators;
        long[] dstK = scratchKeys;
        long[] dstL = scratchLocators;
        int[] r = runs;
        while (runCount > 1) {
            int merged = 0;
            for (int i = 0; i < runCount; i += 2) {
                int lo = r[i];
                if (i + 1 == runCount) {
                    int hi = r[i + 1];
                    System.arraycopy(srcK, lo, dstK, lo, hi - lo);
                    System.arraycopy(srcL, lo, dstL, lo, hi - lo);
                } else {
                    merge(srcK, srcL, lo, r[i + 1], r[i + 2], dstK, dstL);
                }
                r[merged++] = lo;
            }
            r[merged] = n;
            runCount = merged;
            long[] t = srcK;
            srcK = dstK;
            dstK = t;
            t = srcL;
            srcL = dstL;
            dstL = t;
        }
        if (srcK != keys) {
            System.arraycopy(srcK, 0, keys, 0, n);
            System.arraycopy(srcL, 0, locators, 0, n);
        }
    }

    /** Records the start of every ascending run in {@code runs}, then {@code n}; returns the run count. */
    private int findRuns(long[] keys, long[] locators, int n) {
        if (n == 0) {
            return 0;
        }
        int count = 0;
        int[] r = runs;
        r[count++] = 0;
        long prevKey = keys[0];
        long prevLoc = locators[0];
        for (int i = 1; i < n; i++) {
            long k = keys[i];
            long l = locators[i];
            if (k < prevKey || (k == prevKey && l < prevLoc)) {
                if (count + 1 >= r.length) {
                    r = java.util.Arrays.copyOf(r, r.length * 2);
                }
                r[count++] = i;
            }
            prevKey = k;
            prevLoc = l;
        }
        if (count + 1 > r.length) {
            r = java.util.Arrays.copyOf(r, r.length * 2);
        }
        r[count] = n;
        runs = r;
        return count;
    }

    /** Merges the sorted ranges {@code [lo, mid)} and {@code [mid, hi)} of the source into the same range of the destination. */
    private static void merge(long[] sk, long[] sl, int lo, int mid, int hi, long[] dk, long[] dl) {
        int i = lo;
        int j = mid;
        int o = lo;
        while (i < mid && j < hi) {
            long ki = sk[i];
            long kj = sk[j];
            if (kj < ki || (kj == ki && sl[j] < sl[i])) {
                dk[o] = kj;
                dl[o++] = sl[j++];
            } else {
                dk[o] = ki;
                dl[o++] = sl[i++];
            }
        }
        int left = mid - i;
        System.arraycopy(sk, i, dk, o, left);
        System.arraycopy(sl, i, dl, o, left);
        o += left;
        int right = hi - j;
        System.arraycopy(sk, j, dk, o, right);
        System.arraycopy(sl, j, dl, o, right);
    }
}
