/**
 * The door from Orrery's engine and explorer into what the scheduler's facade keeps
 * package-private, and nothing for users:
 * {@link dev.orrery.scheduler.internal.SchedulerInternals} reaches a schedule's graph and plan,
 * an event channel's resource key, and builds the failures the executors report. It forwards
 * through method handles found once by a private lookup, so {@code dev.orrery.scheduler}
 * imports nothing from here; it sits above the facade as {@code dev.orrery.ecs.internal} does
 * in the ecs module.
 *
 * <p>Exported only to {@code dev.orrery.engine} and {@code dev.orrery.explorer}.
 */
package dev.orrery.scheduler.internal;
