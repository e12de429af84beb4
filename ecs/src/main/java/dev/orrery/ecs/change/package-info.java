/**
 * Reacting to change: the world's change tracker ({@link dev.orrery.ecs.change.ChangeTracker},
 * {@code world.changes()}), the per-component logs of removals
 * ({@link dev.orrery.ecs.change.RemovedEntities}) and the observers that run hooks when a
 * component is added, removed, set or its entity despawned
 * ({@link dev.orrery.ecs.change.ComponentObservers}). The change versions themselves live on
 * the chunks and are read through query filters ({@code Query.Builder.added/changed}).
 */
package dev.orrery.ecs.change;
