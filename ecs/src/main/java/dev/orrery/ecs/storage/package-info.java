/**
 * Layer: storage (internal). The world's bookkeeping beside the archetypes:
 * {@link dev.orrery.ecs.storage.EntityTable} maps each entity index to its generation and
 * location (one interleaved record per index); {@link dev.orrery.ecs.storage.SparseColumn} is
 * one sparse set (a column kept beside the rows, for components added and removed often);
 * {@link dev.orrery.ecs.storage.JobsRunning} says which systems run while the world's by-id
 * writes must refuse; {@link dev.orrery.ecs.storage.ScheduleRunClaim} says which thread runs a
 * schedule over the world, so a second executor's run from another thread is refused.
 *
 * <p>Imports only {@code ecs.component}. Not exported to user
 * modules; exported to the scheduler and the engine.
 *
 * <p><b>Memory ordering:</b> single-writer, plain fields: only the thread that owns the
 * world changes anything here. Readers on other threads rely on the scheduler's hand-off. The one
 * exception is {@code ScheduleRunClaim}, which any thread may try: a volatile field taken by
 * compare-and-set.
 */
package dev.orrery.ecs.storage;
