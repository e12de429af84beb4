package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** The pick-up rule's arithmetic: when work is held inline, when it is split to re-time, how samples move the estimate. */
class PickupRuleTest {
    /** Asks {@code runs} times about work of {@code estimate} ns, re-timing each split at {@code sample} ns. */
    private static String decide(PickupRule rule, int runs, double estimate, long sample) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < runs; i++) {
            boolean held = rule.holdsInline(estimate);
            if (!held) {
                rule.record(sample);
            }
            s.append(held ? 'i' : 'S');
        }
        return s.toString();
    }

    @Test
    void workShorterThanTheSteadyPickupIsSplitAfter1Then2Then4InlineRuns() {
        PickupRule rule = new PickupRule();
        rule.record(100_000);
        assertEquals("iSiiSiiiiSiiiiiiiiS", decide(rule, 19, 50_000, 100_000));
        assertEquals(100_000, rule.pickupNanos(), "samples equal to the estimate leave it");
    }

    @Test
    void theBackOffStopsAtSixtyFourInlineRuns() {
        PickupRule rule = new PickupRule();
        rule.record(100_000);
        String runs = decide(rule, 1 + 2 + 4 + 8 + 16 + 32 + 64 + 64 + 8 + 8, 50_000, 100_000);
        int last = runs.lastIndexOf('S');
        int before = runs.lastIndexOf('S', last - 1);
        assertEquals(65, last - before, "64 inline runs between the last two splits: " + runs);
    }

    @Test
    void aSampleFarBelowTheEstimateBringsTheNextSplitForward() {
        PickupRule rule = new PickupRule();
        rule.record(1_000_000); // a cold start
        assertEquals("iSiS", decide(rule, 4, 50_000, 10_000)); // each re-timing halves the gap: 505 000, then 257 500 ns
        assertEquals(257_500, rule.pickupNanos());
    }

    @Test
    void workAtLeastThePickupIsAlwaysSplitAndAnUnestimatedOneToo() {
        PickupRule rule = new PickupRule();
        assertFalse(rule.holdsInline(1), "nothing measured yet: split as before");
        rule.record(100_000);
        assertEquals("SSSS", decide(rule, 4, 100_000, 100_000));
        assertFalse(rule.holdsInline(Double.NaN), "no cost estimate: never held");
    }

    @Test
    void aHighSampleCountsAQuarterAndAtMostFourTimesTheEstimate() {
        PickupRule rule = new PickupRule();
        rule.record(100);
        rule.record(1_000_000_000); // one descheduled worker
        assertEquals(100 + (400 - 100) / 4, rule.pickupNanos());
        rule.record(175 + 4 * 25);
        assertEquals(175 + 25, rule.pickupNanos());
    }
}
