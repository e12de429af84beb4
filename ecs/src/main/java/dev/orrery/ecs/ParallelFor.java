package dev.orrery.ecs;

import java.util.function.IntConsumer;

/**
 * Runs a number of independent tasks, on as many threads as its owner lends: how an executor
 * lends its workers to work that is not a system's job. Command playback uses one to
 * write the field values of many spawns at a sync point side by side, on the workers the
 * executor lends it; {@link Hierarchy#forEachLevel} takes one to walk a forest level by level.
 *
 * <p><b>Threading:</b> {@link #forEach} is called on one thread and returns once every task
 * has run; everything the caller wrote before the call happens-before each task, and each
 * task's writes happen-before the call returns. Tasks run concurrently with one another, so
 * they must touch disjoint memory. A task that throws makes {@code forEach} throw (the first
 * failure, after the other tasks finished).
 */
public interface ParallelFor {
    /** Runs every task on the calling thread, in order. */
    ParallelFor SERIAL = new ParallelFor() {
        @Override
        public int threads() {
            return 1;
        }

        @Override
        public void forEach(int tasks, IntConsumer task) {
            for (int i = 0; i < tasks; i++) {
                task.accept(i);
            }
        }
    };

    /**
     * How many threads may run tasks at once (the caller included); at least 1.
     *
     * @return the thread count, 1 or more
     */
    int threads();

    /**
     * Runs {@code task.accept(i)} for every {@code i} in {@code [0, tasks)}, each exactly once.
     *
     * @param tasks the number of tasks, 0 or more
     * @param task called with each task number; calls run concurrently, so each must touch its own
     *     memory only
     */
    void forEach(int tasks, IntConsumer task);
}
