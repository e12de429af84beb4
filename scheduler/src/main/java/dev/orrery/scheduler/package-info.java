/**
 * The scheduler's facade: {@link dev.orrery.scheduler.Schedule} declares systems (name,
 * query, reads, writes, phase, order) and turns them into a dependency graph and an
 * executor. Underneath, {@code access} holds what a system touches, {@code graph} the
 * order maths, and {@code executor} the threads that run chunk-parallel jobs. It knows
 * nothing of ticks; the engine drives it.
 */
package dev.orrery.scheduler;
