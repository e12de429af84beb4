package dev.orrery.ecs.archetype;

import java.util.Arrays;

/**
 * The per-row changed versions of one row-tracked column in one chunk
 * ({@code World.trackRowChanges}), and a log of the rows stamped, so that a reader finds the
 * rows changed since it last ran without scanning every row.
 *
 * <p>{@link #version} is the truth: the tick of each row's last write or arrival. The log
 * lists the rows stamped since tick {@link #logBase}, in stamping order (ticks never
 * decrease along it): for every row whose version is above {@code logBase}, an entry for that
 * row with that version is in the log. A reader whose last run is at or after
 * {@code logBase} reads only the log entries newer than its last run; an older reader scans
 * the versions. Whatever breaks the promise (a row moved into a row by swap-remove, a row
 * permutation, an out-of-order stamp, a stamp that could not be logged) raises
 * {@code logBase} past it instead, so the log only ever gets less useful, never wrong; and
 * a reader tests each candidate against {@link #version}, so stale entries cost a compare.
 *
 * <p><b>Threading:</b> like the chunk's arrays. One thread stamps logged (the chunk's job,
 * or the thread that applies structural changes); jobs of the same system run may stamp
 * other rows of the chunk unlogged at the same tick, which writes only versions and raises
 * {@code logBase} to that same tick.
 */
final class RowVersions {
    long[] version;
    private int[] logRows;
    private long[] logTicks;
    private int logCount;
    private long logBase;

    RowVersions(int capacity) {
        version = new long[capacity];
        logRows = new int[capacity * 2];
        logTicks = new long[capacity * 2];
    }

    void grow(int capacity) {
        version = Arrays.copyOf(version, capacity);
        logRows = Arrays.copyOf(logRows, capacity * 2);
        logTicks = Arrays.copyOf(logTicks, capacity * 2);
    }

    /** Row {@code row} written (or arrived) at {@code tick}; logged. */
    void stamp(int row, long tick, int size) {
        if (tick <= version[row]) {
            return; // already stamped at this tick (or later): logged then
        }
        version[row] = tick;
        if (logCount > 0 && logTicks[logCount - 1] > tick) {
            forget(logTicks[logCount - 1]); // out of order: keep the log sorted by dropping it
            return;
        }
        if (logCount == logRows.length) {
            compact(size);
        }
        logRows[logCount] = row;
        logTicks[logCount++] = tick;
    }

    /** Row {@code row} written at {@code tick} by a job that does not own the chunk: versions only. */
    void stampUnlogged(int row, long tick) {
        if (tick > version[row]) {
            version[row] = tick;
        }
        if (tick > logBase) {
            logBase = tick;
        }
    }

    /** Every live row written at {@code tick} (a write accessor that may have written any row). */
    void stampAll(int size, long tick) {
        for (int r = 0; r < size; r++) {
            if (tick > version[r]) {
                version[r] = tick;
            }
        }
        forget(tick);
    }

    /** The log no longer covers what happened up to {@code tick}: readers older than it scan. */
    void forget(long tick) {
        logCount = 0;
        logBase = Math.max(logBase, tick);
    }

    /** Drops the entries that are no longer a live row's latest stamp (at most {@code size} stay). */
    private void compact(int size) {
        int kept = 0;
        for (int i = 0; i < logCount; i++) {
            int r = logRows[i];
            if (r < size && version[r] == logTicks[i]) {
                logRows[kept] = r;
                logTicks[kept++] = logTicks[i];
            }
        }
        logCount = kept;
    }

    /**
     * Sets bit {@code r} of {@code bits} for every row {@code r < size} changed after
     * {@code lastRun}; {@code bits} must be clear over the first {@code size} rows. Returns
     * the number of rows set.
     */
    int collect(long lastRun, int size, long[] bits) {
        int n = 0;
        if (lastRun >= logBase) {
            int lo = 0;
            int hi = logCount;
            while (lo < hi) { // first entry newer than lastRun
                int mid = (lo + hi) >>> 1;
                if (logTicks[mid] > lastRun) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            for (int i = lo; i < logCount; i++) {
                int r = logRows[i];
                if (r < size && version[r] > lastRun && (bits[r >>> 6] & (1L << r)) == 0) {
                    bits[r >>> 6] |= 1L << r;
                    n++;
                }
            }
            return n;
        }
        for (int r = 0; r < size; r++) {
            if (version[r] > lastRun) {
                bits[r >>> 6] |= 1L << r;
                n++;
            }
        }
        return n;
    }
}
