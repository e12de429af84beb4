package dev.orrery.testkit;

import dev.orrery.engine.Simulation;
import java.util.function.IntFunction;

/**
 * The kit's one call of a game's {@link SimulationFactory}: a factory that returns null, or a
 * simulation on another worker count than it was asked for, is refused the same way whichever
 * entry point asked ({@link DeterminismCheck}, {@link GoldenRecording}, {@link CompareRecordings})
 * and whichever of its runs (a run of the check, a diagnosis's run, a re-run of a recording, an end
 * snapshot restored): a {@link FactoryRefusedException}, an {@link IllegalStateException} (the
 * factory misbehaved, not the caller's argument) whose message names the call, what it returned
 * and the fix. {@link #checked} wraps a factory so that every call goes through here and through
 * {@link FactoryWorlds}; the kit hands that one to its diagnoses.
 *
 * <p><b>Threading:</b> stateless; the factory is called on the calling thread. A factory from
 * {@link #checked} is confined to the thread of the entry point that made it (its
 * {@link FactoryWorlds} is).
 */
final class FactoryCall {
    private FactoryCall() {
    }

    /**
     * {@code factory}, each call checked by {@link #create} for {@code entry} ({@code why}: of
     * the count asked for) and by one {@link FactoryWorlds} for all of them, so a world returned
     * again is refused too.
     */
    static SimulationFactory checked(SimulationFactory factory, String entry, IntFunction<String> why,
            IntFunction<String> otherwise) {
        FactoryWorlds worlds = new FactoryWorlds();
        return (workers, populate) -> {
            Simulation sim = create(factory, workers, populate, entry, why.apply(workers), otherwise);
            worlds.requireNew(sim, workers, populate); // a world returned again would start from an earlier run's end
            return sim;
        };
    }

    /**
     * {@code factory.create(workers, populate)} for {@code entry}, checked.
     *
     * @param entry the kit's method that asked, named in the message ({@code DeterminismCheck.run})
     * @param why why a simulation on another count is of no use to {@code entry}, after
     *     "returned a simulation on N workers, so"
     * @param otherwise what else to do, given the count the factory built on, after the fix to
     *     build with the workers argument
     * @throws FactoryRefusedException naming the call, what it returned and the fix, when the
     *     factory returned null or a simulation on another count (which is closed)
     */
    static Simulation create(SimulationFactory factory, int workers, boolean populate, String entry, String why,
            IntFunction<String> otherwise) {
        String call = "SimulationFactory.create(" + workers + ", " + populate + ")";
        Simulation sim = factory.create(workers, populate);
        if (sim == null) {
            throw new FactoryRefusedException(call + " returned null to " + entry + "; the factory must return a new "
                    + "Simulation each call, built with Simulation.builder(world)");
        }
        if (sim.workers() != workers) {
            int built = sim.workers();
            sim.close();
            throw new FactoryRefusedException(call + " returned a simulation on " + built
                    + (built == 1 ? " worker" : " workers") + " to " + entry + ", so " + why + "; build it with "
                    + "Simulation.builder(world).workers(workers), the factory's workers argument, or " + otherwise.apply(built));
        }
        return sim;
    }
}
