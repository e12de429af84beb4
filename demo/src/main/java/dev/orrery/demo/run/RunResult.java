package dev.orrery.demo.run;

import java.util.Locale;

/**
 * How a run ended: the figures of the summary line.
 *
 * @param ticks    ticks run
 * @param entities live entities at the end
 * @param p50Ms    median tick time, milliseconds
 * @param p99Ms    99th percentile tick time, milliseconds
 * @param maxMs    longest tick, milliseconds
 * @param hash     {@code World.stateHash()} at the end
 */
public record RunResult(long ticks, long entities, double p50Ms, double p99Ms, double maxMs, long hash) {
    /** {@code ticks=T entities=E p50_ms=A p99_ms=B max_ms=C hash=0x<16 hex digits>}. */
    public String summaryLine() {
        return String.format(Locale.ROOT, "ticks=%d entities=%d p50_ms=%.3f p99_ms=%.3f max_ms=%.3f hash=0x%016x", ticks,
                entities, p50Ms, p99Ms, maxMs, hash);
    }
}
