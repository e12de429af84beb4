package dev.orrery.explorer;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * The timeline's replay thread, as {@link PastWorlds} hands it work: one thread
 * ({@code orrery-explorer-past}, a daemon) runs the requests in turn from a queue of
 * {@value #QUEUE}, ends after an idle spell and is started again by the next request; a request
 * waits for its answer up to {@link #WAIT_MILLIS}. What is refused or not answered in time is a
 * {@link SafePoint.Unavailable} whose message says to retry; what the work throws reaches the
 * request as it was thrown.
 *
 * <p><b>Threading:</b> {@link #call} and {@link #close} on any thread; the work runs on the
 * replay thread, one piece at a time, each seeing what the one before it wrote (the pool's
 * queue orders them), then {@code afterEach} on the same thread.
 */
final class PastThread {
    /** How long a request waits for the replay (going far takes a while). */
    static final long WAIT_MILLIS = 30_000;
    /** Requests that may wait for the thread; one more is refused as busy. */
    static final int QUEUE = 8;

    /** A piece of work for the replay thread, answering a request. */
    interface Work {
        /** Runs on the replay thread; its answer is the request's. */
        String run();
    }

    private final ThreadPoolExecutor thread;
    private final Runnable afterEach;
    private final LongSupplier at;

    /**
     * A replay thread that ends after {@code keepAliveMillis} idle, runs {@code afterEach} after
     * every piece of work (thrown or not), and names {@code at} (the replay's tick) in the answer
     * to a request that waited too long.
     */
    PastThread(long keepAliveMillis, Runnable afterEach, LongSupplier at) {
        this.afterEach = afterEach;
        this.at = at;
        this.thread = new ThreadPoolExecutor(1, 1, keepAliveMillis, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(QUEUE), r -> {
                    Thread t = new Thread(r, "orrery-explorer-past");
                    t.setDaemon(true);
                    return t;
                });
        thread.allowCoreThreadTimeOut(true);
    }

    /**
     * Runs {@code work} on the replay thread and returns its answer.
     *
     * @throws SafePoint.Unavailable when the queue is full, the answer took longer than
     *     {@link #WAIT_MILLIS} (the work goes on), or the caller was interrupted
     */
    String call(Work work) throws SafePoint.Unavailable {
        Future<String> f;
        try {
            f = thread.submit(() -> {
                try {
                    return work.run();
                } finally {
                    afterEach.run();
                }
            });
        } catch (RejectedExecutionException e) {
            throw new SafePoint.Unavailable("the timeline is busy with other requests (one replays at a time); "
                    + "retry in a moment");
        }
        try {
            return f.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new SafePoint.Unavailable("the replay is still on its way (at tick " + at.getAsLong() + "); it keeps "
                    + "going, so retry in a moment");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SafePoint.Unavailable("interrupted while waiting for the replay");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Queues {@code last} behind the work already queued (if there is room: a full queue's work
     * runs {@code afterEach} as it ends), lets no more in, and waits up to 5 seconds for the
     * thread to end.
     */
    void close(Runnable last) {
        try {
            thread.submit(last);
        } catch (RejectedExecutionException full) {
            // queued work runs afterEach as it ends
        }
        thread.shutdown();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
