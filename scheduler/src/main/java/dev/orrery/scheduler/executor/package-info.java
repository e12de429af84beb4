/**
 * Running a schedule: the executors users construct,
 * {@link dev.orrery.scheduler.executor.SingleThreadedExecutor} (the reference, everything on
 * the calling thread) and {@link dev.orrery.scheduler.executor.ParallelExecutor}
 * (chunk-parallel jobs on long-lived workers), both behind
 * {@link dev.orrery.scheduler.ScheduleExecutor}, and the
 * {@link dev.orrery.scheduler.executor.ExecutionPlan} they run. Everything else here is
 * package-private machinery: per-system run state ({@code SystemRun}, {@code Job}; a level
 * system's stages, {@code LevelWalk}), the per-worker job context ({@code WorkerContext}) and
 * worker thread loop ({@code WorkerThread}), the run skeleton both executors share
 * ({@code PhaseLoop}: owner thread, phase lock, sync points, exclusive systems), the command
 * buffers' sync ({@code CommandSync}), the job queues ({@code JobQueues}), the park/unpark
 * handshake ({@code IdleParker}), how many jobs a system gets ({@code AdaptiveBatching},
 * {@code PickupRule}), which systems share their jobs ({@code ChunkPipelines}), and the
 * owner's steps outside jobs for a watchdog ({@code OwnerActivity}, public for the engine).
 * Public for Orrery's engine and test kit, not for users: {@code PlannedExecutor} (an executor
 * with its plan) and the determinism kit's switches ({@code BatchOverride},
 * {@code JobOrderOverride}, {@code TieOrderOverride}, {@code SystemHook}). What a system body
 * implements and receives lives in {@code dev.orrery.scheduler}; the checked mode's checks in
 * {@code dev.orrery.scheduler.check}.
 *
 * <p>Memory-ordering conventions for the package, stated once: the owner thread (the one
 * that calls {@code run}) owns every field not marked otherwise; objects cross threads only
 * through the JCTools queues of {@code JobQueues} (offer is a release, poll an acquire),
 * which is what orders a job's writes (columns, command buffer, failure) before the systems
 * that wait for it and before the sync point that plays the buffers back; volatile fields
 * carry only the idle/park handshake ({@code IdleParker}: a volatile state write, then a
 * volatile read of the queue, against a queue offer, a full fence, then a read of the state)
 * and the abort, close and retired-worker flags. The world's phase lock and jobs-running marker are written
 * by the owner while no job runs, and reach the workers through the same queues. One object
 * is read by another thread without a queue, for reports only: {@code OwnerActivity}, the
 * owner's step outside jobs, which a tick watchdog reads (its start time a release store,
 * read with an acquire load; a volatile watch flag). The other way, each worker publishes the
 * job it is in with a release store, which the owner reads with an acquire load only to name
 * and end jobs stuck past a run deadline.
 */
package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.ScheduleExecutor;
