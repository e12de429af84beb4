/**
 * One sharded world's life on a node, free of actors: {@link dev.orrery.cluster.world.WorldRuntime}
 * claims the world's next epoch in the {@code WorldStore}, restores its latest valid snapshot,
 * replays its journal to the tick where it left off, then ticks it live, journaling each
 * tick's inputs durably before they are acknowledged and applying each client id and
 * sequence at most once; {@code JournalHistory} holds the rules of which stored snapshot and
 * which journal ticks are a world's history, and what retention may delete;
 * {@link dev.orrery.cluster.world.WorldSettings} says how a world snapshots, keeps storage
 * bounded and de-duplicates; {@link dev.orrery.cluster.world.WorldVerifier} checks a stored
 * world against its journal; a {@link dev.orrery.cluster.world.WorldBlueprint} builds the
 * simulation of a world id the same way on every node.
 *
 * <p>Neighbours: built on {@code dev.orrery.engine} (simulation, journal) and
 * {@code dev.orrery.cluster.store}; the actor in {@code dev.orrery.cluster.sharding} drives a
 * runtime from Pekko timers, and a one-process world host could drive it the same way.
 *
 * <p><b>Threading:</b> a runtime is used by one thread at a time, with a happens-before edge
 * between calls from different threads (an actor's messages give it).
 */
package dev.orrery.cluster.world;
