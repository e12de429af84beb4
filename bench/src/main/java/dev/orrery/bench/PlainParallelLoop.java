package dev.orrery.bench;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The plain-Java baseline for the parallel workloads: a loop over {@code [0, n)} cut into
 * one equal range per thread, run by {@code threads - 1} long-lived threads and the caller,
 * the way a programmer with no ECS would write it. No queues, no chunks, no access checks:
 * the distance between this and the executor is what Orrery's scheduling costs.
 *
 * <p><b>Threading:</b> {@link #run} is called by one thread at a time; it publishes the body
 * through a volatile generation counter, runs range 0 itself, and spins (then yields) until
 * every range is done, so each range's writes happen-before {@code run} returns. Idle
 * threads spin briefly, then park until the next run unparks them; nothing is allocated
 * per run.
 */
public final class PlainParallelLoop implements AutoCloseable {
    /** A body over the rows {@code [from, to)}. */
    @FunctionalInterface
    public interface RangeBody {
        /** Processes rows {@code [from, to)}; {@code thread} is 0 for the caller, 1.. for the helpers. */
        void run(int thread, int from, int to);
    }

    private final int threads;
    private final Thread[] helpers;
    private final AtomicInteger remaining = new AtomicInteger();
    private volatile int generation;
    private volatile boolean closed;
    private RangeBody body;
    private int n;

    /** A loop run by {@code threads} threads in all (the caller and {@code threads - 1} started here). */
    public PlainParallelLoop(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("a plain parallel loop needs at least 1 thread, got " + threads);
        }
        this.threads = threads;
        this.helpers = new Thread[threads - 1];
        for (int t = 1; t < threads; t++) {
            int id = t;
            Thread th = new Thread(() -> helperLoop(id), "plain-loop-" + t);
            th.setDaemon(true);
            helpers[t - 1] = th;
            th.start();
        }
    }

    /** Runs {@code body} over {@code [0, n)}, one equal range per thread; returns when all are done. */
    public void run(RangeBody body, int n) {
        if (threads == 1) {
            body.run(0, 0, n);
            return;
        }
        this.body = body;
        this.n = n;
        remaining.set(threads - 1);
        generation = generation + 1; // volatile write publishes body and n
        for (Thread h : helpers) {
            LockSupport.unpark(h);
        }
        body.run(0, 0, n / threads);
        int spins = 0;
        while (remaining.get() > 0) {
            if (++spins < 10_000) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    private void helperLoop(int id) {
        int seen = 0;
        while (!closed) {
            int spins = 0;
            while (generation == seen && !closed) {
                if (++spins < 10_000) {
                    Thread.onSpinWait();
                } else {
                    // run() unparks every helper after publishing: an unpark before this
                    // park leaves a permit, so no wake-up is lost, and an idle helper takes
                    // no CPU from whatever is being timed beside it
                    LockSupport.park(this);
                }
            }
            if (closed) {
                return;
            }
            seen = generation;
            int total = n;
            body.run(id, (int) ((long) total * id / threads), (int) ((long) total * (id + 1) / threads));
            remaining.decrementAndGet();
        }
    }

    /** Stops the helper threads. */
    @Override
    public void close() {
        closed = true;
        for (Thread h : helpers) {
            LockSupport.unpark(h);
        }
    }
}
