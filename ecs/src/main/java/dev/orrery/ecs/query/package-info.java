/**
 * Queries and the checked view systems read through. A {@link dev.orrery.ecs.query.Query}
 * matches archetypes (with, without, any, optional terms) and keeps its match list current
 * as archetypes appear; {@link dev.orrery.ecs.query.ChunkView} hands a system one chunk's
 * primitive arrays, checking each access against an
 * {@link dev.orrery.ecs.query.AccessPolicy} and throwing
 * {@link dev.orrery.ecs.query.UndeclaredAccessException} for an undeclared one; the chunk
 * itself is not reachable through the view.
 *
 * <p>Neighbours: depends on {@code ecs.archetype} (archetypes and the structure lock, not
 * on the world, so there is no import cycle) and {@code ecs.component}; the scheduler
 * builds its jobs on {@code Query} and {@code ChunkView}. Facade: exported to every module.
 *
 * <p><b>Memory ordering:</b> a query is refreshed and iterated on the owning thread (the
 * scheduler refreshes before it hands chunks to workers); a view is used by one thread at
 * a time, and policies must be immutable or safely published before the jobs start.
 */
package dev.orrery.ecs.query;
