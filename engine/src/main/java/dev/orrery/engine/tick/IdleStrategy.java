package dev.orrery.engine.tick;

import java.util.concurrent.locks.LockSupport;

/**
 * What the run loop does when it is ahead of its tick rate: park the thread until shortly
 * before the deadline, then yield until it. Parking keeps an idle server off the CPU;
 * yielding for the last stretch absorbs the park's wake-up jitter (tens of microseconds
 * to a millisecond), so ticks start on time.
 *
 * <p><b>Threading:</b> used by the tick thread only.
 */
public final class IdleStrategy {
    /** Wake this long before the deadline and yield for the rest. */
    public static final long SPIN_MARGIN_NANOS = 200_000;

    private IdleStrategy() {
    }

    /** Waits until {@link System#nanoTime()} reaches {@code deadline}. */
    public static void idleUntil(long deadline) {
        for (;;) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            if (left > SPIN_MARGIN_NANOS) {
                LockSupport.parkNanos(left - SPIN_MARGIN_NANOS);
            } else {
                Thread.onSpinWait();
                Thread.yield();
            }
        }
    }
}
