package dev.orrery.scheduler.executor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;

/**
 * One of a {@link ParallelExecutor}'s long-lived worker threads and its loop: take a job from
 * the job queue, run it (a system's job on this worker's {@link WorkerContext}, or a task
 * lent to command playback), hand it back on the completion queue and wake the caller; with
 * no job, spin, then yield, then park, as the executor's Javadoc says.
 *
 * <p><b>Retiring.</b> When a run's deadline passes with this worker still in a job, the
 * executor may {@link #retire} it and start another worker in its place: a retired worker
 * hands nothing back and leaves its loop as soon as its job returns, if ever. While it runs a
 * job it publishes the job in {@link #current()} (a release store, no fence), so the executor
 * can tell which worker holds a job it still waits for.
 *
 * <p><b>Threading:</b> {@link #run} is the thread's body; the executor reads {@link #thread},
 * {@link #context}, {@link #parker} and {@link #current()} on its caller thread (to start,
 * configure between runs, wake, retire and join the worker). The hand-offs are
 * {@link JobQueues}'; the executor's {@code aborting} and {@code closed} flags and
 * {@link #retire}'s flag are volatile.
 */
final class WorkerThread implements Runnable {
    private static final VarHandle CURRENT;

    static {
        try {
            CURRENT = MethodHandles.lookup().findVarHandle(WorkerThread.class, "current", Job.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread thread;
    final WorkerContext context;
    final IdleParker parker;
    final int id;
    private final ParallelExecutor executor;
    private final JobQueues<Job> queues;
    private final BooleanSupplier hasWork;
    @SuppressWarnings("unused") // through CURRENT
    private Job current;
    private volatile boolean retired;

    WorkerThread(ParallelExecutor executor, JobQueues<Job> queues, int id, WorkerContext context, String name) {
        this.executor = executor;
        this.queues = queues;
        this.context = context;
        this.id = id;
        this.hasWork = () -> queues.hasJobs() || executor.closed || retired;
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
        this.parker = new IdleParker(thread, true);
    }

    @Override
    public void run() {
        context.bindOwner(Thread.currentThread());
        int idle = 0;
        while (!executor.closed && !retired) {
            Job job = queues.pollJob();
            if (job != null) {
                if (retired) { // replaced meanwhile: the job is the new worker's to take
                    queues.offerJob(job);
                    executor.wakeWorkers(1);
                    return;
                }
                CURRENT.setRelease(this, job);
                if (job.task != null) {
                    LentWorkers.run(job);
                } else if (!executor.aborting) {
                    job.startedAt = System.nanoTime();
                    context.run(job);
                }
                CURRENT.setRelease(this, (Job) null);
                Thread.interrupted(); // an interrupt aimed at the job just run must not reach the next one
                if (retired) { // the executor gave this job up at a deadline: never hand it back
                    return;
                }
                queues.offerDone(job);
                executor.callerParker.wake();
                idle = 0;
            } else {
                idle = parker.idle(idle, hasWork);
            }
        }
    }

    /** The job this worker runs now, or null (caller thread; may be a moment stale). */
    Job current() {
        return (Job) CURRENT.getAcquire(this);
    }

    /**
     * Retires this worker (caller thread, at a deadline): it takes no more jobs, hands back
     * none, and its thread ends when its job returns; renamed so a thread dump says so.
     */
    void retire() {
        retired = true;
        thread.setName(thread.getName() + "-abandoned");
        parker.unparkAnyway();
    }
}
