/**
 * The ECS facade: {@link dev.orrery.ecs.World} (entities, components, queries, structural
 * calls, by-id field access, state hashes) and {@link dev.orrery.ecs.EntityBuilder}. This
 * is the package a user of the ECS starts from.
 *
 * <p>Behind the world, each room holds one concern. Facade packages, for every user:
 * {@code ecs.entity} (ids), {@code ecs.component} (component types, columns, fields),
 * {@code ecs.query} (queries and the checked {@code ChunkView}), {@code ecs.command}
 * (command buffers and their playback), {@code ecs.prototype} (instance names, templates,
 * property handles), {@code ecs.snapshot} (save and restore). Internal packages, for
 * Orrery's own modules only: {@code ecs.archetype} (archetypes, chunks, row moves),
 * {@code ecs.storage} (entity table, row work, {@code WorldStorage}), {@code ecs.hash}
 * (state hashing) and {@code ecs.ownership} (owner-thread assertions). Dependencies point
 * from here outwards; no package below imports this one except {@code ecs.command} and
 * {@code ecs.snapshot}, which work on a whole world.
 *
 * <p>Threading: a world belongs to one thread at a time (see {@link dev.orrery.ecs.World});
 * this module starts no threads and uses no locks or volatile fields. The scheduler
 * supplies the happens-before edges between the owning thread and its workers.
 */
package dev.orrery.ecs;
