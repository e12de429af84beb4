package dev.orrery.testkit;

import dev.orrery.engine.Simulation;
import java.util.List;

/**
 * The likely causes of a difference, by the kind of run that showed it, for a
 * {@link DeterminismFailure}'s message: what a newcomer should look for in the system the
 * report names, with the rule of docs/determinism.md that covers it.
 *
 * <p><b>Threading:</b> stateless.
 */
final class LikelyCause {
    /** The line for the run with each phase's unordered systems the other way round. */
    static final String FLIPPED = "likely cause: state shared between systems the graph leaves unordered (a plain "
            + "Java field one writes and the other reads, an object both lambdas captured, a resource one of them did "
            + "not declare), which on several workers either may reach first: declare it (writesResource on the "
            + "writer and readsResource on the reader, or reads/writes of the component) or order them with "
            + ".after(...), so the graph orders them (see flipSystemOrder in docs/determinism.md)";

    private LikelyCause() {
    }

    /**
     * The line for run {@code run} (the kit's name for it), or {@code null} when nothing more
     * specific than the diagnosis can be said.
     *
     * @param sameSettings whether the run had the reference's own settings (one worker, the game's batching)
     * @param reversed whether the run ran every system's jobs in reverse order
     * @param restored what the run restored from a snapshot showed, or {@code null} when it was not restored
     * @param sim the run, as it stood when it differed
     */
    static String of(boolean sameSettings, boolean reversed, RestoreSuspects restored, Simulation sim) {
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
                    + "LongSum (rule 6 of docs/determinism.md); or a by-id read (job.get, job.getFloat) of another "
                    + "entity whose row a job of the same system writes, so it sees the old or the new value by job "
                    + "order: read a copy that an earlier system made (last tick's value, in a component of its own) "
                    + "instead (rule 1)";
        }
        if (restored != null) {
            return restored(restored.changedAfterReplaced(sim), restored.writtenWithoutCodec());
        }
        return null;
    }

    /**
     * The line for a run restored from a snapshot: the resources whose replaced object changed
     * after the restore ({@code captured}: the proof of a captured object) first; then the
     * resources without a codec that systems write or, in a game with an exclusive system, may
     * ({@code leftOut}, each with its reason), which the snapshot does
     * not carry; then the other causes, a captured resource object first.
     */
    static String restored(List<String> captured, List<String> leftOut) {
        String capturedObject = "a system that captured a resource object instead of reading job.resource(KEY)";
        String left = "a resource without a codec that a system writes, which the snapshot leaves out and the restored "
                + "run gets as the factory puts it: " + String.join(", ", leftOut) + "; give one that keeps state "
                + "across ticks a codec (SimulationBuilder.resource(key, value, codec)); one rebuilt every tick needs "
                + "none";
        if (!captured.isEmpty()) {
            return "likely cause: " + capturedObject + ": after the restore, something went on changing the object "
                    + "the factory put under resource '" + String.join("', '", captured) + "', which the restore "
                    + "replaced with the object the snapshot carries (Simulation.restore puts a new object under each "
                    + "resource with a codec), so nothing reads what it changes; reach a resource through the job each "
                    + "time (job.resource(KEY), job.resourceForWrite(KEY), job.add(KEY, n)) or through the store "
                    + "(Simulation.resources().get(KEY)), never through an object a lambda or a field captured (rule 8 "
                    + "of docs/determinism.md)" + (leftOut.isEmpty() ? "" : "\n  also suspect: " + left);
        }
        String others = capturedObject + " (Simulation.restore puts a new object under each resource with a codec, so "
                + "a captured one, read or changed, is no longer the store's), or state that shapes the next tick kept "
                + "outside the world and the resources with a codec (a field the factory's lambdas capture, a static"
                + (leftOut.isEmpty() ? ", a resource without a codec" : "") + "), which the snapshot does not carry "
                + "(rule 8 of docs/determinism.md)";
        return "likely cause: " + (leftOut.isEmpty() ? others : left + "; else " + others);
    }
}
