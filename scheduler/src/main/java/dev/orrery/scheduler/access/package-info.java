/**
 * What a system touches: the components it reads and writes and the resources (named,
 * world-wide values, {@link dev.orrery.scheduler.ResourceKey}) it reads and writes.
 * {@link dev.orrery.scheduler.access.SystemAccess} decides whether two systems may run at
 * the same time (they may unless one writes what the other reads or writes), doubles as the
 * ECS {@code AccessPolicy} that checks each job's column requests at run time, and answers
 * the checked mode's resource checks ({@code canReadResource}, {@code canWriteResource}),
 * whose failure is an {@link dev.orrery.scheduler.UndeclaredResourceAccessException}.
 * The dependency graph ({@code scheduler.graph}) is built from these sets; the executor
 * ({@code scheduler.executor}) and the checked mode ({@code scheduler.check}) enforce them.
 * Immutable once built, so shared freely between threads.
 */
package dev.orrery.scheduler.access;

import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
