package dev.orrery.engine.host;

/**
 * Tick counters of one hosted world, or of a whole {@link WorldHost}, since it was added or
 * since the last {@link WorldHost#resetStats()}.
 *
 * <p><b>Lag</b> is how late a tick started: its start time minus the time it was due. A world
 * at {@code hz} is due every {@code 1/hz} seconds; when a tick ends after the next one was due
 * (an <b>overrun</b>), the next is due at once and the missed time is not made up, as in
 * {@code Simulation.run}. A world holds its rate while its lag stays under one period and it
 * rarely overruns.
 *
 * <p><b>Threading:</b> an immutable value.
 *
 * @param ticks ticks run (skipped ones included)
 * @param overruns ticks that ended after the next tick was due
 * @param skippedTicks ticks the simulation skipped under {@code FailurePolicy.SKIP_TICK}
 * @param lagP50Nanos median lag (upper edge of a bucket about 12 % wide)
 * @param lagP99Nanos 99th-percentile lag (same resolution)
 * @param lagMaxNanos largest lag
 * @param meanTickNanos mean time a tick ran
 * @param maxTickNanos longest tick
 * @param busyNanos time spent ticking, in all
 * @param elapsedNanos time since the counters started
 */
public record TickStats(long ticks, long overruns, long skippedTicks, long lagP50Nanos, long lagP99Nanos,
        long lagMaxNanos, long meanTickNanos, long maxTickNanos, long busyNanos, long elapsedNanos) {

    /**
     * Ticks per second over {@link #elapsedNanos()} (0 when no time passed).
     *
     * @return {@code ticks * 1e9 / elapsedNanos}, or 0
     */
    public double ticksPerSecond() {
        return elapsedNanos > 0 ? ticks * 1e9 / elapsedNanos : 0;
    }
}
