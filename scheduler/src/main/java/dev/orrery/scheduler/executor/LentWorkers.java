package dev.orrery.scheduler.executor;

import dev.orrery.ecs.ParallelFor;
import java.util.function.IntConsumer;

/**
 * A {@link ParallelExecutor}'s workers lent to work that is not a system's job (command
 * playback writing spawn values side by side): each task goes out as a preallocated
 * {@link Job} with no system on the executor's job queue; the workers run it like any job
 * and hand it back on the completion queue, and the caller runs tasks too while it waits.
 *
 * <p><b>Threading:</b> {@link #forEach} is called on the executor's caller thread at a sync
 * point, when no system's job is in flight, so every job on the completion queue is one of
 * these (or a system's job an earlier run wrote off at its deadline, which is skipped). The queues give the edges {@link ParallelFor} promises: the caller's writes before
 * a task is offered happen-before the worker polls it, and the worker's writes happen-before
 * the caller polls it back.
 */
final class LentWorkers implements ParallelFor {
    private final ParallelExecutor executor;
    private final JobQueues<Job> queues;
    private final int workers;
    private final Job[] jobs;

    LentWorkers(ParallelExecutor executor, JobQueues<Job> queues, int workers, int maxTasks) {
        this.executor = executor;
        this.queues = queues;
        this.workers = workers;
        this.jobs = new Job[maxTasks];
        for (int i = 0; i < jobs.length; i++) {
            jobs[i] = new Job(null, i);
        }
    }

    /** Runs a lent task, keeping its failure in the job for {@link #forEach} to throw. */
    static void run(Job job) {
        try {
            job.task.accept(job.from);
        } catch (Throwable t) {
            job.fail(t, job.from, -1);
        }
    }

    @Override
    public int threads() {
        return workers;
    }

    @Override
    public void forEach(int tasks, IntConsumer task) {
        if (workers == 1 || tasks <= 1) {
            ParallelFor.SERIAL.forEach(tasks, task);
            return;
        }
        if (tasks > jobs.length) {
            throw new IllegalArgumentException(tasks + " tasks, but the executor lends at most " + jobs.length
                    + " at once");
        }
        for (int k = 0; k < tasks; k++) {
            Job j = jobs[k];
            j.task = task;
            j.reset(k, k + 1);
            queues.offerJob(j);
        }
        executor.wakeWorkers(tasks);
        int left = tasks;
        int idle = 0;
        while (left > 0) {
            Job j = queues.pollDone();
            if (j != null && j.run != null) { // a system's job an earlier run gave up at its deadline, handed back late
                continue;
            }
            if (j == null && (j = queues.pollJob()) != null) {
                run(j);
            }
            if (j != null) {
                left--;
                idle = 0;
            } else {
                idle = executor.callerIdle(idle);
            }
        }
        Throwable failed = null;
        for (int k = 0; k < tasks; k++) {
            Job j = jobs[k];
            j.task = null;
            if (j.failure != null && failed == null) {
                failed = j.failure;
            }
        }
        if (failed instanceof RuntimeException) {
            throw (RuntimeException) failed;
        }
        if (failed instanceof Error) {
            throw (Error) failed;
        }
        if (failed != null) {
            throw new IllegalStateException("a task lent to the executor's workers failed", failed);
        }
    }
}
