package dev.orrery.scheduler.executor;

/**
 * Forces every system of the executors made on this thread to split its work into jobs of a
 * given size, as if each had declared {@code minBatchRows(n)}: how the determinism kit makes
 * work cross workers in a game whose systems would otherwise run on the calling thread (the
 * adaptive batching keeps small systems inline). Not for production use.
 *
 * <p><b>Threading:</b> per thread: {@link #set} before building a simulation or an executor on
 * this thread, {@link #clear} after; the executor reads it once, at construction.
 */
public final class BatchOverride {
    private static final ThreadLocal<Integer> ROWS = new ThreadLocal<>();

    private BatchOverride() {
    }

    /** Executors made on this thread from now on use {@code minBatchRows} for every system. */
    public static void set(int minBatchRows) {
        if (minBatchRows < 1) {
            throw new IllegalArgumentException("a forced batch size must be at least 1 row, got " + minBatchRows);
        }
        ROWS.set(minBatchRows);
    }

    /** Executors made on this thread from now on use each system's own batching again. */
    public static void clear() {
        ROWS.remove();
    }

    /** The forced size, or 0 when none is set on this thread. */
    static int current() {
        Integer n = ROWS.get();
        return n == null ? 0 : n;
    }
}
