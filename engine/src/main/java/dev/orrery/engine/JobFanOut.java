package dev.orrery.engine;

import dev.orrery.scheduler.JobObserver;

/**
 * Passes every report to two observers: a Chrome trace and a {@link Simulation#observeJobs}
 * observer, when both are set.
 *
 * <p><b>Threading:</b> as {@link JobObserver}: stateless beyond its two final fields.
 */
final class JobFanOut implements JobObserver {
    private final JobObserver first;
    private final JobObserver second;

    JobFanOut(JobObserver first, JobObserver second) {
        this.first = first;
        this.second = second;
    }

    @Override
    public void jobStarted(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos) {
        first.jobStarted(workerId, systemIndex, fromChunk, toChunk, startNanos);
        second.jobStarted(workerId, systemIndex, fromChunk, toChunk, startNanos);
    }

    @Override
    public void jobRan(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos, long endNanos) {
        first.jobRan(workerId, systemIndex, fromChunk, toChunk, startNanos, endNanos);
        second.jobRan(workerId, systemIndex, fromChunk, toChunk, startNanos, endNanos);
    }

    @Override
    public void syncPointApplied(long commands, long moves, long startNanos, long endNanos) {
        first.syncPointApplied(commands, moves, startNanos, endNanos);
        second.syncPointApplied(commands, moves, startNanos, endNanos);
    }
}
