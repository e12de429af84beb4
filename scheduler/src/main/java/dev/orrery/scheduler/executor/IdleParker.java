package dev.orrery.scheduler.executor;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The park/unpark handshake of one idle thread (a worker waiting for jobs, or the caller
 * waiting for completions), kept in one class so the executor and its jcstress test run the
 * same code. A wake-up is never lost:
 *
 * <pre>
 *  idle thread (parkUnless)                 waker (after publishing work)
 *  state = PARKED            (volatile)     publish work (queue offer)
 *  work pending? -> return   (volatile)     fullFence
 *  park                                     state == PARKED? -> unpark
 *  state = ACTIVE
 * </pre>
 *
 * Each side writes, then reads what the other writes, with a full fence (a volatile write
 * followed by a volatile read on the idle side; an explicit fence on the waker's side)
 * between: so either the idle thread sees the work and does not park, or the waker sees
 * {@code PARKED} and unparks it (an unpark before the park makes the park return at once).
 *
 * <p><b>Threading:</b> {@link #parkUnless} is called only by the thread given at
 * construction or to {@link #bind}; {@link #wake} and {@link #unparkIfParked} by any thread.
 */
final class IdleParker {
    private static final int ACTIVE = 0;
    private static final int PARKED = 1;

    private volatile int state = ACTIVE;
    private volatile Thread thread;
    private final boolean clearsInterrupts;

    /** A parker for {@code thread} (null: {@link #bind} it before it parks); it leaves interrupts alone. */
    IdleParker(Thread thread) {
        this(thread, false);
    }

    /**
     * A parker for {@code thread}; with {@code clearsInterrupts} (a worker's, which the
     * executor may interrupt at a run's deadline) a pending interrupt is cleared before each
     * park, so one that arrives after its job returned cannot turn parking into spinning.
     */
    IdleParker(Thread thread, boolean clearsInterrupts) {
        this.thread = thread;
        this.clearsInterrupts = clearsInterrupts;
    }

    /** Makes {@code thread} the one that parks here; call before it first parks. */
    void bind(Thread thread) {
        this.thread = thread;
    }

    /**
     * One step of an idle wait, for the parker's own thread: the first
     * {@link ParallelExecutor#SPINS} steps spin, the next {@link ParallelExecutor#YIELDS} yield,
     * then it parks unless {@code workPending} ({@link #parkUnless}). Give it the count it
     * returned last time, 0 after finding work; it returns the next count (0 after a park).
     */
    int idle(int step, BooleanSupplier workPending) {
        if (step < ParallelExecutor.SPINS) {
            Thread.onSpinWait();
            return step + 1;
        }
        if (step < ParallelExecutor.SPINS + ParallelExecutor.YIELDS) {
            Thread.yield();
            return step + 1;
        }
        parkUnless(workPending);
        return 0;
    }

    /**
     * Idle side: announces the park, then parks unless {@code workPending} now says there is
     * work; returns when woken, at once if work was pending, or spuriously (callers loop).
     */
    void parkUnless(BooleanSupplier workPending) {
        parkUnless(workPending, 0);
    }

    /**
     * {@link #parkUnless(BooleanSupplier)} for at most {@code nanos} (0: no bound): the caller
     * waiting under a run deadline parks this way, so it looks at the clock again.
     */
    void parkUnless(BooleanSupplier workPending, long nanos) {
        state = PARKED;
        if (!workPending.getAsBoolean()) {
            if (clearsInterrupts) {
                Thread.interrupted();
            }
            if (nanos > 0) {
                LockSupport.parkNanos(this, nanos);
            } else {
                LockSupport.park(this);
            }
        }
        state = ACTIVE;
    }

    /** Waker side, after publishing work: fences, then unparks the thread if it announced a park. */
    boolean wake() {
        VarHandle.fullFence(); // the work is published before we read whether the thread parked
        return unparkIfParked();
    }

    /**
     * Waker side without the fence, for waking several parkers after one
     * {@link #fenceAfterPublish()}: unparks the thread if it announced a park; returns whether it did.
     */
    boolean unparkIfParked() {
        if (state == PARKED) {
            LockSupport.unpark(thread);
            return true;
        }
        return false;
    }

    /** The fence {@link #wake} issues, for a waker that then calls {@link #unparkIfParked} on several parkers. */
    static void fenceAfterPublish() {
        VarHandle.fullFence();
    }

    /** Unparks the thread whatever its state (closing: it re-checks its loop condition). */
    void unparkAnyway() {
        LockSupport.unpark(thread);
    }
}
