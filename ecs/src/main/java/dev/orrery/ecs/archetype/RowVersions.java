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
 * {@code logBase} past it instead, so the log only ever gets less useful, never wrong.
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
    // logRows[ascendingFrom .. logCount) is strictly ascending: a reader whose entries all lie
    // there (one writer since it ran, marking rows in order: the usual case) walks them as they are.
    private int ascendingFrom;

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
        if (logCount == 0 || logRows[logCount - 1] >= row) {
            ascendingFrom = logCount;
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
        ascendingFrom = 0;
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
        ascendingFrom = kept; // the next append starts a new ascending run
    }

    /**
     * Sets bit {@code r} of {@code bits} for every row {@code r < size} changed after
     * {@code lastRun}; {@code bits} must be clear over the first {@code size} rows. Returns
     * the number of rows set.
     */
    /** The index of the first log entry newer than {@code lastRun}. */
    private int firstNewer(long lastRun) {
        int lo = 0;
        int hi = logCount;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (logTicks[mid] > lastRun) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * When the rows changed after {@code lastRun} are exactly the log entries from the
     * returned index to {@link #logEnd()} (those below the chunk's size), in ascending row
     * order, that index; else -1 (use {@link #collect}). No entry in that range names a row twice.
     */
    int ascendingSince(long lastRun) {
        if (lastRun < logBase) {
            return -1;
        }
        int lo = firstNewer(lastRun);
        return lo >= ascendingFrom ? lo : -1;
    }

    int[] logRows() {
        return logRows;
    }

    int logEnd() {
        return logCount;
    }

    /**
     * Sets bit {@code r} of {@code bits} for every row {@code r < size} changed after
     * {@code lastRun}; {@code bits} must be clear over the first {@code size} rows. Returns
     * the number of rows set.
     */
    int collect(long lastRun, int size, long[] bits) {
        int n = 0;
        if (lastRun >= logBase) {
            // No look at version[]: an entry newer than lastRun is a row written since, or a
            // row removed from the end since (r >= size), or one that arrived at that index
            // after such a removal (an arrival, so changed too); a swap-remove or permutation
            // that would make an entry name another entity empties the log (forget). So the
            // log path touches the log alone, a few bytes per changed row.
            for (int i = firstNewer(lastRun); i < logCount; i++) {
                int r = logRows[i];
                if (r < size && (bits[r >>> 6] & (1L << r)) == 0) {
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
