/**
 * Layer: leaves (internal). What a system declared it may touch, as data the facade checks
 * against: {@link dev.orrery.ecs.access.AccessPolicy} (which columns a chunk view may hand out
 * for reading or writing) and {@link dev.orrery.ecs.access.StructuralEffects} (which
 * structural commands a command buffer may record: spawns with which components, adds,
 * removes, deferred sets, despawns). The scheduler builds both from a system's declaration;
 * the chunk view and the command buffer refuse what they do not cover, naming the system and
 * the declaration to add.
 *
 * <p>Imports only {@code ecs.component}. Immutable once built; read from worker threads after
 * the scheduler's hand-off.
 */
package dev.orrery.ecs.access;
