package dev.orrery.scheduler.executor;

/**
 * Whether a system's jobs, handed to worker threads, would be picked up soon enough to pay:
 * one per adaptive system of {@link AdaptiveBatching}. A split pays only when a worker starts
 * on it before the caller would have finished alone: with a pick-up after {@code P} ns, two
 * threads end {@code W} ns of work at about {@code (W + P) / 2}, a gain only while
 * {@code P < W}. A worker that has parked takes far longer to wake than a spinning one takes a
 * job (tens to hundreds of microseconds against about one on a busy 2-vCPU machine), so the
 * pick-up is measured, not assumed: each split reports its first job's wait
 * ({@link #record}), smoothed here (a lower sample counts half, so a cold start's
 * milliseconds fade within a few splits, and a sample under half the estimate brings the
 * next probing split forward; a higher one counts a quarter, capped at four times the
 * estimate, so one descheduled worker does not decide alone). Work estimated under
 * {@link #FACTOR} times the pick-up runs inline ({@link #holdsInline}); as the pick-up
 * changes with the load, a system held inline is split again after 1, 2, 4 ... at most
 * {@link #PROBE_EVERY} inline runs, to time it anew.
 *
 * <p><b>Threading:</b> used by the executor's calling thread only; nothing is allocated after
 * construction.
 */
final class PickupRule {
    /** Work is split only when its estimate is at least this many times the pick-up. */
    static final int FACTOR = 1;
    /** The most inline runs a system held inline makes before a split times the pick-up again. */
    static final int PROBE_EVERY = 64;

    private long pickupNanos;
    private int heldInline;
    private int probeAfter = 1;

    /**
     * Whether work estimated at {@code estimatedNanos} (NaN: not estimated yet, never held)
     * should run inline this time; counts the run towards the next probing split.
     */
    boolean holdsInline(double estimatedNanos) {
        if (estimatedNanos < FACTOR * (double) pickupNanos) {
            if (++heldInline <= probeAfter) {
                return true; // a worker would join too late to pay for the hand-off
            }
            probeAfter = Math.min(PROBE_EVERY, 2 * probeAfter); // this split times the pick-up again
        } else {
            probeAfter = 1;
        }
        heldInline = 0;
        return false;
    }

    /**
     * Records a split whose first job a worker began {@code sampleNanos} after the hand-out
     * (when the caller ran every job itself, give twice the run's time: no worker came in time).
     */
    void record(long sampleNanos) {
        long old = pickupNanos;
        long sample = Math.max(1, sampleNanos);
        if (old == 0) {
            pickupNanos = sample;
        } else if (sample < old) {
            pickupNanos = old - (old - sample) / 2;
            if (sample < old / 2) {
                probeAfter = 1; // far below the estimate (a cold start's, say): re-time soon, until it settles
            }
        } else {
            long cap = old > Long.MAX_VALUE / 4 ? Long.MAX_VALUE : 4 * old;
            pickupNanos = old + (Math.min(sample, cap) - old) / 4;
        }
    }

    /** The smoothed pick-up in nanoseconds, 0 before the first {@link #record}. */
    long pickupNanos() {
        return pickupNanos;
    }

    /** Tests: takes the pick-up to be {@code nanos} from now on. */
    void assume(long nanos) {
        pickupNanos = nanos;
    }
}
