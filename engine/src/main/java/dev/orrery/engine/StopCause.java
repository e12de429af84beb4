package dev.orrery.engine;

import dev.orrery.engine.journal.SkipComparison;
import dev.orrery.scheduler.SystemFailedException;

/**
 * The words of a simulation's {@code stoppedBy} for a failure that is not a system's under
 * {@code FailurePolicy.STOP} (that one reads {@code tick N failed under FailurePolicy.STOP: ...}):
 * a step of the tick thread outside the systems threw (the input source's {@code beginTick} before
 * them; after them the state hash, the hash listener, the source's {@code recordHash} or
 * {@code tickSkipped}, the failure listener, the end-of-tick hook), or a run's after-tick listener
 * did. Any of these leaves {@code tick()} or {@code run()} whatever the failure policy, so the
 * words never name the policy, nor a system except the one a skipped tick skipped for. They say,
 * in this order, so that a reader that shortens them keeps the first three: the tick and whether
 * it counts, what threw, the fix, and what it threw (its causes too).
 *
 * <p>Built only on a failure, never on the tick path.
 */
final class StopCause {
    /** How many causes of what was thrown are named after it. */
    private static final int CAUSES = 3;

    private StopCause() {
    }

    /**
     * A step of tick {@code tick} threw {@code thrown}: {@code step} is the label of the step the
     * tick thread was in ({@code TickSteps.current()}, or the end-of-tick hook's), null when it was
     * in none; {@code next} the simulation's next tick now ({@code tick + 1} when the tick counts);
     * {@code skipped} the failure the tick was skipped for under {@code SKIP_TICK}, or null;
     * {@code stepKind} the {@code TickSteps} kind (0 for the end-of-tick hook or none).
     */
    static String inTick(long tick, long next, SystemFailedException skipped, int stepKind, String step,
            boolean endOfTick, Throwable thrown) {
        boolean counts = next > tick;
        String what = endOfTick ? "the end-of-tick hook (Simulation.atEndOfTick)" : step;
        StringBuilder b = new StringBuilder("tick ").append(tick);
        if (!counts) {
            b.append(what != null ? " did not run: " + what + " threw before any system ran"
                    : " did not run to its end: the run of its systems threw outside any system (not a system's "
                            + "failure: a fault of the engine or of the tick thread, such as running out of memory)");
            b.append(", which stopped the simulation whatever its failure policy (the tick does not count; the next "
                    + "tick() runs it again)");
        } else {
            b.append(skipped != null ? " was skipped (" + SkipComparison.failed(skipped.system()) + "; the tick counts, "
                    + "the next is " + next + ")" : " ran its systems and counts (the next tick is " + next + ")");
            b.append(", then ").append(what != null ? what : "the tick's end (its trace or its flight-recorder event)")
                    .append(" threw, which stopped the simulation whatever its failure policy");
        }
        b.append(": ").append(fix(thrown, endOfTick ? 0 : stepKind, endOfTick)).append(". It threw ");
        return thrown(b, thrown);
    }

    /** Run's after-tick listener threw {@code thrown} after tick {@code tick}; {@code next} is the next tick. */
    static String afterTick(long tick, long next, Throwable thrown) {
        StringBuilder b = new StringBuilder("tick ").append(tick).append(" ran in full (the next tick is ").append(next)
                .append("), then the after-tick listener given to Simulation.run threw, which ended the run: fix the "
                        + "listener, or run without one, and run again. It threw ");
        return thrown(b, thrown);
    }

    private static String fix(Throwable thrown, int stepKind, boolean endOfTick) {
        if (thrown instanceof ReplayDivergenceException) {
            return "the replay diverged from its recording, so it cannot go on; what it threw names the tick, the "
                    + "likely causes and the fix";
        }
        if (endOfTick) {
            return "fix the hook, or remove it (Simulation.atEndOfTick(null)), and tick again";
        }
        return switch (stepKind) {
            case TickSteps.HASH_LISTENER -> "fix the listener, or remove it (Simulation.hashListener(null)), and tick "
                    + "again";
            case TickSteps.FAILURE_LISTENER -> "fix the listener, or set another (Simulation.failureListener), and "
                    + "tick again";
            case TickSteps.BEGIN_TICK, TickSteps.WANTS_HASH, TickSteps.RECORD_HASH, TickSteps.TICK_SKIPPED ->
                    "fix what it threw names (a recording whose journal failed is over: start a new one), or give the "
                            + "simulation another input source (Simulation.inputs), and tick again";
            default -> "what it threw names the cause; tick again once it is fixed";
        };
    }

    /** Appends {@code thrown} and up to {@link #CAUSES} of its causes to {@code b}. */
    private static String thrown(StringBuilder b, Throwable thrown) {
        b.append(thrown);
        Throwable c = thrown.getCause();
        for (int i = 0; c != null && c != thrown && i < CAUSES; i++, c = c.getCause()) {
            b.append("; caused by ").append(c);
        }
        return b.toString();
    }
}
