/**
 * Internal: the world's bookkeeping beside the archetypes.
 * {@link dev.orrery.ecs.storage.EntityTable} maps each entity index to its generation and
 * location; {@link dev.orrery.ecs.storage.EntityRows} does the row work behind the world's
 * structural calls, keeping archetype rows, the entity table and the instance names
 * consistent; {@link dev.orrery.ecs.storage.WorldStorage} groups what the scheduler,
 * command playback and snapshots need (archetypes, entity table, named instances,
 * structure lock), handed out by {@code World.storage()}. Storage kinds other than the
 * archetype table (sparse sets) belong here too.
 *
 * <p>Neighbours: built on {@code ecs.archetype} and {@code ecs.prototype}; used by the
 * world, {@code ecs.command}, {@code ecs.snapshot} and {@code ecs.hash}. Not exported to
 * user modules; exported to {@code dev.orrery.scheduler} (structure lock around jobs) and
 * {@code dev.orrery.bench}.
 *
 * <p><b>Memory ordering:</b> single-writer, plain fields: only the thread that owns the
 * world changes anything here. Readers on other threads rely on the scheduler's hand-off.
 */
package dev.orrery.ecs.storage;
