package dev.orrery.scheduler.executor;

import java.util.function.BooleanSupplier;

/**
 * One of a {@link ParallelExecutor}'s long-lived worker threads and its loop: take a job from
 * the job queue, run it (a system's job on this worker's {@link WorkerContext}, or a task
 * lent to command playback), hand it back on the completion queue and wake the caller; with
 * no job, spin, then yield, then park, as the executor's Javadoc says.
 *
 * <p><b>Threading:</b> {@link #run} is the thread's body; the executor reads {@link #thread},
 * {@link #context} and {@link #parker} on its caller thread (to start, configure between runs,
 * wake and join the worker). The hand-offs are {@link JobQueues}'; the executor's
 * {@code aborting} and {@code closed} flags are volatile.
 */
final class WorkerThread implements Runnable {
    final Thread thread;
    final WorkerContext context;
    final IdleParker parker;
    private final ParallelExecutor executor;
    private final JobQueues<Job> queues;
    private final BooleanSupplier hasWork;

    WorkerThread(ParallelExecutor executor, JobQueues<Job> queues, int id, WorkerContext context) {
        this.executor = executor;
        this.queues = queues;
        this.context = context;
        this.hasWork = () -> queues.hasJobs() || executor.closed;
        this.thread = new Thread(this, "orrery-worker-" + id);
        thread.setDaemon(true);
        this.parker = new IdleParker(thread);
    }

    @Override
    public void run() {
        context.bindOwner(Thread.currentThread());
        int idle = 0;
        while (!executor.closed) {
            Job job = queues.pollJob();
            if (job != null) {
                if (job.task != null) {
                    LentWorkers.run(job);
                } else if (!executor.aborting) {
                    context.run(job);
                }
                queues.offerDone(job);
                executor.callerParker.wake();
                idle = 0;
            } else {
                idle = parker.idle(idle, hasWork);
            }
        }
    }
}
