package dev.orrery.cluster.world;

import dev.orrery.engine.journal.JournalTick;
import dev.orrery.engine.journal.SkipComparison;
import dev.orrery.scheduler.SystemFailedException;
import java.util.List;

/**
 * The one rule both replays of a world's journal apply to the ticks a failure skipped
 * ({@code FailurePolicy.SKIP_TICK}): {@link ReplayInputs}, behind {@link WorldRuntime#open},
 * which throws a difference, and {@link WorldVerifier}, which counts it. A tick the journal
 * notes skipped must be skipped by the replay, because the same system (or sync point) failed
 * (the journal keeps its name cut to 1 024 bytes, compared cut), and a tick the journal ran must be run, except
 * the last tick of a segment a crash cut ({@code cutAfter}), whose skip note the crash may have
 * lost. Each step answers the difference as text ("the recording ran the tick but the replay
 * skipped it (system 's' threw)", or "(the sync point before system 's' failed)"), or null when there is none.
 *
 * <p><b>Threading:</b> the replaying simulation's tick thread, like the input sources that hold it.
 */
final class SkipCheck {
    private JournalTick current;
    private boolean cutAfter;
    private boolean replaySkipped;

    /** The next tick to replay; {@code cutAfter} as {@link JournalHistory.TickVisitor} says. */
    void next(JournalTick tick, boolean cutAfter) {
        this.current = tick;
        this.cutAfter = cutAfter;
        this.replaySkipped = false;
    }

    /**
     * The replay skipped the current tick because of {@code failure}, in a blueprint whose
     * schedule has {@code systems}.
     *
     * @return the difference, or null when the journal notes the tick skipped because the same
     *     system failed (compared as the journal keeps a name, {@link SkipComparison#sameSystem}),
     *     or the tick ends a segment a crash cut
     */
    String skipped(SystemFailedException failure, List<String> systems) {
        replaySkipped = true;
        String system = failure.system();
        if (current.skipped()) {
            return SkipComparison.sameSystem(current.skippedSystem(), system) ? null
                    : otherSystem(current.skippedSystem(), system, failure.getCause(), systems);
        }
        return cutAfter ? null : difference(null, system);
    }

    /**
     * Whether the current tick, which the journal notes skipped, was skipped by the replay for
     * the same system: call after {@link #skipped} returned null.
     */
    boolean matched() {
        return current.skipped() && replaySkipped;
    }

    /** The journal and the replay skipped the tick for different systems: both, and the renamed system's fix. */
    private static String otherSystem(String recorded, String replayed, Throwable thrown, List<String> systems) {
        String missing = SkipComparison.missing(recorded, systems);
        return SkipComparison.difference(recorded, replayed, thrown) + (missing == null ? "" : "; " + missing
                + ": give the system its journaled name again in the blueprint (on every node)");
    }

    /**
     * After the replay ran (or skipped) the current tick.
     *
     * @return the difference when the journal notes the tick skipped and the replay ran it, else null
     */
    String ticked() {
        return current.skipped() && !replaySkipped ? difference(current.skippedSystem(), null) : null;
    }

    /**
     * Which side skipped a tick: {@code recorded} and {@code replayed} the system (or sync point)
     * that failed, or null; worded as {@link SkipComparison#failed} words it.
     */
    private static String difference(String recorded, String replayed) {
        return "the recording " + (recorded == null ? "ran the tick" : "skipped the tick ("
                + SkipComparison.failed(recorded) + ")") + " but the replay " + (replayed == null ? "ran it"
                : "skipped it (" + SkipComparison.failed(replayed) + ")");
    }
}
