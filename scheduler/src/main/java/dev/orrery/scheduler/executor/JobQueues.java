package dev.orrery.scheduler.executor;

import org.jctools.queues.atomic.MpmcAtomicArrayQueue;
import org.jctools.queues.atomic.MpscAtomicArrayQueue;

/**
 * The two queues a job travels through: the caller offers it on the job queue (many
 * producers, many consumers: any worker, or the caller itself, takes it), and whoever ran it
 * offers it back on the completion queue (many producers, one consumer: the caller). Kept in
 * one class so the executor and its jcstress test use the same hand-off.
 *
 * <p><b>Threading and memory ordering:</b> JCTools atomic queues: an offer is a release and a
 * successful poll an acquire. So everything the caller wrote before {@link #offerJob}
 * (the job's range, the chunk list, the phase lock) happens-before the run of the job, and
 * everything the runner wrote before {@link #offerDone} (the columns, its command buffer, the
 * job's failure) happens-before the caller's {@link #pollDone} returns the job.
 *
 * @param <J> what travels: the executor's {@code Job}
 */
final class JobQueues<J> {
    private final MpmcAtomicArrayQueue<J> jobs;
    private final MpscAtomicArrayQueue<J> done;

    /** Queues holding at least {@code capacity} elements each (every job of every system, so offers never fail). */
    JobQueues(int capacity) {
        this.jobs = new MpmcAtomicArrayQueue<>(Math.max(2, capacity));
        this.done = new MpscAtomicArrayQueue<>(Math.max(2, capacity));
    }

    /** Caller: hands out a job. */
    void offerJob(J job) {
        if (!jobs.offer(job)) {
            throw new IllegalStateException("job queue full: sized for every job of every system, so this is a bug "
                    + "in the executor");
        }
    }

    /** Any thread: takes a job to run, or null. */
    J pollJob() {
        return jobs.poll();
    }

    /** The thread that ran a job: hands it back. */
    void offerDone(J job) {
        if (!done.offer(job)) {
            throw new IllegalStateException("completion queue full: sized for every job of every system, so this "
                    + "is a bug in the executor");
        }
    }

    /** Caller: takes a completed job, or null. */
    J pollDone() {
        return done.poll();
    }

    /** True when a job waits to be taken. */
    boolean hasJobs() {
        return !jobs.isEmpty();
    }

    /** True when a completed job waits for the caller. */
    boolean hasDone() {
        return !done.isEmpty();
    }
}
