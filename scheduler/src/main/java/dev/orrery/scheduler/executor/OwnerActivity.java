package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.flow.PhaseRule;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What an executor's owner thread is doing outside jobs, for a tick watchdog: testing a
 * system's or a phase's run condition, applying a sync point's commands (and running the
 * observer hooks they fire), asking a range system for its count (or taking a level system's
 * hierarchy) as it starts, merging events (as a run starts, as a reader of them starts, as a
 * phase ends: no user code, but named so that a late run is never left unexplained), or
 * calling the caller's {@link dev.orrery.scheduler.SyncPoint}. A
 * job observer sees jobs; this names the steps between them, which run user code too (a
 * condition that blocks, a hook that loops). Each step's label is built once, with the
 * executor: {@code "the run condition of system 'regen' (test of clock)"}, {@code "the sync
 * point before system 'mover'"}, {@code "the sync point after exclusive system 'spawner'"}, {@code "the count of range system 'grid'"},
 * {@code "merging the events sent in phase Update (hits of Hit)"},
 * {@code "the sync point after 'ai' (ending phase Update)"}, {@code "the SyncPoint callback
 * afterPhase(Update)"}, {@code "the SyncPoint callback afterRun"}. A caller running on the
 * owner thread (a simulation's tick) names and publishes its own steps outside the run on the
 * same board ({@link #nameCallerStep}, {@link #enterCallerStep}).
 *
 * <p>Steps are published only while {@link #watch watched}; otherwise entering one is a read of
 * a volatile flag and leaving it a store of 0, and the unwatched path times nothing. Neither
 * path allocates or locks.
 *
 * <p><b>Threading:</b> one writer, the executor's owner thread ({@code enterSystemStep},
 * {@code enterPhaseStep}, {@code enterRunStep}, {@link #enterCallerStep}, {@link #leave}); any thread may read ({@link #startedAt},
 * {@link #label}). The owner writes the step, then its start time with a release store; a
 * reader loads the start time with an acquire load, then the step. A reader racing a change of
 * step may pair one step's label with its neighbour's start time, which only blurs a report
 * about a run that is already late. {@link #watch} may be called from any thread; the owner
 * sees it at its next step.
 */
public final class OwnerActivity {
    /** A system's step: testing its run condition. */
    static final int CONDITION = 0;
    /** A system's step: the sync point before it (exclusive, {@code afterStructuralChanges}, or automatic). */
    static final int SYNC_BEFORE = 1;
    /** A system's step: the sync point right after it, an exclusive system (what its context recorded). */
    static final int SYNC_AFTER = 2;
    /** A range system's step: its count, asked as it starts; a level system's: taking its hierarchy. */
    static final int COUNT = 3;
    /** A system's step: merging the events of the channels it reads, as it starts (a reader only). */
    static final int OPEN_EVENTS = 4;
    /** A phase's step: testing its run condition. */
    static final int PHASE_CONDITION = 0;
    /** A phase's step: the sync point ending it. */
    static final int PHASE_SYNC = 1;
    /** A phase's step: the caller's {@code SyncPoint.afterPhase} for it. */
    static final int PHASE_CALLBACK = 2;
    /** A phase's step: merging the events its systems sent, as it ends. */
    static final int PHASE_MERGE = 3;
    /** A run's step: the caller's {@code SyncPoint.afterRun}. */
    static final int AFTER_RUN = 0;
    /** A run's step: the caller's {@code SyncPoint.afterFailure}. */
    static final int AFTER_FAILURE = 1;
    /** A run's step: the event channels' start of run (events older than the last run dropped). */
    static final int BEGIN_EVENTS = 2;
    private static final int RUN_STEPS = 3;

    /**
     * How many steps a caller of the executor may name and publish here, numbered 1 to
     * {@code CALLER_STEPS - 1} ({@link #nameCallerStep}, {@link #enterCallerStep}): a
     * simulation's tick runs on the owner thread too, and its own steps outside the run (taking
     * inputs, hashing) go on the same board, so a watchdog reads one.
     */
    public static final int CALLER_STEPS = 9;

    private static final int PER_SYSTEM = 5;
    private static final int PER_PHASE = 4;

    private final String[] labels;
    private final int phaseBase;
    private final int runBase;
    private final int callerBase;
    private final AtomicInteger step = new AtomicInteger();
    private final AtomicLong since = new AtomicLong();
    private volatile boolean watched;

    /** The labels of {@code plan}'s steps; built once, with the executor. */
    OwnerActivity(ExecutionPlan plan) {
        SystemGraph graph = plan.graph();
        int n = graph.size();
        int phases = graph.phases().size();
        this.phaseBase = 1 + PER_SYSTEM * n;
        this.runBase = phaseBase + PER_PHASE * phases;
        this.callerBase = runBase + RUN_STEPS;
        this.labels = new String[callerBase + CALLER_STEPS];
        for (int s = 0; s < n; s++) {
            String name = graph.system(s).name();
            RunCondition c = graph.system(s).runIf();
            labels[1 + PER_SYSTEM * s + CONDITION] = "the run condition of system '" + name + "'"
                    + (c == null ? "" : " (" + c + ")");
            labels[1 + PER_SYSTEM * s + SYNC_BEFORE] = "the " + SchedulerInternals.syncPointBeforeSystem(name);
            labels[1 + PER_SYSTEM * s + SYNC_AFTER] = "the sync point after exclusive system '" + name + "'";
            ScheduledSystem system = plan.system(s);
            labels[1 + PER_SYSTEM * s + COUNT] = system.leveled()
                    ? "the hierarchy of level system '" + name + "' (" + system.levelRelation()
                            + ", rebuilt when its pairs changed)"
                    : "the count of range system '" + name + "'"; // entered for these two kinds only
            labels[1 + PER_SYSTEM * s + OPEN_EVENTS] = "merging the events system '" + name + "' reads as it starts ("
                    + channels(graph.system(s).access().eventReads()) + ")";
        }
        for (int p = 0; p < phases; p++) {
            String phase = graph.phases().get(p).toString();
            PhaseRule rule = graph.phaseRule(p);
            labels[phaseBase + PER_PHASE * p + PHASE_CONDITION] = "the run condition of phase " + phase
                    + (rule.condition() == null ? "" : " (" + rule.condition() + ")");
            int last = graph.phaseEnd(p) - 1;
            labels[phaseBase + PER_PHASE * p + PHASE_SYNC] = last < graph.phaseStart(p)
                    ? "the " + SchedulerInternals.syncPointEndingPhase(phase)
                    : "the sync point after '" + graph.system(last).name() + "' (ending phase " + phase + ")";
            labels[phaseBase + PER_PHASE * p + PHASE_CALLBACK] = "the SyncPoint callback afterPhase(" + phase + ")";
            List<EventKey<?>> sent = new ArrayList<>();
            for (int s = graph.phaseStart(p); s < graph.phaseEnd(p); s++) {
                addNew(sent, graph.system(s).access().eventWrites());
            }
            labels[phaseBase + PER_PHASE * p + PHASE_MERGE] = "merging the events sent in phase " + phase + " ("
                    + (sent.isEmpty() ? "none of its systems sends any" : channels(sent)) + ")";
        }
        List<EventKey<?>> all = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            addNew(all, graph.system(s).access().eventWrites());
            addNew(all, graph.system(s).access().eventReads());
        }
        labels[runBase + BEGIN_EVENTS] = "starting the run's event channels, dropping the events of the run before "
                + "last (" + channels(all) + ")";
        labels[runBase + AFTER_RUN] = "the SyncPoint callback afterRun";
        labels[runBase + AFTER_FAILURE] = "the SyncPoint callback afterFailure";
    }

    private static void addNew(List<EventKey<?>> to, List<EventKey<?>> keys) {
        for (EventKey<?> k : keys) {
            if (!to.contains(k)) {
                to.add(k);
            }
        }
    }

    /** {@code "hits of Hit, deaths of Death"}: the channels' names and event types. */
    private static String channels(List<EventKey<?>> keys) {
        StringBuilder sb = new StringBuilder();
        for (EventKey<?> k : keys) {
            sb.append(sb.length() == 0 ? "" : ", ").append(k.name()).append(" of ").append(k.type().getSimpleName());
        }
        return sb.toString();
    }

    /**
     * Publishes the owner's steps from now on ({@code true}) or stops ({@code false}, the
     * default). Any thread; a watchdog turns it on when it starts and off when it closes.
     */
    public void watch(boolean on) {
        watched = on;
    }

    /** Owner thread: step {@code kind} of the system at graph position {@code position} starts. */
    void enterSystemStep(int kind, int position) {
        if (watched) {
            publish(1 + PER_SYSTEM * position + kind);
        }
    }

    /** Owner thread: step {@code kind} of phase {@code phase} starts. */
    void enterPhaseStep(int kind, int phase) {
        if (watched) {
            publish(phaseBase + PER_PHASE * phase + kind);
        }
    }

    /** Owner thread: step {@code kind} of the run ({@link #AFTER_RUN}, {@link #AFTER_FAILURE}, {@link #BEGIN_EVENTS}) starts. */
    void enterRunStep(int kind) {
        if (watched) {
            publish(runBase + kind);
        }
    }

    /**
     * Names caller step {@code k} (1 to {@link #CALLER_STEPS} - 1). On the owner thread between
     * runs (a label is an immutable string; a watchdog reading it meanwhile may see the old one).
     */
    public void nameCallerStep(int k, String label) {
        labels[callerBase + java.util.Objects.checkIndex(k, CALLER_STEPS)] = label;
    }

    /** Owner thread, outside the executor's run: caller step {@code k} starts; end it with {@link #leave}. */
    public void enterCallerStep(int k) {
        if (watched) {
            publish(callerBase + k);
        }
    }

    private void publish(int index) {
        step.setPlain(index);
        since.setRelease(System.nanoTime());
    }

    /** Owner thread: the step entered last has ended (also when it threw). */
    public void leave() {
        since.setRelease(0); // whether watched or not, so turning the watch off mid-step leaves no stale step
    }

    /** When the owner's current step started ({@link System#nanoTime()}), or 0 while it is in none. Any thread. */
    public long startedAt() {
        return since.getAcquire();
    }

    /**
     * The label of the owner's current step, read after a non-zero {@link #startedAt}; once
     * that step has ended, still the label of the step entered last ({@code null} before the
     * first), which lets a test probe a step that runs no user code (an event merge) from the
     * code that runs right after it. Any thread.
     */
    public String label() {
        int i = step.getPlain();
        return i == 0 ? null : labels[i];
    }
}
