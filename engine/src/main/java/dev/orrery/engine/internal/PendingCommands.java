package dev.orrery.engine.internal;

import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.access.SystemAccess;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Whose commands the sync points of a simulation's schedule may apply, followed system by system
 * through its runs: told each system as it comes ({@link #before}), in the order the systems run,
 * it says which sync points the run passed since the system before and whose commands they may
 * have applied, and {@link #atEnd} says the same for the sync point after the last system of a
 * run. The test kit reads it where a run it re-runs applied no commands at a sync point but the
 * run it compares with, of which it holds only the hashes after each system, may have.
 *
 * <p>A sync point falls where the schedule puts one: at the end of every phase (so between two
 * systems of two phases, whichever phases a run condition or a fixed step count of 0 skipped in
 * between), at the end of each step of a fixed-step phase (so before its first system again when
 * it runs two steps or more), before a system declared {@code afterStructuralChanges()} or one
 * the graph put a sync point before, and before an exclusive system. It may apply the commands of
 * the systems that ran since the sync point before it and declare structural effects; an
 * exclusive system's own are applied as it ends, before the next system. The commands the
 * observer hooks those commands fire record are applied in the same sync point.
 *
 * <p><b>Threading:</b> one thread, the simulation's tick thread (the kit's trail, which is told
 * of each system there); made between ticks.
 */
public final class PendingCommands {
    private final String[] names;
    private final int[] phase;
    private final boolean[] syncBefore;
    private final boolean[] records;
    /** The systems that may have recorded commands since the last sync point, in the order they ran, once each. */
    private final LinkedHashSet<String> since = new LinkedHashSet<>();
    private int last = -1;

    private PendingCommands(Simulation sim) {
        SystemGraph graph = SchedulerInternals.graph(sim.schedule());
        int n = graph.size();
        names = new String[n];
        phase = new int[n];
        syncBefore = new boolean[n];
        records = new boolean[n];
        for (int ph = 0; ph < graph.phases().size(); ph++) {
            for (int p = graph.phaseStart(ph); p < graph.phaseEnd(ph); p++) {
                phase[p] = ph;
            }
        }
        for (int p = 0; p < n; p++) {
            SystemAccess access = graph.system(p).access();
            names[p] = graph.system(p).name();
            syncBefore[p] = graph.syncBefore(p) || access.exclusive();
            records[p] = access.mayRecordCommands(); // not an exclusive system: its own are applied as it ends
        }
    }

    /** A follower of {@code sim}'s schedule from its next tick on, nothing pending. */
    static PendingCommands of(Simulation sim) {
        return new PendingCommands(sim);
    }

    /**
     * The system at graph position {@code position} starts (its run condition may still skip
     * it): the systems, in the order they ran, each once, whose commands the sync points
     * between the system before it (in this run or, for a run's first, the run before) and it
     * may have applied; empty when no sync point falls there or no system that may record
     * commands ran since the last one. Then counts this system among those whose commands wait.
     *
     * @param position the system's position in the schedule's graph
     * @return the systems whose commands may have been applied just before it, a new list
     */
    public List<String> before(int position) {
        boolean sync = last >= 0
                && (position <= last || phase[position] != phase[last] || syncBefore[position]);
        List<String> out = List.of();
        if (sync) {
            out = List.copyOf(since);
            since.clear();
        }
        if (records[position]) {
            since.add(names[position]);
        }
        last = position;
        return out;
    }

    /**
     * The systems, in the order they ran, each once, whose commands the sync point at the end of
     * the run may apply: those that ran since the last sync point and may record commands. The
     * next {@link #before} (of the next run's first system) gives them again, since that sync
     * point falls between the two.
     *
     * @return the systems whose commands may be applied after the last system, a new list
     */
    public List<String> atEnd() {
        return List.copyOf(since);
    }
}
