/**
 * Layer: structure (internal). The row work behind every structural change:
 * {@link dev.orrery.ecs.structure.EntityRows} spawns, moves and despawns rows, keeping the
 * archetypes, the entity table and the instance names in step, and reports each change to a
 * {@link dev.orrery.ecs.structure.RowEvents} listener (the facade's change tracking: removal
 * logs and observer queues) without knowing who listens; {@link dev.orrery.ecs.structure.SparseColumns}
 * is the world's set of sparse columns with their names; {@link dev.orrery.ecs.structure.WorldStorage}
 * groups what the scheduler needs of a world (archetypes, entity table, sparse columns,
 * structure lock, jobs running).
 *
 * <p>Imports the leaves, the storage layer and {@code ecs.prototype}; nothing above. Not
 * exported to user modules; exported to the scheduler and the engine.
 *
 * <p><b>Memory ordering:</b> single-writer: only the thread that applies structural changes
 * calls in here, while no job runs.
 */
package dev.orrery.ecs.structure;
