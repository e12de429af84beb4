/**
 * Internal: owner-thread assertions. {@link dev.orrery.ecs.ownership.OwnerThread} records
 * which thread owns a single-threaded object and asserts, under {@code -ea}, that a caller
 * is that thread. Used by the world's structural calls and by {@code CommandBuffer}
 * recording; exported to {@code dev.orrery.scheduler} and {@code dev.orrery.engine} so
 * their single-threaded types can assert the same way.
 *
 * <p><b>Memory ordering:</b> the owner is a plain field. A re-binding and the new owner's
 * first call must be ordered by a happens-before edge (thread start, a volatile write and
 * read, a concurrent queue), the same edge the hand-off of the owned object needs.
 */
package dev.orrery.ecs.ownership;
