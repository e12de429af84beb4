package dev.orrery.engine.journal;

import dev.orrery.scheduler.SystemFailedException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The one rule every replay of a journal applies to a tick that both the recording and the
 * replay skipped under {@code FailurePolicy.SKIP_TICK}: the replay's failure must name the
 * system (or sync point) the recording names. A replay where another system threw at that tick
 * behaved otherwise, even when the state hashes agree (a phase runs to its end whichever of its
 * systems throws). The engine's {@code JournalInputSource}, the cluster's replay and
 * verification of a world's journal, and the test kit use it, so they say the same thing.
 *
 * <p>A journal keeps the failing system's name cut to {@value JournalFormat#MAX_SYSTEM_NAME}
 * bytes of UTF-8 ({@link JournalWriter#recordTickSkipped}), and not what it threw: the replay's
 * name is cut the same way before the two are compared ({@link #journaled}), and the exception's
 * class is reported for the replay's side only.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class SkipComparison {
    /** How many of the replaying game's systems {@link #missing} names before it counts the rest. */
    static final int SYSTEMS_NAMED = 10;

    private SkipComparison() {
    }

    /**
     * {@code system} as a journal keeps it and a {@link JournalReader} reads it back: its UTF-8
     * cut to {@value JournalFormat#MAX_SYSTEM_NAME} bytes (a character the cut splits reads as
     * U+FFFD), decoded.
     *
     * @param system a system's or a sync point's name, not null
     * @return the name a journal written with it holds
     */
    public static String journaled(String system) {
        byte[] name = system.getBytes(StandardCharsets.UTF_8);
        return new String(name, 0, Math.min(name.length, JournalFormat.MAX_SYSTEM_NAME), StandardCharsets.UTF_8);
    }

    /**
     * Whether the replay's failure of {@code replayed} is the recording's of {@code recorded}.
     *
     * @param recorded the name the journal holds ({@link JournalTick#skippedSystem()})
     * @param replayed the name of the system (or sync point) whose failure skipped the tick in the replay
     * @return true when {@code replayed}, cut as a journal cuts it, is {@code recorded}
     */
    public static boolean sameSystem(String recorded, String replayed) {
        return recorded.equals(journaled(replayed));
    }

    /**
     * The difference when a tick both skipped was skipped for another system in the replay, as one
     * clause for a divergence's message: both systems, what the replay's threw, that the journal
     * keeps no exception, whether the replaying game still has the recorded system, and the fix
     * for a {@code RunRecorder} recording (replay with the game that made it, or record again).
     *
     * @param recorded the name the journal holds for the tick
     * @param replayed the system (or sync point) that failed in the replay
     * @param thrown what it threw (the {@code SystemFailedException}'s cause), or null when not known
     * @param systems the replaying game's systems ({@code Schedule.systemNames()}), or null when not known
     * @return the clause, starting "the recording skipped the tick because"
     */
    public static String otherSystem(String recorded, String replayed, Throwable thrown, List<String> systems) {
        String missing = missing(recorded, systems);
        return difference(recorded, replayed, thrown) + (missing != null ? "; " + missing + ": give it its recorded "
                + "name again to replay this recording, or record the run again"
                : " (the state before that tick already differed, or a system's failure depends on something outside "
                        + "the world: wall-clock time, a shared random generator, a static field); replay with the game "
                        + "that made the recording, or record the run again if the systems changed on purpose");
    }

    /**
     * Both sides of a tick skipped for different systems, without a fix: "the recording skipped
     * the tick because system 'a' threw (the journal keeps the name of what failed, not what it
     * threw) but the replay skipped it because system 'b' threw (what it threw): the game's
     * systems throw differently than when recorded".
     *
     * @param recorded the name the journal holds for the tick
     * @param replayed the system (or sync point) that failed in the replay
     * @param thrown what it threw, or null when not known
     * @return the clause
     */
    public static String difference(String recorded, String replayed, Throwable thrown) {
        return "the recording skipped the tick because " + failed(recorded) + " (the journal keeps the name of what "
                + "failed, not what it threw) but the replay skipped it because " + failed(replayed)
                + (thrown != null ? " (" + thrown + ")" : "") + ": the game's systems throw differently than when "
                + "recorded";
    }

    /**
     * When the replaying game has no system of the recorded name (a sync point's name, which
     * names no system, aside: {@link SystemFailedException#namesSyncPoint}), the clause that says
     * so, without a fix: "the replaying game has no system 'a' (its systems: [...]), so it was
     * renamed or removed since the recording, which names systems as they were named then"; else
     * null. A big game's list is cut after its first 10 systems, in schedule order: "(its 40
     * systems: [s0, ..., s9] and 30 more)".
     *
     * @param recorded the name the journal holds for the tick
     * @param systems the replaying game's systems, or null when not known (then null)
     * @return the clause, or null
     */
    public static String missing(String recorded, List<String> systems) {
        if (systems == null || SystemFailedException.namesSyncPoint(recorded) || has(systems, recorded)) {
            return null;
        }
        int n = systems.size();
        String listed = n <= SYSTEMS_NAMED ? "its systems: " + systems
                : "its " + n + " systems: " + systems.subList(0, SYSTEMS_NAMED) + " and " + (n - SYSTEMS_NAMED) + " more";
        return "the replaying game has no system '" + recorded + "' (" + listed + "), so it was renamed or removed "
                + "since the recording, which names systems as they were named then";
    }

    /** Whether one of {@code systems}, cut as a journal cuts it, is {@code recorded}. */
    private static boolean has(List<String> systems, String recorded) {
        for (String s : systems) {
            if (sameSystem(recorded, s)) {
                return true;
            }
        }
        return false;
    }

    /**
     * What failed, in words: "system 'x' threw", or "the sync point ... failed" for a sync
     * point's name ({@link SystemFailedException#namesSyncPoint}: one of the two forms the
     * scheduler names sync points with, which no system may take), which names no system; a
     * system named "sync point 3" threw like any other. The one wording of a skipped tick's
     * failure: the engine's divergences, the cluster's replay and the test kit's skip reports
     * use it.
     *
     * @param name a system's or a sync point's name, as a failure or a journal gives it
     * @return the clause
     */
    public static String failed(String name) {
        return SystemFailedException.namesSyncPoint(name) ? "the " + name + " failed" : "system '" + name + "' threw";
    }
}
