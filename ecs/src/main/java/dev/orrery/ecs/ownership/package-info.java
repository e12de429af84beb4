/**
 * Internal: assertion-backed checks. {@link dev.orrery.ecs.ownership.OwnerThread} records
 * which thread owns a single-threaded object and asserts, under {@code -ea}, that a caller
 * is that thread; it is used by the world's structural calls and by {@code CommandBuffer}
 * recording. {@link dev.orrery.ecs.ownership.AssertionSwitch} is the one rule for debug
 * checks that are on under {@code -ea} unless a property forces them (strict command
 * playback here, the scheduler's checked mode). Exported to {@code dev.orrery.scheduler}
 * only, for that switch; the executor's and the simulation's owner checks are their own
 * (they bind on the first run and refuse a re-bind during a run).
 *
 * <p><b>Memory ordering:</b> the owner is a plain field. A re-binding and the new owner's
 * first call must be ordered by a happens-before edge (thread start, a volatile write and
 * read, a concurrent queue), the same edge the hand-off of the owned object needs.
 */
package dev.orrery.ecs.ownership;
