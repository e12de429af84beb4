/**
 * jcstress tests of the ecs storage's one cross-thread record: the schedule run claim
 * ({@link dev.orrery.ecs.storage.ScheduleRunClaim}) every executor's run takes over its world.
 */
package dev.orrery.ecs.storage;
