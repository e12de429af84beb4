package dev.orrery.ecs.ownership;

import java.util.concurrent.atomic.AtomicReference;

/** Test support: runs an action on a fresh thread named "intruder" and returns what it threw. */
public final class OtherThread {
    private OtherThread() {
    }

    /** Runs {@code action} on a new thread, waits for it, and returns its throwable or null. */
    public static Throwable run(Runnable action) {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                action.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "intruder");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the intruder thread", e);
        }
        return thrown.get();
    }

    /** True when the JVM runs with assertions on ({@code -ea}), as every Orrery test run does. */
    public static boolean assertionsEnabled() {
        boolean on = false;
        assert on = true;
        return on;
    }
}
