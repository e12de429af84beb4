package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Publishing and draining allocate nothing per input once the batch has grown: measured in
 * bytes allocated by the test's thread (HotSpot's per-thread counter), not in time.
 */
class InputPipelineAllocationTest {
    private static final com.sun.management.ThreadMXBean THREADS = threads();

    private static com.sun.management.ThreadMXBean threads() {
        java.lang.management.ThreadMXBean t = ManagementFactory.getThreadMXBean();
        return t instanceof com.sun.management.ThreadMXBean ? (com.sun.management.ThreadMXBean) t : null;
    }

    @Test
    void shouldNotAllocatePerInputInSteadyState() {
        assumeTrue(THREADS != null && THREADS.isThreadAllocatedMemorySupported(), "needs HotSpot's counter");
        byte[] payload = new byte[16];
        try (InputPipeline p = InputPipeline.builder().ringSize(256).maxPayloadBytes(16).build()) {
            long tick = 0;
            for (int warm = 0; warm < 200; warm++) {
                runTick(p, payload, tick++);
            }
            long tid = Thread.currentThread().getId();
            long before = THREADS.getThreadAllocatedBytes(tid);
            for (int t = 0; t < 1000; t++) {
                runTick(p, payload, tick++);
            }
            long allocated = THREADS.getThreadAllocatedBytes(tid) - before;
            // 100 000 inputs: even one object per input would be megabytes
            assertTrue(allocated < 16 * 1024, allocated + " bytes allocated for 100 000 inputs");
        }
    }

    private static void runTick(InputPipeline p, byte[] payload, long tick) {
        for (int i = 0; i < 100; i++) {
            payload[0] = (byte) i;
            if (!p.tryPublish(i, 1, payload, 0, 16)) {
                throw new AssertionError("ring unexpectedly full");
            }
        }
        InputBatch b = p.beginTick(tick);
        assertEquals(100, b.size());
    }
}
