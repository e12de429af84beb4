package dev.orrery.explorer;

import dev.orrery.engine.Simulation;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The bounded queue of reads waiting for the tick thread, and the cache that shares one read
 * among the requests that ask for the same thing at about the same time.
 *
 * <p>An HTTP thread puts a read in and waits (with a time-out) for its answer; the tick thread
 * runs waiting reads at the end of a tick, where no job runs, so a read never races the
 * systems. It runs them only until its budget for the tick is spent (at least one a tick, so
 * reads always progress): the explorer's work per tick is bounded whatever the clients ask.
 * Reads are written to be short on the tick thread (they copy a bounded slice of the world:
 * a page of entities, a sample of points), and the JSON is made afterwards on the HTTP thread.
 *
 * <p>{@link #shared} answers every request for the same key within a freshness window from
 * one read and one encoding: clients that loop the largest read cost the tick thread one read
 * per window, not one per request.
 *
 * <p><b>Threading:</b> {@link #call} and {@link #shared} on any thread; {@link #drain} on the
 * tick thread only. The queue's hand-off orders the caller's request before the read, and the
 * future's completion orders the read's result before the caller sees it.
 */
final class SafePoint {
    /** Reads waiting at once; more are refused at once (503). */
    static final int CAPACITY = 64;
    /** Shared answers kept before old ones are swept. */
    private static final int SHARED_KEPT = 256;

    private final ArrayBlockingQueue<Read<?>> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Map<String, Shared> shared = new ConcurrentHashMap<>();
    /** How often a waiting read looks whether the simulation was closed meanwhile. */
    private static final long CLOSED_CHECK_NANOS = 50_000_000L;

    private final long timeoutNanos;
    private final Stall stall;

    SafePoint(long timeoutNanos, Stall stall) {
        this.timeoutNanos = timeoutNanos;
        this.stall = stall;
    }

    /**
     * What the explorer can tell of why no safe point comes, for the refusal to say why and
     * what to do. Any thread (the request threads ask while their reads wait).
     */
    interface Stall {
        /** Why no safe point will come again (the simulation is closed), with what to do; null while one may. */
        String never();

        /** Why none came within {@code waitedMillis} (the world is between hosts, or ticks not), with what to do. */
        String late(long waitedMillis);
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
     * @throws Unavailable when the queue is full, the simulation is closed (at once, or as soon
     *     as it is closed while the read waits: no safe point will come), or no safe point came
     *     within the time-out (the world is between hosts, the simulation is stopped or paused,
     *     or a tick runs long); the read is then dropped
     */
    <T> T call(Function<Simulation, T> read) throws Unavailable {
        String never = stall.never();
        if (never != null) {
            throw new Unavailable(never);
        }
        Read<T> r = new Read<>(read);
        if (!queue.offer(r)) {
            throw new Unavailable("the explorer's request queue is full (" + CAPACITY
                    + " reads waiting for the tick thread); retry in a moment");
        }
        return await(r.result, r);
    }

    /**
     * The answer for {@code key}: the one made within the last {@code maxAgeNanos}, or the one
     * being made now, or a new one: {@code onTick} at a safe point, then {@code encode} on this
     * thread. Every request for the key meanwhile waits for that one.
     */
    <T> byte[] shared(String key, long maxAgeNanos, Function<Simulation, T> onTick, Function<T, byte[]> encode)
            throws Unavailable {
        long now = System.nanoTime();
        Shared mine = new Shared(now);
        Shared s = shared.compute(key, (k, old) -> old != null && old.freshAt(now, maxAgeNanos) ? old : mine);
        if (s != mine) {
            return await(s.bytes, null);
        }
        if (shared.size() > SHARED_KEPT) {
            sweep(now, maxAgeNanos);
        }
        try {
            byte[] bytes = encode.apply(call(onTick));
            s.completedAt = System.nanoTime();
            s.bytes.complete(bytes);
            return bytes;
        } catch (Unavailable | RuntimeException e) {
            shared.remove(key, s);
            s.bytes.completeExceptionally(e);
            throw e;
        }
    }

    private void sweep(long now, long maxAgeNanos) {
        for (Iterator<Shared> it = shared.values().iterator(); it.hasNext();) {
            Shared s = it.next();
            if (s.bytes.isDone() && !s.freshAt(now, maxAgeNanos)) {
                it.remove();
            }
        }
    }

    /**
     * Waits for {@code result} up to the time-out, in slices, so that a simulation closed
     * meanwhile ends the wait at once; cancels {@code read} (when not null) when it gives up.
     */
    private <T> T await(CompletableFuture<T> result, Read<?> read) throws Unavailable {
        long until = System.nanoTime() + timeoutNanos;
        try {
            while (true) {
                long left = until - System.nanoTime();
                try {
                    return result.get(Math.max(0, Math.min(left, CLOSED_CHECK_NANOS)), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    String never = stall.never();
                    if (never != null || left <= CLOSED_CHECK_NANOS) {
                        if (read != null) {
                            read.result.cancel(false);
                        }
                        throw new Unavailable(never != null ? never : stall.late(timeoutNanos / 1_000_000));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted while waiting for the tick thread");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Unavailable u) {
                throw new Unavailable(u.getMessage());
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(cause);
        } catch (java.util.concurrent.CancellationException e) {
            throw new Unavailable("the explorer is closing");
        }
    }

    /**
     * Runs waiting reads until {@code budgetNanos} is spent, at least one if any waits.
     * Tick thread, between ticks; allocates nothing when none waits.
     *
     * @return how many reads ran
     */
    int drain(Simulation sim, long budgetNanos) {
        long start = System.nanoTime();
        int ran = 0;
        while (ran == 0 || System.nanoTime() - start < budgetNanos) {
            Read<?> r = queue.poll();
            if (r == null) {
                return ran;
            }
            r.run(sim);
            ran++;
        }
        return ran;
    }

    /** Reads waiting now. */
    int waiting() {
        return queue.size();
    }

    /** Fails every waiting read (the explorer is closing). */
    void refuseAll() {
        Read<?> r;
        while ((r = queue.poll()) != null) {
            r.result.cancel(false);
        }
        shared.clear();
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

    /** One shared answer: made (or being made) at {@code startedAt}. */
    private static final class Shared {
        final CompletableFuture<byte[]> bytes = new CompletableFuture<>();
        final long startedAt;
        volatile long completedAt;

        Shared(long startedAt) {
            this.startedAt = startedAt;
        }

        /** Still being made, or made within {@code maxAge} of {@code now}. */
        boolean freshAt(long now, long maxAge) {
            return !bytes.isDone() ? now - startedAt < 10 * maxAge + 5_000_000_000L
                    : !bytes.isCompletedExceptionally() && now - completedAt < maxAge;
        }
    }
}
