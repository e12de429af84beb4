package dev.orrery.ecs;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;

/**
 * The calling thread's allocated bytes, from HotSpot's per-thread counter, for tests that
 * assert a path allocates nothing. On a JVM without the counter the test is skipped
 * (assumed), not failed.
 */
final class ThreadAllocation {
    private final com.sun.management.ThreadMXBean threads;
    private final long thread = Thread.currentThread().getId();

    private ThreadAllocation(com.sun.management.ThreadMXBean threads) {
        this.threads = threads;
    }

    /** A meter for the calling thread; skips the test where the JVM has no counter. */
    static ThreadAllocation ofCurrentThread() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs HotSpot's per-thread allocation counter");
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(threads.isThreadAllocatedMemorySupported(), "the JVM counts no per-thread allocation");
        return new ThreadAllocation(threads);
    }

    /** Bytes the thread has allocated so far (compare two readings). */
    long bytes() {
        return threads.getThreadAllocatedBytes(thread);
    }
}
