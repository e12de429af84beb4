/**
 * Running a schedule: {@link dev.orrery.scheduler.executor.SingleThreadedExecutor} (the
 * reference, everything on the calling thread) and
 * {@link dev.orrery.scheduler.executor.ParallelExecutor} (chunk-parallel jobs on long-lived
 * workers), both behind {@link dev.orrery.scheduler.executor.ScheduleExecutor}.
 *
 * <p>Memory-ordering conventions for the package, stated once: the calling thread owns
 * every field not marked otherwise; objects cross threads only through JCTools queues
 * (offer is a release, poll an acquire), which is what orders a job's writes before the
 * systems that wait for it; volatile fields carry only the idle/park handshake and the
 * abort and close flags.
 *
 * <p>Job bodies get a per-worker {@link dev.orrery.scheduler.executor.JobContext};
 * deferred structural work is applied at {@link dev.orrery.scheduler.executor.SyncPoint}s,
 * on the calling thread, at the end of each phase and of the run.
 */
package dev.orrery.scheduler.executor;
