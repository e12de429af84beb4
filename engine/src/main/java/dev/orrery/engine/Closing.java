package dev.orrery.engine;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A simulation's {@code close()}, made safe from any thread: the worker threads and the
 * watchdog are released (closed) only when no tick runs, so a close from another thread (a
 * server's shutdown hook) never pulls the workers out from under the tick in progress.
 *
 * <p>{@link #close} marks the simulation closed, so no tick starts after it; then, when no
 * tick runs, it releases at once; when the calling thread is itself in a tick (an end-of-tick
 * hook or a system that closes), the tick thread releases when that tick ends; otherwise it
 * waits for the tick in progress to end, up to {@link #WAIT_NANOS}, and releases. Past that
 * (a tick that hangs) or when interrupted it gives up with an {@link IllegalStateException},
 * and the tick thread releases when the tick ends, so nothing is released under a tick and
 * close never hangs for good.
 *
 * <p>A tick and a close follow a Dekker hand-shake on volatile fields: a tick writes
 * {@link #ticking} and then reads {@link #closed}; a close writes {@code closed} and then reads
 * {@code ticking}; so of a tick and a close that overlap, the tick is refused or the close sees
 * it. When the closer gives up, it writes the state {@code TICK_THREAD_RELEASES} and then reads
 * {@code ticking}, while the ending tick clears {@code ticking} and then reads the state: one
 * of them (a compare-and-set decides which) releases.
 *
 * <p><b>Threading:</b> {@link #close}, {@link #closed()} and {@link #ifOpen} any thread; {@link #tickStarted}
 * and {@link #tickEnded} the tick thread only (the one {@code TickOwner} let through). A tick
 * pays two volatile writes and two volatile reads, and allocates nothing.
 */
final class Closing {
    /** How long a close from another thread waits for the tick in progress: 10 seconds. */
    static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static final int OPEN = 0;
    /** A closer waits for the tick in progress to end, and will release. */
    private static final int WAITING = 1;
    /** The tick in progress releases when it ends (the closer gave up, or closed from inside it). */
    private static final int TICK_THREAD_RELEASES = 2;
    private static final int RELEASED = 3;

    /** Closes the watchdog and the executor (once; on a thread where no tick runs). */
    private final Runnable release;
    private final AtomicInteger state = new AtomicInteger(OPEN);
    private volatile boolean closed;
    /** The thread that called close() first (written before {@link #closed}). */
    private volatile Thread closer;
    /** The tick thread while it is inside a tick it was let into, else null. */
    private volatile Thread ticking;
    /** The tick number of the tick in progress (the tick thread's; read by a closer for its message). */
    private volatile long tick;
    /** How long a closer waits; {@link #WAIT_NANOS} but for tests. */
    long waitNanos = WAIT_NANOS;

    Closing(Runnable release) {
        this.release = release;
    }

    /** Whether {@link #close} was called (one volatile read; any thread). */
    boolean closed() {
        return closed;
    }

    /**
     * Runs {@code action} and returns true unless the simulation is closed (then false, nothing
     * run), atomically with {@link #close}'s mark: a close on another thread either marked it
     * first, or marks it after {@code action} and so sees what {@code action} wrote when it
     * releases (the lock's release happens-before the close's acquisition). For a change a
     * release must undo, such as starting a watchdog. Any thread; {@code action} runs on the
     * caller's, under this object's lock, so it must be short and must not wait on a close.
     */
    synchronized boolean ifOpen(Runnable action) {
        if (closed) {
            return false;
        }
        action.run();
        return true;
    }

    /** The thread that closed the simulation, or null while open. */
    Thread closer() {
        return closer;
    }

    /**
     * Tick {@code t} begins on the tick thread {@code me}: returns false, with nothing
     * changed, when the simulation was closed (before or meanwhile), so the tick must not run.
     */
    boolean tickStarted(Thread me, long t) {
        tick = t;
        ticking = me; // then read: a close meanwhile reads this (see the class comment)
        if (closed) {
            ticking = null;
            tickEnded();
            return false;
        }
        return true;
    }

    /** The tick let in by {@link #tickStarted} ended (normally or not), on the tick thread. */
    void tickEnded() {
        ticking = null; // then read the state: a closer giving up reads ticking (see the class comment)
        if (closed) {
            if (state.get() == TICK_THREAD_RELEASES && state.compareAndSet(TICK_THREAD_RELEASES, RELEASED)) {
                release.run();
            }
            Thread c = closer;
            if (c != null) {
                LockSupport.unpark(c); // a closer waiting for this tick: its wait loop re-reads ticking
            }
        }
    }

    /**
     * Closes: see the class comment. A second close, or one while another thread's close
     * waits, returns at once.
     *
     * @throws IllegalStateException when the tick in progress on another thread did not end
     *     within the wait, or the wait was interrupted (the interrupt is kept): the tick thread
     *     then releases when its tick ends
     */
    void close() {
        Thread me = Thread.currentThread();
        synchronized (this) {
            if (closed) {
                return;
            }
            closer = me;
            closed = true; // then read ticking: a tick starting meanwhile reads this (see the class comment)
        }
        Thread t = ticking;
        if (t == null) {
            releaseFrom(OPEN);
            return;
        }
        if (t == me) { // from inside a tick (a hook or a system): the tick releases when it ends
            state.set(TICK_THREAD_RELEASES);
            return;
        }
        state.set(WAITING);
        long deadline = System.nanoTime() + waitNanos;
        boolean interrupted = false;
        long left;
        while (ticking != null && (left = deadline - System.nanoTime()) > 0 && !interrupted) {
            LockSupport.parkNanos(this, left); // unparked by tickEnded
            interrupted = Thread.interrupted();
        }
        if (interrupted) {
            me.interrupt();
        }
        if (ticking == null) {
            releaseFrom(WAITING);
            return;
        }
        state.set(TICK_THREAD_RELEASES); // then read ticking: the tick may have ended meanwhile
        if (ticking == null) {
            releaseFrom(TICK_THREAD_RELEASES);
            return;
        }
        throw new IllegalStateException("Simulation.close() called on thread '" + me.getName() + "' while tick " + tick
                + " runs on the tick thread '" + t.getName() + "', which did not end it "
                + (interrupted ? "before this thread was interrupted" : "within " + waitNanos / 1_000_000 + " ms")
                + ": the simulation is closed (no tick starts again) and its worker threads stop when that tick "
                + "returns, not under it; if the tick hangs, bound it with Simulation.tickDeadline, or stop the "
                + "ticks with sim.stop() and close on the tick thread after run() returns");
    }

    private void releaseFrom(int from) {
        if (state.compareAndSet(from, RELEASED)) {
            release.run();
        }
    }
}
