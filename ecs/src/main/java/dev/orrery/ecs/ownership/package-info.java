/**
 * Layer: leaves (internal). Assertion-backed checks. {@link dev.orrery.ecs.ownership.OwnerThread}
 * records which thread owns a single-threaded object and asserts, under {@code -ea}, that a
 * caller is that thread; the world's structural calls and command-buffer recording use it.
 * {@link dev.orrery.ecs.ownership.AssertionSwitch} is the one rule for debug checks that are
 * on under {@code -ea} unless a property forces them (strict command playback, the
 * scheduler's checked mode). {@link dev.orrery.ecs.ownership.TuningProperty} reads every
 * {@code -Dorrery.*} property strictly: a malformed or out-of-range value fails, naming the
 * property, the value, the accepted range and the default. Imports nothing of Orrery's.
 *
 * <p><b>Memory ordering:</b> the owner is a plain field. A re-binding and the new owner's
 * first call must be ordered by a happens-before edge (thread start, a volatile write and
 * read, a concurrent queue), the same edge the hand-off of the owned object needs.
 */
package dev.orrery.ecs.ownership;
