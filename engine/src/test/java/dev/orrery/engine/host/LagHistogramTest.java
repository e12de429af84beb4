package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The lag histogram's buckets and percentiles. */
class LagHistogramTest {
    @Test
    void bucketsAreContiguousAndAboutTwelvePercentWide() {
        long previousEdge = -1;
        for (int b = 0; LagHistogram.upperEdge(b) < (1L << 40); b++) {
            long edge = LagHistogram.upperEdge(b);
            assertTrue(edge > previousEdge);
            assertEquals(b, LagHistogram.bucket(edge), "the upper edge falls in its own bucket");
            assertEquals(b + 1, LagHistogram.bucket(edge + 1), "the next value opens the next bucket");
            if (b > 0) {
                assertTrue(edge - previousEdge <= (previousEdge + 1) / 8 + 1, "bucket " + b + " is at most 12.5 % wide");
            }
            previousEdge = edge;
        }
        assertEquals(LagHistogram.bucket(Long.MAX_VALUE), LagHistogram.bucket(1L << 45), "huge values share the top bucket");
    }

    @Test
    void percentilesAreTheUpperEdgeOfTheirBucketCappedAtTheMaximum() {
        LagHistogram h = new LagHistogram();
        assertEquals(0, h.percentile(0.99), "empty");
        for (int i = 1; i <= 1000; i++) {
            h.record(i * 1000L); // 1 µs .. 1 ms
        }
        h.record(-5); // counts as 0
        assertEquals(1001, h.count());
        long p50 = h.percentile(0.5);
        long p99 = h.percentile(0.99);
        assertTrue(p50 >= 500_000 && p50 <= 500_000 * 1.125, "p50 " + p50);
        assertTrue(p99 >= 990_000 && p99 <= 1_000_000, "p99 " + p99 + " is capped at the max");
        assertEquals(1_000_000, h.percentile(1.0));
        h.record(5_000_000);
        assertEquals(5_000_000, h.max());
        assertEquals(5_000_000, h.percentile(1.0), "the top percentile follows the new maximum");
        assertEquals(1002, h.count());
        h.reset();
        assertEquals(0, h.count());
        assertEquals(0, h.percentile(0.5));
    }
}
