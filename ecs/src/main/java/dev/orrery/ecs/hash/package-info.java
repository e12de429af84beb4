/**
 * Internal: state hashing. {@link dev.orrery.ecs.hash.StateHasher} is the order-sensitive
 * 64-bit accumulator; {@link dev.orrery.ecs.WorldHashes} walks a world's archetypes
 * and entity table in canonical order for {@code World.stateHash()} and
 * {@code World.columnHashes()}, the values replays and journals compare. The format is
 * pinned by a golden value in the tests.
 *
 * <p>Neighbours: reads {@code ecs.archetype} and {@code ecs.storage}; only the world calls
 * it. Not exported (users call the world's methods). Cold path; runs on the owning thread
 * while nothing else touches the world.
 */
package dev.orrery.ecs.hash;

import dev.orrery.ecs.WorldHashes;
