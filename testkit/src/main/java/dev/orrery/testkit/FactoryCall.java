package dev.orrery.testkit;

import dev.orrery.engine.Simulation;
import java.util.function.IntFunction;

/**
 * The kit's one call of a game's {@link SimulationFactory}: a factory that returns null, or a
 * simulation on another worker count than it was asked for, is refused the same way whichever
 * entry point asked ({@link DeterminismCheck}, {@link GoldenRecording}): an
 * {@link IllegalStateException} (the factory misbehaved, not the caller's argument) whose message
 * names the call, what it returned and the fix.
 *
 * <p><b>Threading:</b> stateless; the factory is called on the calling thread.
 */
final class FactoryCall {
    private FactoryCall() {
    }

    /**
     * {@code factory.create(workers, populate)} for {@code entry}, checked.
     *
     * @param entry the kit's method that asked, named in the message ({@code DeterminismCheck.run})
     * @param why why a simulation on another count is of no use to {@code entry}, after
     *     "returned a simulation on N workers, so"
     * @param otherwise what else to do, given the count the factory built on, after the fix to
     *     build with the workers argument
     * @throws IllegalStateException naming the call, what it returned and the fix, when the
     *     factory returned null or a simulation on another count (which is closed)
     */
    static Simulation create(SimulationFactory factory, int workers, boolean populate, String entry, String why,
            IntFunction<String> otherwise) {
        String call = "SimulationFactory.create(" + workers + ", " + populate + ")";
        Simulation sim = factory.create(workers, populate);
        if (sim == null) {
            throw new IllegalStateException(call + " returned null to " + entry + "; the factory must return a new "
                    + "Simulation each call, built with Simulation.builder(world)");
        }
        if (sim.workers() != workers) {
            int built = sim.workers();
            sim.close();
            throw new IllegalStateException(call + " returned a simulation on " + built
                    + (built == 1 ? " worker" : " workers") + " to " + entry + ", so " + why + "; build it with "
                    + "Simulation.builder(world).workers(workers), the factory's workers argument, or " + otherwise.apply(built));
        }
        return sim;
    }
}
