/**
 * Layer: the door (internal, above the facade). What Orrery's scheduler and engine may reach
 * of the facade's package-private state, and nothing for users: a world's storage and change
 * bookkeeping, a query's matching, a chunk view's binding, a command buffer's sort keys and
 * declared effects ({@link dev.orrery.ecs.internal.EcsInternals}), and command playback
 * ({@link dev.orrery.ecs.internal.Playback}). Each forwards through a method handle found
 * once by a private lookup ({@link dev.orrery.ecs.internal.FacadeLookup}), so the facade
 * imports nothing from here and the package graph stays one-way.
 *
 * <p>Exported only to {@code dev.orrery.scheduler} and {@code dev.orrery.engine}.
 */
package dev.orrery.ecs.internal;
