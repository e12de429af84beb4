package dev.orrery.cluster.world;

import dev.orrery.engine.Simulation;

/**
 * Builds the simulation of a world id in its starting state, identically on every node: the
 * same components registered in the same order, the same systems, seed, step and resource
 * codecs, and the same starting entities. A world restored on another node is this
 * simulation with a snapshot restored into it, so anything the blueprint does differently
 * between nodes breaks the hashes. Build with one worker ({@code workers(1)}) unless a world
 * is heavy: a node runs many worlds on its dispatcher threads.
 *
 * <p><b>Threading:</b> called on whichever thread opens a world; may be called concurrently
 * for different world ids.
 */
@FunctionalInterface
public interface WorldBlueprint {
    /**
     * A new simulation for {@code worldId}, at tick 0 and not yet ticked. For a restore the
     * runtime restores a snapshot into it, so its world must accept one (the components
     * registered, as {@code Simulation.restore} requires), and it must have the same systems
     * and resources whatever {@code populate} is: a restore refuses a snapshot taken by other
     * systems.
     *
     * @param worldId  the id of the world to build, the same on every node that opens it
     * @param populate true for a world starting fresh (spawn its starting entities), false
     *     when a snapshot will be restored into it (leave the world empty)
     * @return a new simulation, not shared with any other world; the caller (the world's
     *     runtime, or a {@code WorldVerifier}) ticks it and closes it
     */
    Simulation build(String worldId, boolean populate);
}
