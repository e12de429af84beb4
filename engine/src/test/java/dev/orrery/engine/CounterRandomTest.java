package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class CounterRandomTest {
    private final CounterRandom random = new CounterRandom(42L);

    @Test
    void shouldGiveSameNumberForSameKeyAndSeed() {
        CounterRandom other = new CounterRandom(42L);
        for (long e = 0; e < 1000; e++) {
            assertEquals(random.nextLong(7, e, 3), other.nextLong(7, e, 3));
            assertEquals(random.nextInt(7, e, 3, 1000), other.nextInt(7, e, 3, 1000));
            assertEquals(Float.floatToRawIntBits(random.nextFloat(7, e, 3)),
                    Float.floatToRawIntBits(other.nextFloat(7, e, 3)));
        }
    }

    @Test
    void shouldPinTheSequenceSoRecordingsStayReplayable() {
        // A change to the mixing function silently invalidates every recorded run: this
        // test fails first. Update the constants only with a journal format version bump.
        assertEquals(random.nextLong(0, 0, 0), random.cursor(0, 0, 0).nextLong());
        long[] expected = {0xA96C57F33E7E8137L, 0x968B9DD937383545L, 0x98A892FD0F47A0B8L, 0xC0298732D33B0CEAL};
        RandomCursor again = new CounterRandom(1L).cursor().reset(10, 20, 30);
        for (long v : expected) {
            assertEquals(v, again.nextLong());
        }
        assertEquals(4, again.drawn());

        // gaussians go through StrictMath.log: the same bits on every JDK this builds on
        long[] gaussianBits = {0x3FFC15C1F621E51CL, 0x3FE21A6EA74D49E4L, 0xBFDD544C0DE78765L};
        RandomCursor g = new CounterRandom(1L).cursor(10, 20, 30);
        for (long bits : gaussianBits) {
            assertEquals(bits, Double.doubleToRawLongBits(g.nextGaussian()));
        }
    }

    @Test
    void shouldGiveSameNumbersOnEveryThread() throws Exception {
        long[] expected = drawMany(random);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                results.add(pool.submit(() -> drawMany(random)));
            }
            for (Future<long[]> f : results) {
                long[] got = f.get();
                for (int i = 0; i < expected.length; i++) {
                    assertEquals(expected[i], got[i], "draw " + i + " differs between threads");
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static long[] drawMany(CounterRandom random) {
        long[] out = new long[10_000];
        RandomCursor c = random.cursor();
        for (int i = 0; i < out.length; i += 2) {
            c.reset(i / 100, i, 5);
            out[i] = c.nextLong();
            out[i + 1] = c.nextInt(17);
        }
        return out;
    }

    @Test
    void shouldDifferWhenAnyKeyPartDiffers() {
        long base = random.nextLong(5, 9, 1);
        assertNotEquals(base, random.nextLong(6, 9, 1), "tick");
        assertNotEquals(base, random.nextLong(5, 10, 1), "entity");
        assertNotEquals(base, random.nextLong(5, 9, 2), "stream");
        assertNotEquals(base, new CounterRandom(43L).nextLong(5, 9, 1), "seed");
        assertNotEquals(random.nextLong(1, 2, 0), random.nextLong(2, 1, 0), "tick and entity swapped");
        assertNotEquals(random.nextLong(0, 1, 2), random.nextLong(0, 2, 1), "entity and stream swapped");
    }

    @Test
    void shouldNotCollideAcrossAGridOfNearbyKeys() {
        Set<Long> seen = new HashSet<>();
        for (long tick = 0; tick < 40; tick++) {
            for (long e = 0; e < 40; e++) {
                for (int s = 0; s < 40; s++) {
                    assertTrue(seen.add(random.nextLong(tick, e, s)),
                            "collision at tick " + tick + " entity " + e + " stream " + s);
                }
            }
        }
    }

    @Test
    void shouldBeUniformOverConsecutiveEntities() {
        // chi-square with 63 degrees of freedom: mean 63, sd ~11.2; 130 is ~6 sd out
        int buckets = 64;
        int n = 200_000;
        long[] counts = new long[buckets];
        for (long e = 0; e < n; e++) {
            counts[random.nextInt(3, e, 0, buckets)]++;
        }
        double chi = chiSquare(counts, n);
        assertTrue(chi < 130, "chi-square " + chi + " over " + buckets + " buckets is too high");

        long[] high = new long[buckets];
        for (long t = 0; t < n; t++) {
            high[(int) (random.nextLong(t, 1, 0) >>> 58)]++;
        }
        chi = chiSquare(high, n);
        assertTrue(chi < 130, "chi-square " + chi + " of the top 6 bits over ticks is too high");
    }

    @Test
    void shouldSpreadEachBitEvenly() {
        int n = 100_000;
        int[] ones = new int[64];
        RandomCursor c = random.cursor(0, 0, 0);
        for (int i = 0; i < n; i++) {
            long x = c.nextLong();
            for (int b = 0; b < 64; b++) {
                ones[b] += (int) ((x >>> b) & 1);
            }
        }
        for (int b = 0; b < 64; b++) {
            // sd = sqrt(n/4) ~ 158; allow 6 sd
            assertTrue(Math.abs(ones[b] - n / 2) < 950, "bit " + b + " set " + ones[b] + " times of " + n);
        }
    }

    private static double chiSquare(long[] counts, int n) {
        double expected = (double) n / counts.length;
        double chi = 0;
        for (long c : counts) {
            chi += (c - expected) * (c - expected) / expected;
        }
        return chi;
    }

    @Test
    void shouldKeepBoundedIntsInRangeAndUnbiased() {
        // With a plain modulo, values below 2^32 mod bound would be twice as likely as the
        // rest for this bound; the lower half would get 2/3 of the draws instead of 1/2.
        int bound = (int) ((1L << 32) / 3 * 2 / 2); // ~1.43e9, more than 2^31 / 2
        RandomCursor c = random.cursor(1, 1, 1);
        int n = 100_000;
        int lower = 0;
        for (int i = 0; i < n; i++) {
            int v = c.nextInt(bound);
            assertTrue(v >= 0 && v < bound, "value " + v + " out of [0, " + bound + ")");
            if (v < bound / 2) {
                lower++;
            }
        }
        double fraction = lower / (double) n;
        assertTrue(Math.abs(fraction - 0.5) < 0.01, "lower half got " + fraction + " of the draws");
    }

    @Test
    void shouldKeepBoundedLongsInRangeAndUnbiased() {
        long bound = (Long.MAX_VALUE / 3) * 2; // a plain modulo of 63 bits would skew this
        RandomCursor c = random.cursor(2, 2, 2);
        int n = 100_000;
        int lower = 0;
        for (int i = 0; i < n; i++) {
            long v = c.nextLong(bound);
            assertTrue(v >= 0 && v < bound, "value " + v + " out of range");
            if (v < bound / 2) {
                lower++;
            }
        }
        double fraction = lower / (double) n;
        assertTrue(Math.abs(fraction - 0.5) < 0.01, "lower half got " + fraction + " of the draws");
    }

    @Test
    void shouldHitEverySmallBoundValueAndRanges() {
        RandomCursor c = random.cursor(0, 0, 9);
        int[] seen = new int[7];
        for (int i = 0; i < 7_000; i++) {
            seen[c.nextInt(7)]++;
            int r = c.nextInt(-3, 4);
            assertTrue(r >= -3 && r < 4, "range value " + r);
        }
        for (int v = 0; v < 7; v++) {
            assertTrue(seen[v] > 800 && seen[v] < 1200, "value " + v + " seen " + seen[v] + " times");
        }
        assertEquals(0, c.nextInt(1));
        int full = c.nextInt(Integer.MIN_VALUE, Integer.MAX_VALUE);
        assertTrue(full < Integer.MAX_VALUE);
    }

    @Test
    void shouldKeepFloatsAndDoublesInUnitInterval() {
        RandomCursor c = random.cursor(0, 0, 4);
        double sum = 0;
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            float f = c.nextFloat();
            double d = c.nextDouble();
            assertTrue(f >= 0f && f < 1f, "float " + f);
            assertTrue(d >= 0d && d < 1d, "double " + d);
            sum += d;
        }
        assertEquals(0.5, sum / n, 0.01);
        float one = random.nextFloat(1, 1, 1);
        assertTrue(one >= 0f && one < 1f);
        double dd = random.nextDouble(1, 1, 1);
        assertTrue(dd >= 0d && dd < 1d);
    }

    @Test
    void shouldDrawGaussiansWithUnitVariance() {
        RandomCursor c = random.cursor(0, 0, 8);
        int n = 100_000;
        double sum = 0;
        double sq = 0;
        for (int i = 0; i < n; i++) {
            double g = c.nextGaussian();
            assertTrue(Double.isFinite(g));
            sum += g;
            sq += g * g;
        }
        double mean = sum / n;
        assertEquals(0.0, mean, 0.02);
        assertEquals(1.0, sq / n - mean * mean, 0.03);
    }

    @Test
    void shouldRefuseEmptyBoundsWithTheValue() {
        RandomCursor c = random.cursor(0, 0, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.nextInt(0));
        assertTrue(e.getMessage().contains("0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> c.nextLong(-5L));
        assertThrows(IllegalArgumentException.class, () -> c.nextInt(3, 3));
        assertThrows(IllegalArgumentException.class, () -> random.nextInt(0, 0, 0, -1));
    }

    @Test
    void shouldGiveStableStreamNumbersForNames() {
        assertEquals(CounterRandom.stream("loot"), CounterRandom.stream("loot"));
        assertNotEquals(CounterRandom.stream("loot"), CounterRandom.stream("spawn"));
        assertEquals(0x811C_9DC5, CounterRandom.stream(""));
    }
}
