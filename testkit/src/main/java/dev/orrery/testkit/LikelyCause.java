package dev.orrery.testkit;

/**
 * The likely causes of a difference, by the kind of run that showed it, for a
 * {@link DeterminismFailure}'s message: what a newcomer should look for in the system the
 * report names, with the rule of docs/determinism.md that covers it.
 *
 * <p><b>Threading:</b> stateless.
 */
final class LikelyCause {
    private LikelyCause() {
    }

    /**
     * The line for run {@code run} (the kit's name for it), or {@code null} when nothing more
     * specific than the diagnosis can be said.
     *
     * @param sameSettings whether the run had the reference's own settings (one worker, the game's batching)
     * @param reversed whether the run ran every system's jobs in reverse order
     * @param restored whether the run was restored from a snapshot
     */
    static String of(boolean sameSettings, boolean reversed, boolean restored) {
        if (sameSettings) {
            return "likely cause: the same settings gave another result, so something the system reads differs from "
                    + "one run to the next in one JVM: a java.util.Random, ThreadLocalRandom or Math.random() (draw "
                    + "from Simulation.RANDOM, rule 3), System.nanoTime() or another wall clock (use Simulation.CLOCK, "
                    + "rule 4), a HashMap or HashSet iterated whose keys hash by identity (iterate a list or a TreeMap, "
                    + "rule 5), or a static field that keeps state from an earlier run (keep it in the world or in a "
                    + "resource with a codec, rule 1); see docs/determinism.md";
        }
        if (reversed) {
            return "likely cause: a result the jobs build in the order they run (a float total they add to, a "
                    + "queue or list they append to, \"the first job wins\"): write a partial result per chunk "
                    + "ordinal (job.chunkOrdinal()) and combine them in order in a later system, or count in a "
                    + "LongSum (rule 6 of docs/determinism.md)";
        }
        if (restored) {
            return "likely cause: state that shapes the next tick kept outside the world and the resources with a "
                    + "codec (a resource without a codec, a field the factory's lambdas capture, a static), which "
                    + "the snapshot does not carry (rule 8 of docs/determinism.md)";
        }
        return null;
    }
}
