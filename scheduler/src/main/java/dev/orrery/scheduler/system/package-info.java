/**
 * What a user implements, or receives, to write systems: the bodies
 * ({@link dev.orrery.scheduler.system.ChunkSystem} per chunk,
 * {@link dev.orrery.scheduler.system.RangeSystem} per index range,
 * {@link dev.orrery.scheduler.system.LevelSystem} per slot range of a hierarchy level,
 * {@link dev.orrery.scheduler.system.ExclusiveSystem} over the whole world), the
 * {@link dev.orrery.scheduler.system.JobContext} a chunk, range or level body gets (its chunk view,
 * command buffer and declared-access-checked by-id accessors), the hooks an owner plugs into
 * a run ({@link dev.orrery.scheduler.system.SyncPoint},
 * {@link dev.orrery.scheduler.system.JobObserver}) and the failure a run throws
 * ({@link dev.orrery.scheduler.system.SystemFailedException}). Systems are declared through
 * the {@code dev.orrery.scheduler.Schedule} facade and run by an executor of
 * {@code dev.orrery.scheduler.executor}; this package depends on neither.
 *
 * <p>Threading, in short: chunk, range and level bodies run on any worker, several at once (a
 * level system's levels one after another); an
 * exclusive body, sync points and the failure run on the executor's owner thread; observers
 * on the worker that ran the job. Each type's Javadoc says more.
 */
package dev.orrery.scheduler.system;
