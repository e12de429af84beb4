package dev.orrery.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Method;

/**
 * The calling thread's allocated bytes from HotSpot's counter, reached by reflection (the
 * test kit's module reads no management module); the test is skipped where there is none.
 */
record Allocation(Object bean, Method counter, long thread) {
    static Allocation ofCurrentThread() {
        try {
            Object bean = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                    .invoke(null);
            Class<?> hotSpot = Class.forName("com.sun.management.ThreadMXBean");
            assumeTrue(hotSpot.isInstance(bean), "needs HotSpot's per-thread allocation counter");
            assumeTrue((Boolean) hotSpot.getMethod("isThreadAllocatedMemorySupported").invoke(bean),
                    "the JVM counts no per-thread allocation");
            Allocation a = new Allocation(bean, hotSpot.getMethod("getThreadAllocatedBytes", long.class),
                    Thread.currentThread().getId());
            a.bytes();
            return a;
        } catch (ReflectiveOperationException | RuntimeException e) {
            assumeTrue(false, "no per-thread allocation counter reachable: " + e);
            throw new AssertionError(e);
        }
    }

    long bytes() {
        try {
            return (Long) counter.invoke(bean, thread);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
