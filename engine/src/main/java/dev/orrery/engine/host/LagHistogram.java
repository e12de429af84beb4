package dev.orrery.engine.host;

/**
 * A fixed-size histogram of nanosecond durations (tick lag, tick time) with about 12 %
 * resolution: eight buckets per power of two from 1 µs to about 18 minutes, one bucket below.
 * Percentiles are reported as the upper edge of their bucket (never optimistic), capped at
 * the largest value recorded. Records without allocating.
 *
 * <p><b>Threading:</b> not thread-safe; {@link WorldHost} guards each one with its lock.
 */
final class LagHistogram {
    private static final int SUB_BITS = 3;
    private static final int SUBS = 1 << SUB_BITS;
    private static final int MIN_EXP = 10; // 1024 ns: below is bucket 0
    private static final int MAX_EXP = 40;
    private static final int BUCKETS = 1 + (MAX_EXP - MIN_EXP + 1) * SUBS;

    private final long[] counts = new long[BUCKETS];
    private long count;
    private long sum;
    private long max;

    /** Records {@code nanos} (negative counts as 0). */
    void record(long nanos) {
        long v = Math.max(0, nanos);
        counts[bucket(v)]++;
        count++;
        sum += v;
        if (v > max) {
            max = v;
        }
    }

    static int bucket(long v) {
        if (v < (1L << MIN_EXP)) {
            return 0;
        }
        int exp = Math.min(63 - Long.numberOfLeadingZeros(v), MAX_EXP);
        int sub = exp == MAX_EXP && v >= (1L << (MAX_EXP + 1)) ? SUBS - 1 : (int) (v >>> (exp - SUB_BITS)) & (SUBS - 1);
        return 1 + (exp - MIN_EXP) * SUBS + sub;
    }

    /** The largest value that falls in bucket {@code b}. */
    static long upperEdge(int b) {
        if (b == 0) {
            return (1L << MIN_EXP) - 1;
        }
        int exp = MIN_EXP + (b - 1) / SUBS;
        int sub = (b - 1) % SUBS;
        return ((long) (SUBS + sub + 1) << (exp - SUB_BITS)) - 1;
    }

    /** The value at quantile {@code q} (0 to 1), 0 when empty. */
    long percentile(double q) {
        if (count == 0) {
            return 0;
        }
        long rank = Math.max(1, (long) Math.ceil(q * count));
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            seen += counts[b];
            if (seen >= rank) {
                return Math.min(upperEdge(b), max);
            }
        }
        return max;
    }

    long count() {
        return count;
    }

    long sum() {
        return sum;
    }

    long max() {
        return max;
    }

    void reset() {
        java.util.Arrays.fill(counts, 0);
        count = 0;
        sum = 0;
        max = 0;
    }
}
