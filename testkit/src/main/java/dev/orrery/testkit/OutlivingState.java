package dev.orrery.testkit;

/**
 * The check a diagnosis of a reordered run makes before it lays a difference at an order: one
 * more run in the usual order (one worker, every system and every job as in the reference),
 * built anew by the factory and compared with the reference the diagnosis built. A game that
 * keeps state outside the simulations the factory builds (a static field, a cache, an object
 * the factory captured instead of building it in each call) starts each simulation from what
 * the ones before it left: that run differs too, and so would every run the diagnosis makes,
 * whichever pair of systems ({@link TieOrderOrigin}) or system's jobs ({@link JobOrderOrigin})
 * it reversed first, so the first one tried would take the blame. The report names the state
 * and its fix instead.
 *
 * <p><b>Threading:</b> builds and ticks its simulation on the calling thread and closes it.
 */
final class OutlivingState {
    /** The likely-cause line of a report whose run in the usual order, built anew, differed. */
    static final String CAUSE = "likely cause: state that outlives a simulation: a static field, a cache, or an object "
            + "the factory captured instead of building it in each call (a counter, a collection, a holder the systems' "
            + "lambdas share), which a system changes and reads, so each simulation starts from what the ones before it "
            + "left; build it anew in SimulationFactory.create, or keep it in the world (a component) or in a resource "
            + "with a codec (rule 1 of docs/determinism.md). Less often, something that differs from run to run only "
            + "now and then (a java.util.Random, the wall clock, a HashMap iterated in identity-hash order: rules 3 to "
            + "5)";

    private OutlivingState() {
    }

    /**
     * The first tick at which a new run in the usual order on one worker (the factory's, fed
     * {@code script}) differs from {@code reference} (one hash per tick from tick 0), or -1.
     */
    static long firstDifference(SimulationFactory factory, InputScript script, long[] reference) {
        return ResourceState.firstDifference(factory.create(1, true), script, reference);
    }

    /**
     * The diagnosis when that run differed at tick {@code at}: {@code system} (what the
     * diagnosis found before it, or null) is kept; the text is {@code before} (the diagnosis's
     * line so far, or null), why no order is to blame ({@code tried}: what the diagnosis would
     * have reversed one at a time, "pair of unordered systems"), then {@code after} (or null).
     */
    static Diagnosis diagnosis(String system, String before, String tried, long at, String after) {
        String text = "a run in the usual order (1 worker, every system and job as in the reference), built anew by the "
                + "factory, differs from the reference the diagnosis built before it, at tick " + at + ": the game keeps "
                + "state that outlives a simulation, so each diagnostic run starts from what the runs before it left and "
                + "would differ whichever " + tried + " it reversed, and none is blamed";
        return new Diagnosis(system, (before == null ? "" : before + "; ") + text + (after == null ? "" : "; " + after),
                CAUSE);
    }
}
