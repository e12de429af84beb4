package dev.orrery.explorer;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import java.util.regex.Pattern;

/**
 * Why no safe point came to answer a read at, as far as the explorer can tell from what any
 * thread may read of the simulation: a failure that stopped it (a system's under
 * {@code FailurePolicy.STOP}, fixed by fixing the system or skipping such ticks; or a step outside
 * the systems, a listener, a hook, a replay's divergence, a recording's journal, whose words and
 * fix the engine gives and which no failure policy skips), a world between hosts or late on one,
 * a run stopped or not started, or one in progress whose tick is late.
 */
final class LateRefusal {
    /** How {@code stoppedBy} begins for a system's failure under {@code STOP}; other stops say what threw. */
    private static final Pattern SYSTEM_FAILED = Pattern.compile("tick -?\\d+ failed under FailurePolicy\\.STOP: ");
    /** A system's failure is shortened to this many characters (its exception's message is the user's). */
    private static final int SYSTEM_CAUSE_CHARS = 600;
    /** Another stop's words are kept to this many: a replay's divergence names its causes and fix at length. */
    private static final int OTHER_CAUSE_CHARS = 2000;

    private LateRefusal() {
    }

    /**
     * A read's refusal when no safe point came within {@code waitedMillis}: why, as far as the
     * explorer can tell; {@code was} the host the world was last seen on (or null), {@code ticked}
     * whether a tick ran since the explorer was attached. Any thread.
     */
    static String why(Simulation sim, String was, boolean ticked, long waitedMillis) {
        String now = EngineInternals.hostedWorld(sim);
        String failed = EngineInternals.stoppedBy(sim);
        boolean bySystem = failed != null && SYSTEM_FAILED.matcher(failed).lookingAt();
        if (failed != null && !bySystem) { // a step outside the systems: the engine's words name it and the fix
            String cause = shortened(failed, OTHER_CAUSE_CHARS);
            return now == null && was != null
                    ? was + " left its WorldHost as FAILED and no safe point came within " + waitedMillis + " ms, "
                            + "stopped by a failure outside its systems: " + cause + " No tick has run since; once "
                            + "that is fixed, add it to a host again"
                    : "the simulation reached no safe point within " + waitedMillis + " ms: a failure outside its "
                            + "systems stopped it: " + cause + " No tick has run since";
        }
        if (failed != null && now == null && was != null) { // it left its host as FAILED, not to move
            return was + " left its WorldHost as FAILED and no safe point came within " + waitedMillis + " ms: its "
                    + shortened(failed) + " No tick has run since; fix the system and add it to a host again (the "
                    + "failed tick is run again), or build the simulation with FailurePolicy.SKIP_TICK to skip a "
                    + "tick whose system throws";
        }
        if (now == null && was != null) {
            return was + " is between WorldHosts (removed from its host and not yet added to another), so no safe "
                    + "point came within " + waitedMillis + " ms; retry once it is on a host again (or ticked by the "
                    + "thread that took it back)";
        }
        if (now != null) {
            return now + " did not reach a safe point on its WorldHost within " + waitedMillis + " ms (a tick running "
                    + "long, or the host's threads busy with other worlds); retry in a moment";
        }
        if (failed != null) {
            return "the simulation reached no safe point within " + waitedMillis + " ms: its " + shortened(failed)
                    + " The run that ticked it ended with that exception and no tick has run since; fix the "
                    + "system and run again (the failed tick is run again), or build the simulation with "
                    + "FailurePolicy.SKIP_TICK to skip a tick whose system throws";
        }
        if (!EngineInternals.running(sim)) {
            return stoppedRefusal(ticked, waitedMillis);
        }
        return "the simulation's run is in progress but reached no safe point within " + waitedMillis
                + " ms (a tick running long, or a rate slower than a tick per " + waitedMillis + " ms); retry in a "
                + "moment";
    }

    /**
     * The refusal when no run is in progress and no tick came within {@code waitedMillis}: the
     * run is stopped, or never started, or a loop of the program's own steps it with
     * {@code tick()} less often than that (the engine marks only {@code run()}, so the two are
     * named together). The world is not read off the tick thread even then:
     * the tick thread may call {@code tick()} or {@code run()} at any moment, and nothing would
     * order such a read against that tick.
     */
    private static String stoppedRefusal(boolean ticked, long waitedMillis) {
        String what = !ticked
                ? "the simulation has not ticked since the explorer was attached (no run() is in progress: start one, "
                        + "sim.run(ticks, hz); or a loop of your own that calls sim.tick() has not ended a tick yet)"
                : "the run is stopped (no run() is in progress: sim.stop() ended it, or its ticks were done; run "
                        + "again to go on; or a loop of your own that calls sim.tick() did not call it within "
                        + waitedMillis + " ms, or its tick runs long)";
        return what + ", and no tick came within " + waitedMillis + " ms, so there is no safe point to read the world "
                + "at: live views show the world only at the end of a tick, or while explorer.idle(duration) answers "
                + "reads on the tick thread between ticks (call it there to keep the page live while paused); "
                + "/api/summary (its figures), /api/history and the timeline (the recorded past) still answer";
    }

    /** A failure's message up to what the failed run left (the scheduler's account, long), ending with a period. */
    private static String shortened(String failed) {
        return shortened(failed, SYSTEM_CAUSE_CHARS);
    }

    /** {@code failed} up to what the failed run left, and to {@code limit} characters, ending with a period. */
    private static String shortened(String failed, int limit) {
        int cut = failed.indexOf("; what the failed run left");
        String head = cut < 0 ? failed : failed.substring(0, cut);
        if (head.length() > limit) {
            head = head.substring(0, limit) + "...";
        }
        return head.endsWith(".") ? head : head + ".";
    }
}
