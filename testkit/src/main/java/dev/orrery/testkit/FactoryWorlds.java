package dev.orrery.testkit;

import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The check's rule that {@code SimulationFactory.create} builds a new world each call: it
 * remembers, weakly, the worlds the factory returned, and refuses one returned again (the same
 * Simulation kept in a field, or a new one built on a kept World), which would start a run
 * from what an earlier run left and be reported as a determinism failure of the game.
 *
 * <p><b>Threading:</b> confined to the thread that runs the check.
 */
final class FactoryWorlds {
    private final Set<World> returned = Collections.newSetFromMap(new WeakHashMap<>());

    /**
     * Records {@code sim}'s world; refuses, closing {@code sim}, a world an earlier call returned,
     * with a {@link FactoryRefusedException}.
     */
    void requireNew(Simulation sim, int workers, boolean populate) {
        if (returned.add(sim.world())) {
            return;
        }
        sim.close();
        throw new FactoryRefusedException("SimulationFactory.create(" + workers + ", " + populate + ") returned a "
                + "simulation on a World that an earlier call returned (the same Simulation again, or a new one on a "
                + "World kept in a field): that run would start from what an earlier run left, not from the game's "
                + "start. Build a new World (new World()) and a new Simulation on it in each call");
    }
}
