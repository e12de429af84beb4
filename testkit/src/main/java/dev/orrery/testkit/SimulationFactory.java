package dev.orrery.testkit;

import dev.orrery.engine.Simulation;

/**
 * Builds the game's simulation the same way for every run the kit makes: the same components
 * registered in the same order, the same shapes prepared, the same systems and resources.
 *
 * <pre>{@code
 * SimulationFactory factory = (workers, populate) -> MyGame.build(workers, populate);
 * }</pre>
 *
 * <p><b>Threading:</b> called on the thread that runs the check, which then ticks the
 * simulation; each call must return a new simulation that shares nothing mutable with the
 * others (a static {@code Random}, a cache) or the check will rightly report it.
 */
@FunctionalInterface
public interface SimulationFactory {
    /**
     * A new simulation on {@code workers} workers. With {@code populate} false the world must
     * never have held an entity (components registered, shapes prepared, nothing spawned): the
     * kit restores snapshots and replays recordings into it. The simulation must run on
     * {@code workers} workers: the kit refuses one on another count, since it names each run
     * by the count it asked for (a game that always runs on one worker is checked with
     * {@code DeterminismCheck.workers(1)}).
     *
     * @param workers the worker count the simulation must run on, 1 or more
     * @param populate true to spawn the game's starting entities; false for an empty world that
     *     snapshots and recordings are loaded into
     * @return a new simulation, never one returned before, not null
     */
    Simulation create(int workers, boolean populate);
}
