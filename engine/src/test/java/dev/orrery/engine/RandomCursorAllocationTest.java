package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** A reused cursor draws without allocating: measured in bytes, not time. */
class RandomCursorAllocationTest {
    @Test
    void shouldDrawWithoutAllocating() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs HotSpot's counter");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(threads.isThreadAllocatedMemorySupported());
        CounterRandom random = new CounterRandom(7);
        RandomCursor c = random.cursor();
        double sink = draw(c, 0); // warm-up
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        sink += draw(c, 1);
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertTrue(allocated < 4 * 1024, allocated + " bytes allocated for 400 000 draws (sink " + sink + ")");
    }

    private static double draw(RandomCursor c, long tick) {
        double s = 0;
        for (long e = 0; e < 100_000; e++) {
            c.reset(tick, e, 3);
            s += c.nextInt(10) + c.nextFloat() + c.nextGaussian();
        }
        return s;
    }
}
