/*
 * The source root of the orrery-ecs module. The unnamed package holds no types (Java allows no
 * package declaration here, so this is a plain comment, and the build leaves it out of
 * compilation); module-info.java beside it carries the Javadoc and the export list.
 *
 * What it holds: the entity-component system. dev.orrery.ecs is the facade (World, Query and
 * ChunkView, CommandBuffer, Shape, Template, EntityBuilder, Relations and Hierarchy, observers,
 * WorldSnapshot); dev.orrery.ecs.component the vocabulary (Component, Field, Entity, Storage,
 * validated ranges). The layers below (archetypes and chunks, the entity table and sparse
 * sets, the prototype index, the structure lock and run claim, the doors in ecs.internal) are
 * exported only to those of the scheduler and the engine that use them, each package to its
 * users (module-info.java lists them); the state hash (ecs.hash) to neither.
 *
 * Neighbours: it depends only on fastutil. orrery-scheduler runs systems over a World's queries
 * and command buffers; orrery-engine builds its tick loop on the scheduler.
 */
