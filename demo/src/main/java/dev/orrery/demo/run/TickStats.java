package dev.orrery.demo.run;

import org.HdrHistogram.Histogram;

/**
 * Tick times in HdrHistograms: one for the run's steady state after warm-up (the summary
 * line), one for the warm-up ticks (reported apart: JIT compilation makes them slow), and one
 * for the current progress interval (reset after each progress line). Values are nanoseconds with
 * three significant digits, up to one minute per tick.
 *
 * <p><b>Threading:</b> confined to the tick thread.
 */
public final class TickStats {
    private static final long HIGHEST = 60_000_000_000L;
    private final Histogram total = new Histogram(1, HIGHEST, 3);
    private final Histogram interval = new Histogram(1, HIGHEST, 3);
    private final Histogram warmup = new Histogram(1, HIGHEST, 3);

    /** Records one warm-up tick's time: in the interval and the warm-up figures, not the summary. */
    public void recordWarmup(long nanos) {
        long v = Math.max(1, Math.min(nanos, HIGHEST));
        warmup.recordValue(v);
        interval.recordValue(v);
    }

    /** Warm-up ticks recorded. */
    public long warmupCount() {
        return warmup.getTotalCount();
    }

    /** {@code ticks=N p50_ms=.. p99_ms=.. max_ms=..} of the warm-up ticks. */
    public String warmupFigures() {
        return "ticks=" + warmup.getTotalCount() + " " + figures(warmup);
    }

    /**
     * Folds the warm-up figures into the steady ones; for a run too short to leave warm-up,
     * so its summary still has figures.
     */
    public void foldWarmupIn() {
        total.add(warmup);
    }

    /** Records one tick's time. */
    public void record(long nanos) {
        long v = Math.max(1, Math.min(nanos, HIGHEST));
        total.recordValue(v);
        interval.recordValue(v);
    }

    /** Ticks recorded over the whole run. */
    public long count() {
        return total.getTotalCount();
    }

    /** The whole run's tick time at {@code percentile} (0-100), in milliseconds. */
    public double totalMillis(double percentile) {
        return total.getTotalCount() == 0 ? 0 : total.getValueAtPercentile(percentile) / 1e6;
    }

    /** The whole run's longest tick, in milliseconds. */
    public double totalMaxMillis() {
        return total.getTotalCount() == 0 ? 0 : total.getMaxValue() / 1e6;
    }

    /** {@code p50_ms=.. p99_ms=.. max_ms=..} of the current interval; then starts a new interval. */
    public String takeInterval() {
        String s = figures(interval);
        interval.reset();
        return s;
    }

    private static String figures(Histogram h) {
        return h.getTotalCount() == 0 ? "p50_ms=0.000 p99_ms=0.000 max_ms=0.000"
                : String.format(java.util.Locale.ROOT, "p50_ms=%.3f p99_ms=%.3f max_ms=%.3f",
                        h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6, h.getMaxValue() / 1e6);
    }
}
