/**
 * Layer: storage (internal). Where entity data lives. {@link dev.orrery.ecs.archetype.Archetypes} holds
 * every archetype (a sorted set of column ids), the archetype graph and the component
 * index; an {@link dev.orrery.ecs.archetype.Archetype} keeps its rows in
 * {@link dev.orrery.ecs.archetype.Chunk}s, structure of arrays. Single-row moves follow a
 * cached {@link dev.orrery.ecs.archetype.MovePlan} (edges in {@code ArchetypeEdges},
 * field copies in {@code FieldCopies}); block moves of many rows are in {@code RowBlocks},
 * behind {@link dev.orrery.ecs.archetype.BulkMoves} (bulk add and remove) and
 * {@link dev.orrery.ecs.archetype.RowSort}. The {@link dev.orrery.ecs.archetype.StructureLock}
 * says when rows must not move.
 *
 * <p>Imports only a leaf, {@code ecs.component}. The row work of
 * {@code ecs.structure} drives it and keeps the entity table in step; queries hand chunks to
 * systems only through the facade's checked {@code ChunkView}. Not exported to user modules
 * (a chunk's raw arrays would walk round the declared-access check); exported to the
 * scheduler (it splits chunks into jobs) and the engine.
 *
 * <p><b>Memory ordering:</b> everything here is written only by the thread that applies
 * structural changes, while the structure lock is not held. Workers read chunk arrays
 * (and write the columns their system declared) only between the scheduler's hand-off
 * and its completion signal, which order those accesses against every structural change;
 * no field here is volatile.
 */
package dev.orrery.ecs.archetype;
