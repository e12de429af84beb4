/**
 * Saving and restoring a whole world: {@link dev.orrery.ecs.snapshot.WorldSnapshot} writes
 * the registry, archetypes, rows, entity table and prototype index to bytes (with a
 * checksum) and restores them into an empty world, identical down to the state hash;
 * reference components go through a {@link dev.orrery.ecs.snapshot.ReferenceCodec};
 * {@link dev.orrery.ecs.snapshot.SnapshotException} names what is wrong with a snapshot.
 *
 * <p>Neighbours: reads the world through {@code ecs.storage} and {@code ecs.archetype};
 * the engine uses it for record and replay. Facade: exported to every module. Runs on the
 * owning thread while no job runs.
 */
package dev.orrery.ecs.snapshot;
