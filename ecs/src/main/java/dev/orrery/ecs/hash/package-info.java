/**
 * Layer: leaves. The state hash's accumulator: {@link dev.orrery.ecs.hash.StateHasher}, an
 * order-sensitive 64-bit mix that the facade's hash walk feeds with a world's archetypes,
 * entity table, sparse sets and relation pairs in canonical order ({@code World.stateHash()},
 * {@code World.columnHashes()}, the values replays and journals compare). The format is pinned
 * by a golden value in the tests.
 *
 * <p>Imports nothing of Orrery's. Exported to no module (only the ecs's own packages use it);
 * cold path, on the owning thread.
 */
package dev.orrery.ecs.hash;
