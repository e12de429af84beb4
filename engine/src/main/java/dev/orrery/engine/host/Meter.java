package dev.orrery.engine.host;

/**
 * The counters behind one {@link TickStats}: a lag histogram and tick totals, updated once a
 * tick without allocating.
 *
 * <p><b>Threading:</b> not thread-safe; {@link WorldHost} guards each one with its lock.
 */
final class Meter {
    private final LagHistogram lag = new LagHistogram();
    private long overruns;
    private long skipped;
    private long busy;
    private long maxTick;
    private long since;

    Meter(long now) {
        this.since = now;
    }

    void record(long lagNanos, long tickNanos, boolean overrun, boolean skippedTick) {
        lag.record(lagNanos);
        busy += tickNanos;
        maxTick = Math.max(maxTick, tickNanos);
        if (overrun) {
            overruns++;
        }
        if (skippedTick) {
            skipped++;
        }
    }

    TickStats stats(long now) {
        long ticks = lag.count();
        return new TickStats(ticks, overruns, skipped, lag.percentile(0.50), lag.percentile(0.99), lag.max(),
                ticks == 0 ? 0 : busy / ticks, maxTick, busy, now - since);
    }

    void reset(long now) {
        lag.reset();
        overruns = 0;
        skipped = 0;
        busy = 0;
        maxTick = 0;
        since = now;
    }
}
