package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** The same seed and ticks give the same summary hash on any worker count; another seed does not. */
class ThreadCountHashTest {
    private static String hash(String summary) {
        return summary.substring(summary.indexOf("hash="));
    }

    private static String run(int threads, long seed) {
        return ArenaEndToEndTest.MainSummary.run("--agents", "4000", "--ticks", "150", "--rate", "0", "--quiet",
                "--seed", Long.toString(seed), "--threads", Integer.toString(threads));
    }

    @Test
    void shouldPrintTheSameHashWithOneAndTwoThreads() {
        String one = run(1, 11);
        String two = run(2, 11);
        assertEquals(hash(one), hash(two));
        assertEquals(one.substring(0, one.indexOf(" p50")), two.substring(0, two.indexOf(" p50")),
                "ticks and entities differ");
    }

    @Test
    void shouldPrintTheSameHashWithThreeThreadsAndAnotherWithAnotherSeed() {
        assertEquals(hash(run(1, 12)), hash(run(3, 12)));
        assertNotEquals(hash(run(1, 12)), hash(run(1, 13)));
    }
}
