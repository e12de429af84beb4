package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Latch waits the thread tests share: bounded (60 s, for a loaded machine), failing the test on a time-out. */
final class Latches {
    private Latches() {
    }

    /** Waits for {@code latch}, failing the test after 60 s. */
    static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(60, TimeUnit.SECONDS), "timed out");
        } catch (InterruptedException e) {
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Waits for {@code latch} through the executor's interrupt at the deadline, as a job that never checks it. */
    static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        long until = System.nanoTime() + 60_000_000_000L;
        while (latch.getCount() > 0 && System.nanoTime() < until) {
            try {
                latch.await(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
