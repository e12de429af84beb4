package dev.orrery.scheduler;

import dev.orrery.scheduler.executor.ParallelExecutor;
import java.util.List;
import java.util.Locale;

/**
 * How a {@link ParallelExecutor} splits one system into jobs, as decided so far: see
 * {@link ScheduleExecutor#batching()}. A system whose {@code minBatchRows} was left at the
 * default is <em>adaptive</em>: its first runs go inline on the calling thread and are timed,
 * and from then on its jobs get at least enough rows to cost the target job time
 * ({@code -Dorrery.batch.targetJobNanos}, default
 * 10 000 ns) at the measured cost per row; a
 * system with fewer than two such jobs' worth of rows runs inline, and so does one whose
 * estimated run is shorter than its jobs last waited for a worker thread to pick them up
 * (a parked worker wakes slowly: the split would only add the hand-off; such a system is
 * split now and then to time the pick-up again). A system given its own
 * {@code minBatchRows} (or one set on the schedule) keeps it: <em>explicit</em>; the value
 * {@link Schedule#DEFAULT_MIN_BATCH_ROWS} reads as not set and leaves the system adaptive.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param system the system's name
 * @param mode how its split is chosen
 * @param nanosPerRow the lowest cost per row (per index, for a range system) measured in its
 *     inline runs; {@code NaN} when none was measured
 * @param minRows the fewest rows per job it is split with now (for {@link Mode#MEASURING},
 *     the old fixed floor it will use if no run is ever measured)
 * @param lastRows the rows (indices) of its last run
 * @param lastJobs the jobs of its last run: 1 when it ran inline, 0 before its first run
 * @param pickupNanos how long its split jobs wait for a worker thread to start one, smoothed
 *     over its split runs; {@code NaN} before its first split (and for explicit, exclusive and
 *     fused systems)
 */
public record BatchDecision(String system, Mode mode, double nanosPerRow, long minRows, long lastRows, int lastJobs,
        double pickupNanos) {
    /** How a system's split is chosen. */
    public enum Mode {
        /** Its {@code minBatchRows} was set by the user, and is used as is. */
        EXPLICIT,
        /** Adaptive, still timing its first inline runs. */
        MEASURING,
        /** Adaptive, split by its measured cost per row. */
        ADAPTIVE,
        /** An exclusive system: it runs alone on the calling thread. */
        EXCLUSIVE,
        /**
         * Fused into the chunk pipeline of an earlier system over the same query: it runs in
         * that system's jobs, on the same chunks, right after it, and is split as it is.
         */
        FUSED
    }

    /**
     * One line: {@code move: adaptive, 0.61 ns/row, >= 16393 rows/job, picked up in 3.2 us; last
     * run 100000 rows in 4 jobs}.
     */
    @Override
    public String toString() {
        if (mode == Mode.EXCLUSIVE) {
            return system + ": exclusive, runs alone";
        }
        if (mode == Mode.FUSED) {
            return system + ": fused, runs in the jobs of the pipeline before it; " + (lastJobs == 0 ? "not run yet"
                    : "last run " + lastRows + " rows in " + lastJobs + (lastJobs == 1 ? " job" : " jobs"));
        }
        String cost = Double.isNaN(nanosPerRow) ? "not measured" : String.format(Locale.ROOT, "%.3g ns/row", nanosPerRow);
        String last = lastJobs == 0 ? "not run yet" : lastJobs == 1 ? "last run " + lastRows + " rows inline"
                : "last run " + lastRows + " rows in " + lastJobs + " jobs";
        String pickup = Double.isNaN(pickupNanos) ? ""
                : String.format(Locale.ROOT, ", picked up in %.3g us", pickupNanos / 1000);
        return system + ": " + mode.name().toLowerCase(Locale.ROOT) + ", " + cost + ", >= " + minRows + " rows/job"
                + pickup + "; " + last;
    }

    /**
     * The decisions as text, one line each, in graph order.
     *
     * @param decisions the decisions, as the schedule gives them
     * @return one line per decision, each ended by a newline; empty for an empty list
     */
    public static String toText(List<BatchDecision> decisions) {
        StringBuilder s = new StringBuilder();
        for (BatchDecision d : decisions) {
            s.append(d).append('\n');
        }
        return s.toString();
    }
}
