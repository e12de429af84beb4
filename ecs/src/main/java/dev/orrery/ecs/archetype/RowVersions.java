package dev.orrery.ecs.archetype;

import java.util.Arrays;

/**
 * The per-row changed versions of one row-tracked column in one chunk
 * ({@code World.trackRowChanges}), and a log of the rows stamped, so that a reader finds the
 * rows changed since it last ran without scanning every row.
 *
 * <p>A stamp only appends to the log (a row and a tick: a few bytes, so marking a tenth of
 * the rows touches a tenth as much memory as marking all); {@link #version} holds each
 * row's version as of the entries folded into it ({@link #fold}), and a row's true version
 * is the larger of that and its unfolded entries. Folding happens when a version is asked
 * for (a swap-remove, a scan, a snapshot, a compaction), each entry once. The log lists the
 * rows stamped since tick {@code logBase} in stamping order (ticks never decrease along it):
 * for every row whose true version is above {@code logBase}, an entry for that row with
 * that version is in the log. A reader whose last run is at or after
 * {@code logBase} reads only the log entries newer than its last run; an older reader scans
 * the versions. Whatever breaks the promise (a row moved into a row by swap-remove, a row
 * permutation, an out-of-order stamp, a stamp that could not be logged) raises
 * {@code logBase} past it instead, so the log only ever gets less useful, never wrong.
 *
 * <p><b>Threading:</b> like the chunk's arrays. One thread stamps logged (the chunk's job,
 * or the thread that applies structural changes); jobs of the same system run may stamp
 * other rows of the chunk unlogged at the same tick, which writes only versions and raises
 * {@code logBase} to that same tick. Readers running side by side (no writer beside them)
 * may fold at once: they write the same values.
 */
final class RowVersions {
    long[] version;
    private int[] logRows;
    private long[] logTicks;
    private int logCount;
    private long logBase;
    // Entries [0, folded) are already in version[].
    private int folded;
    // logRows[ascendingFrom .. logCount) is strictly ascending: a reader whose entries all lie
    // there (one writer since it ran, marking rows in order: the usual case) walks them as they are.
    private int ascendingFrom;
    // Rows seen by compact's backward pass; clear between passes.
    private long[] seen;

    RowVersions(int capacity) {
        version = new long[capacity];
        logRows = new int[capacity * 2];
        logTicks = new long[capacity * 2];
    }

    void grow(int capacity) {
        version = Arrays.copyOf(version, capacity);
        logRows = Arrays.copyOf(logRows, capacity * 2);
        logTicks = Arrays.copyOf(logTicks, capacity * 2);
        seen = null;
    }

    /** Row {@code row} written (or arrived) at {@code tick}; logged. */
    void stamp(int row, long tick, int size) {
        if (logCount > 0 && logTicks[logCount - 1] > tick) { // out of order: keep the log sorted by dropping it
            long newest = logTicks[logCount - 1];
            forget(newest);
            version[row] = Math.max(version[row], tick);
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
        fold();
        for (int r = 0; r < size; r++) {
            if (tick > version[r]) {
                version[r] = tick;
            }
        }
        forget(tick);
    }

    /** Brings {@link #version} up to date with the log. */
    void fold() {
        for (int i = folded; i < logCount; i++) {
            int r = logRows[i];
            if (logTicks[i] > version[r]) {
                version[r] = logTicks[i];
            }
        }
        folded = logCount;
    }

    /** The true version of row {@code row}. */
    long versionOf(int row) {
        fold();
        return version[row];
    }

    /** The log no longer covers what happened up to {@code tick}: readers older than it scan the versions. */
    void forget(long tick) {
        fold();
        logCount = 0;
        folded = 0;
        ascendingFrom = 0;
        logBase = Math.max(logBase, tick);
    }

    /** Sets row {@code row}'s version outright and drops the log unread (snapshot restore, after the rows arrived at {@code now}). */
    void restore(int row, long tick, long now) {
        logCount = 0;
        folded = 0;
        ascendingFrom = 0;
        logBase = Math.max(logBase, now);
        version[row] = tick;
    }

    /** Keeps only each live row's latest entry, in log order (at most {@code size} stay). */
    private void compact(int size) {
        fold();
        if (seen == null) {
            seen = new long[(version.length + 63) >>> 6];
        }
        int w = logCount;
        for (int i = logCount - 1; i >= 0; i--) { // backwards: the first entry met per row is its latest
            int r = logRows[i];
            if (r < size && (seen[r >>> 6] & (1L << r)) == 0) {
                seen[r >>> 6] |= 1L << r;
                w--;
                logRows[w] = r;
                logTicks[w] = logTicks[i];
            }
        }
        int kept = logCount - w;
        System.arraycopy(logRows, w, logRows, 0, kept);
        System.arraycopy(logTicks, w, logTicks, 0, kept);
        Arrays.fill(seen, 0L);
        logCount = kept;
        folded = kept;
        ascendingFrom = kept; // the next append starts a new ascending run
    }

    /** The index of the first log entry newer than {@code lastRun}. */
    private int firstNewer(long lastRun) {
        return ChangeClock.firstAfter(logTicks, 0, logCount, lastRun);
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
        fold();
        for (int r = 0; r < size; r++) {
            if (version[r] > lastRun) {
                bits[r >>> 6] |= 1L << r;
                n++;
            }
        }
        return n;
    }
}
