/**
 * What a system touches: the components it reads and writes and the resources (named,
 * world-wide values) it reads and writes. {@link dev.orrery.scheduler.access.SystemAccess}
 * decides whether two systems may run at the same time (they may unless one writes what the
 * other reads or writes), and doubles as the ECS {@code AccessPolicy} that checks each job's
 * column requests at run time. The dependency graph ({@code scheduler.graph}) is built from
 * these sets; the executor ({@code scheduler.executor}) enforces them.
 */
package dev.orrery.scheduler.access;
