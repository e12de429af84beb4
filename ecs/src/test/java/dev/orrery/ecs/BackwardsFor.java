package dev.orrery.ecs;

import java.util.function.IntConsumer;

/**
 * A {@link ParallelFor} for tests of side-by-side playback: it runs the tasks on the calling
 * thread backwards, an order no serial loop has, and counts what it was given.
 */
final class BackwardsFor implements ParallelFor {
    private final int threads;
    /** Calls to {@link #forEach} so far. */
    int calls;
    /** Tasks run so far, over every call. */
    int tasks;

    /** Claims {@code threads} threads, so playback splits its work that many ways. */
    BackwardsFor(int threads) {
        this.threads = threads;
    }

    @Override
    public int threads() {
        return threads;
    }

    @Override
    public void forEach(int n, IntConsumer task) {
        calls++;
        tasks += n;
        for (int i = n - 1; i >= 0; i--) {
            task.accept(i);
        }
    }
}
