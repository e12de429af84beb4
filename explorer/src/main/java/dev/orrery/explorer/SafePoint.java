package dev.orrery.explorer;

import dev.orrery.engine.Simulation;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The bounded queue of reads waiting for the tick thread: an HTTP thread puts a read in and
 * waits (with a time-out) for its answer; the tick thread runs the waiting reads at the end of
 * a tick, where no job runs, so a read never races the systems.
 *
 * <p><b>Threading:</b> {@link #call} on any thread; {@link #drain} on the tick thread only.
 * The queue's hand-off orders the caller's request before the read, and the future's
 * completion orders the read's result before the caller sees it.
 */
final class SafePoint {
    /** Reads waiting at once; more are refused at once (503). */
    static final int CAPACITY = 64;
    /** Reads run per tick at most, so a burst of requests cannot stretch one tick much. */
    static final int PER_TICK = 16;

    private final ArrayBlockingQueue<Read<?>> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final long timeoutNanos;

    SafePoint(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /** Why a read got no answer: the queue was full or the tick thread did not reach a safe point in time. */
    static final class Unavailable extends Exception {
        private static final long serialVersionUID = 1L;

        Unavailable(String message) {
            super(message);
        }
    }

    /**
     * Runs {@code read} on the tick thread at its next safe point and returns its result.
     *
     * @throws Unavailable when the queue is full or no safe point came within the time-out
     *     (the simulation is stopped, paused, or a tick runs long); the read is then dropped
     */
    <T> T call(Function<Simulation, T> read) throws Unavailable {
        Read<T> r = new Read<>(read);
        if (!queue.offer(r)) {
            throw new Unavailable("the explorer's request queue is full (" + CAPACITY
                    + " reads waiting for the tick thread); retry in a moment");
        }
        try {
            return r.result.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            r.result.cancel(false);
            throw new Unavailable("the simulation did not reach a safe point within " + timeoutNanos / 1_000_000
                    + " ms (is it stopped, or is a tick running long?); retry when it ticks");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted while waiting for the tick thread");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** Runs up to {@link #PER_TICK} waiting reads. Tick thread, between ticks; allocates nothing when none waits. */
    void drain(Simulation sim) {
        for (int i = 0; i < PER_TICK; i++) {
            Read<?> r = queue.poll();
            if (r == null) {
                return;
            }
            r.run(sim);
        }
    }

    /** Fails every waiting read (the explorer is closing). */
    void refuseAll() {
        Read<?> r;
        while ((r = queue.poll()) != null) {
            r.result.cancel(false);
        }
    }

    private static final class Read<T> {
        final Function<Simulation, T> body;
        final CompletableFuture<T> result = new CompletableFuture<>();

        Read(Function<Simulation, T> body) {
            this.body = body;
        }

        void run(Simulation sim) {
            if (result.isDone()) {
                return; // its caller gave up
            }
            try {
                result.complete(body.apply(sim));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        }
    }
}
