package dev.orrery.scheduler.executor;

import dev.orrery.ecs.CommandKind;
import dev.orrery.ecs.CommandOutcome;
import dev.orrery.ecs.PlaybackReport;
import dev.orrery.ecs.RefusedCommandException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.ChangeClock;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.ecs.storage.JobsRunning;
import dev.orrery.ecs.storage.ScheduleRunClaim;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.SyncPoint;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.flow.PhaseRule;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of a run both executors share, so it is written once: the owner thread and its
 * assert, the run/closed state, phases in order each followed by its sync point (command
 * buffers applied, then the user's {@link SyncPoint}; on a failure the buffers are discarded,
 * the sync point hears of it, and the failure is thrown), the phase lock (the world's
 * structure lock plus its jobs-running marker, which refuses by-id writes from jobs), the
 * sync point before a system declared {@code afterStructuralChanges()}, and the run of an
 * exclusive system (unlock, run, record a failure, relock); and the schedule's flow: state
 * transitions at the start of each run (on-exit phase, value change, on-enter phase), each
 * phase's rule (skipped while its run condition fails, repeated once per whole fixed step),
 * a system's run condition, its event readers and its count (or chunks) as it starts, and
 * the event channels' merge at the end of each phase ({@link EventSync}). Each run condition,
 * sync point, range count and call of the caller's {@link SyncPoint} is a step of its
 * {@link OwnerActivity}, so a watchdog can name the one a late run is in.
 *
 * <p><b>Owner thread:</b> an executor is owned by the thread of its first {@code run}, or by
 * the thread given to {@link #bindOwner} (which also rebinds the calling worker's command
 * buffer); under {@code -ea}, {@link #run} asserts it is called on the owner. Handing the
 * executor to another thread needs a happens-before edge from the old owner's last run to the
 * {@code bindOwner} call (a queue, a lock, {@code Thread.start}), like the world itself. Apart
 * from the owner, which is per executor, each run takes its world's {@code ScheduleRunClaim},
 * so two executors (of one schedule or two) cannot run one world on two threads at once: the
 * second is refused before it binds or changes anything.
 *
 * <p><b>Threading:</b> every method runs on the owner thread, between or inside runs; none is
 * called by a worker.
 *
 * <p>(Over 500 lines on purpose: it is the one place that orders a run (phases, fixed steps, state
 * transitions, sync points, the structure lock) and says what a failed run left; the two executors
 * share it so that their ordering cannot drift apart, and about a third of the file is the
 * contract in documentation.)
 */
final class PhaseLoop {
    /** Runs one phase; returns its failure, or null. */
    interface PhaseRunner {
        SystemFailedException runPhase(int phase);
    }

    private final World world;
    private final Resources resources;
    private final int workers;
    private final SystemGraph graph;
    private final CommandSync commands;
    private final WorkerContext callerContext;
    private final String[] lockReasons;
    private final EventSync events;
    /** The world's claim of the run in progress, taken at the start of each run (see {@link #run}). */
    private final ScheduleRunClaim runClaim;
    private final PhaseRule[] rules;
    private final ResourceKey<?>[] stateKeys;
    /** Per state machine, per enter (0) / exit (1), per value ordinal: the transition phase, or -1. */
    private final int[][][] transitionPhase;
    /** What this thread does outside jobs (run conditions, sync points), for a watchdog. */
    final OwnerActivity activity;
    private Thread owner;
    private boolean running;
    private boolean closed;
    // The change tick the running phase started at. Each system of the phase takes the tick
    // phaseBase + (its place in the phase), and each sync point stamps the tick of the system
    // it precedes (the phase's end: phaseBase + its size), whether or not the system runs: the
    // ticks are those of a one-by-one run in graph order, whatever the workers and the timing.
    private long phaseBase;
    private int phaseStart;
    private boolean finishPhase;
    // What this run applied so far, for a failure's message (see outcome): counters and names
    // already held, so keeping them allocates nothing.
    private long runApplied0;
    private long runSpawns0;
    private int runSyncs;
    private long phaseApplied0;
    private int phaseSyncs;
    private SystemRun lastSyncInPhase;
    private boolean lastSyncAfter;
    private int exclusivesRun;
    private String lastExclusive;
    // The distinct exclusive systems among those runs (a fixed-step phase runs its systems once a step):
    // exclusiveSeen[position] == runSerial once a system was counted in this run; no allocation per run.
    private final int[] exclusiveSeen;
    private int runSerial;
    private int exclusivesDistinct;
    // The fixed step running now (0-based) and the steps of this run of its phase; stepIndex -1 outside one.
    private int stepIndex = -1;
    private int stepCount;
    // The failure of a sync point inside the running phase (before a system), and what it had applied.
    private SystemFailedException syncFailure;
    private long syncFailureApplied;

    PhaseLoop(ExecutionPlan plan, int workers, CommandSync commands, WorkerContext callerContext) {
        this.world = plan.world();
        this.resources = plan.resources();
        this.workers = workers;
        this.graph = plan.graph();
        this.exclusiveSeen = new int[graph.size()];
        this.commands = commands;
        commands.systemNames(position -> position < graph.size() ? graph.system(position).name() : null);
        this.callerContext = callerContext;
        this.events = new EventSync(plan);
        this.runClaim = EcsInternals.storage(world).scheduleRun();
        this.activity = new OwnerActivity(plan);
        this.rules = new PhaseRule[graph.phases().size()];
        List<ResourceKey<?>> machines = new ArrayList<>(plan.stateMachines());
        for (int p = 0; p < rules.length; p++) {
            rules[p] = graph.phaseRule(p);
            if (rules[p].transition() && !machines.contains(rules[p].state())) {
                machines.add(rules[p].state());
            }
        }
        this.stateKeys = machines.toArray(new ResourceKey<?>[0]);
        this.transitionPhase = new int[stateKeys.length][2][];
        for (int p = 0; p < rules.length; p++) {
            if (rules[p].transition()) {
                int m = machines.indexOf(rules[p].state());
                int side = rules[p].onEnter() ? 0 : 1;
                Enum<?> value = rules[p].stateValue();
                int[] byOrdinal = transitionPhase[m][side];
                if (byOrdinal == null) {
                    byOrdinal = new int[value.getDeclaringClass().getEnumConstants().length];
                    java.util.Arrays.fill(byOrdinal, -1);
                    transitionPhase[m][side] = byOrdinal;
                }
                byOrdinal[value.ordinal()] = p;
            }
        }
        this.lockReasons = new String[graph.phases().size()];
        for (int p = 0; p < lockReasons.length; p++) {
            List<String> names = new ArrayList<>();
            for (int s = graph.phaseStart(p); s < graph.phaseEnd(p); s++) {
                names.add(graph.system(s).name());
            }
            lockReasons[p] = "the scheduled jobs of phase " + graph.phases().get(p) + " (systems "
                    + String.join(", ", names) + ")";
        }
    }

    /** Makes {@code thread} the owner: the only thread that may run the executor; call between runs. */
    void bindOwner(Thread thread) {
        if (running) {
            throw new IllegalStateException("bindOwner called during a run; hand the executor over between runs");
        }
        owner = java.util.Objects.requireNonNull(thread, "owner thread");
        callerContext.bindOwner(thread);
        world.bindOwner(thread);
    }

    /** The owner thread, or null before the first run. */
    Thread owner() {
        return owner;
    }

    /** Sets {@link ScheduleExecutor#finishPhaseOnFailure}; between runs. */
    void finishPhaseOnFailure(boolean on) {
        checkBetweenRuns("set finishPhaseOnFailure");
        finishPhase = on;
    }

    /** Whether a failing phase runs to its end. */
    boolean finishPhase() {
        return finishPhase;
    }

    /**
     * The failure to throw of two from one phase in finish mode: the one at the lower (graph
     * position, chunk ordinal), with the other suppressed, so it does not depend on timing.
     */
    static SystemFailedException first(SystemFailedException kept, int keptPos, SystemFailedException f, int pos) {
        if (kept == null) {
            return f;
        }
        if (pos < keptPos || pos == keptPos && f.chunkOrdinal() < kept.chunkOrdinal()) {
            f.addSuppressed(kept);
            return f;
        }
        kept.addSuppressed(f);
        return kept;
    }

    /** True while a run is in progress. */
    boolean running() {
        return running;
    }

    /** True once the executor is closed. */
    boolean closed() {
        return closed;
    }

    /** Marks the executor closed; returns false if it already was. */
    boolean close() {
        boolean was = closed;
        closed = true;
        return !was;
    }

    /** Refuses a call that must wait for the current run to end (setting the observer). */
    void checkBetweenRuns(String what) {
        if (running) {
            throw new IllegalStateException("cannot " + what + " while this executor's run is in progress (the call "
                    + "came from a system, a run condition or a sync point); " + what + " between runs, after run() returns");
        }
    }

    /**
     * Checks a new run deadline for either executor: set between runs, and 0 (none) or a
     * positive number of nanoseconds.
     */
    void checkRunDeadline(long nanos) {
        checkBetweenRuns("set the run deadline");
        if (nanos < 0) {
            throw new IllegalArgumentException("a run deadline must be 0 (none) or a positive number of nanoseconds, got "
                    + nanos);
        }
    }

    /**
     * One run: checks it may start (not closed, not inside a run of this executor, from any of
     * its threads, no other thread running the world, on the owner thread), then runs every phase through
     * {@code runner} with its sync point. The world's {@link ScheduleRunClaim} is taken first,
     * with one compare-and-set, and given back when the run returns or throws: a run of any
     * executor over this world on another thread meanwhile is refused, while a run nested on
     * this thread (a sub-schedule stepped from an exclusive system) goes ahead.
     */
    void run(SyncPoint syncPoint, PhaseRunner runner) {
        if (closed) {
            throw new IllegalStateException("this executor is closed; create a new one to run the schedule");
        }
        if (running) { // this executor's own run, from one of its jobs on any thread (the jobs see it set)
            throw new IllegalStateException("run() called while a run is in progress (from a system or a sync "
                    + "point); call it again after the current run returns");
        }
        Thread other = runClaim.enter(); // before anything of the run: a refused run leaves the world untouched
        if (other != null) {
            throw concurrentRun(other);
        }
        try {
            runClaimed(syncPoint, runner);
        } finally {
            runClaim.exit();
        }
    }

    /**
     * The refusal of a run started while another executor's run holds the world on
     * {@code other}: names the world, both threads and the fix.
     */
    private IllegalStateException concurrentRun(Thread other) {
        String world = "World@" + Integer.toHexString(System.identityHashCode(this.world));
        return new IllegalStateException("ScheduleExecutor.run() on thread '" + Thread.currentThread().getName()
                + "' refused: " + world + " is being run by another executor's run on thread '" + other.getName()
                + "', and two runs at once over one world race on its columns, change ticks and command buffers. "
                + "Run one executor at a time per world: let that run return, then start this one (hand the world "
                + "over between ticks, through a queue, a lock or Thread.join, and bindOwner the new thread). "
                + "This run started nothing: the world and the other run are untouched");
    }

    /** {@link #run} once this thread holds the world's run claim. */
    private void runClaimed(SyncPoint syncPoint, PhaseRunner runner) {
        if (owner == null) {
            bindOwner(Thread.currentThread());
        }
        assert owner == Thread.currentThread() : "ScheduleExecutor.run called on thread '"
                + Thread.currentThread().getName() + "', but the executor is owned by thread '" + owner.getName()
                + "' (the thread of its first run, or the one given to bindOwner); run it on its owner, or hand it "
                + "over with bindOwner(thread) between runs";
        running = true;
        PlaybackReport totals = commands.totals();
        runApplied0 = totals.applied();
        runSpawns0 = totals.count(CommandKind.SPAWN, CommandOutcome.APPLIED);
        runSyncs = 0;
        exclusivesRun = 0;
        exclusivesDistinct = 0;
        if (++runSerial == 0) { // wrapped after 2^32 runs: forget every mark, so none matches by chance
            java.util.Arrays.fill(exclusiveSeen, 0);
            runSerial = 1;
        }
        EcsInternals.retireRemovals(world); // removal logs keep the last runs' entries only
        SchedulerInternals.prepareReductions(resources, workers); // a LongSum put since the last run gets a slot per worker
        beginEvents();
        // A run started inside another schedule's exclusive system: that system's marks, put back at the end.
        ChangeClock clock = EcsInternals.changeClock(world);
        String outerPhase = clock.phase();
        boolean outerInSystem = clock.inSystem();
        long outerTick = clock.systemTick();
        long outerSince = clock.systemSince();
        clock.exitSystem();
        try {
            runTransitions(syncPoint, runner);
            for (int p = 0, np = graph.phases().size(); p < np; p++) {
                PhaseRule rule = rules[p];
                if (rule.transition() || rule.condition() != null && !phaseHolds(p, rule)) {
                    continue;
                }
                if (rule.fixedStep() == null) {
                    runPhase(p, syncPoint, runner);
                } else {
                    runFixedSteps(p, fixedStep(p, rule.fixedStep()), syncPoint, runner);
                }
            }
            afterRun(syncPoint);
        } finally {
            clock.resume(outerPhase, outerInSystem, outerTick, outerSince); // and clears a phase a failure left
            running = false;
        }
    }

    /** The event channels' start of run, as a step the watchdog can name (none without channels). */
    private void beginEvents() {
        if (!events.any()) {
            return;
        }
        activity.enterRunStep(OwnerActivity.BEGIN_EVENTS);
        try {
            events.beginRun(workers);
        } finally {
            activity.leave();
        }
    }

    /** The merge of what phase {@code p}'s systems sent, as a step the watchdog can name (none without channels). */
    private void mergeEvents(int p) {
        if (!events.any()) {
            return;
        }
        activity.enterPhaseStep(OwnerActivity.PHASE_MERGE, p);
        try {
            events.merge();
        } finally {
            activity.leave();
        }
    }

    /** Whether phase {@code p}'s run condition holds, as a step the watchdog can name. */
    private boolean phaseHolds(int p, PhaseRule rule) {
        activity.enterPhaseStep(OwnerActivity.PHASE_CONDITION, p);
        try {
            return rule.condition().test(resources);
        } finally {
            activity.leave();
        }
    }

    /**
     * The fixed timestep of phase {@code p}, refused naming the phase and the value to put when it is missing
     * (a second key of its name keeps {@link Resources}'s keys-compare-by-identity refusal). One look-up a run.
     */
    private FixedTimestep fixedStep(int p, ResourceKey<FixedTimestep> key) {
        FixedTimestep step = SchedulerInternals.valueIfPut(resources, key);
        if (step == null) {
            throw new IllegalStateException("fixed timestep '" + key.name() + "' of phase "
                    + graph.phases().get(p).name() + " has no value; put a FixedTimestep under its key before the first "
                    + "run, e.g. .resource(key, new FixedTimestep(stepUnits, unitsPerRun, maxStepsPerRun)) on the "
                    + "simulation or schedule builder");
        }
        return step;
    }

    /**
     * The value of state machine {@code m}, refused naming the state machine and the value to put when it is
     * missing (a second key of its name keeps {@link Resources}'s keys-compare-by-identity refusal). One look-up a
     * run.
     */
    private Object stateValue(int m) {
        Object value = SchedulerInternals.valueIfPut(resources, stateKeys[m]);
        if (value == null) {
            throw new IllegalStateException("state machine '" + stateKeys[m].name() + "' has no value: systems or "
                    + "phases are gated on it (onEnter, onExit, inState) but no States was put under its key; put "
                    + "one before the first run, e.g. .resource(key, new States<>(YourEnum.class, initialValue)) "
                    + "on the simulation or schedule builder");
        }
        return value;
    }

    private void runFixedSteps(int p, FixedTimestep step, SyncPoint syncPoint, PhaseRunner runner) {
        int k = SchedulerInternals.advance(step);
        int i = 0;
        try {
            stepCount = k;
            for (; i < k; i++) {
                SchedulerInternals.enterStep(step, i);
                stepIndex = i;
                runPhase(p, syncPoint, runner);
            }
        } finally {
            stepIndex = -1;
            if (i < k) { // step i failed: the steps after it never run, their units are spent
                SchedulerInternals.dropSteps(step, k - i - 1);
            }
            SchedulerInternals.enterStep(step, -1);
        }
    }

    /**
     * Runs phase {@code p} once through {@code runner}, then its sync point: events merged,
     * commands applied. A failure of a system, or of a sync point inside the phase, discards
     * the commands still pending; a failure of the closing sync point (its playback or an
     * observer hook) comes after its commands were applied. Either is thrown as a
     * {@link SystemFailedException} whose message says what the run left.
     */
    private void runPhase(int p, SyncPoint syncPoint, PhaseRunner runner) {
        phaseBase = EcsInternals.changeClock(world).now();
        phaseStart = graph.phaseStart(p);
        phaseApplied0 = commands.totals().applied();
        phaseSyncs = 0;
        lastSyncInPhase = null;
        syncFailure = null;
        // Until its closing sync point ends, a changed-filter query is iterated only by systems (ChangeClock.enterPhase).
        EcsInternals.changeClock(world).enterPhase(graph.phases().get(p).name());
        SystemFailedException failure = runner.runPhase(p);
        EcsInternals.changeClock(world).set(phaseBase + graph.phaseEnd(p) - graph.phaseStart(p));
        if (failure != null) {
            long dropped = commands.discard();
            events.discard();
            if (syncFailure != null && failure != syncFailure) { // an earlier system's failure came first
                runSyncs++;
                phaseSyncs++;
            }
            SchedulerInternals.outcome(failure, outcome(p, dropped, failure == syncFailure ? syncFailureApplied : -1));
            EcsInternals.changeClock(world).exitPhase();
            afterFailure(syncPoint, failure);
            throw failure;
        }
        mergeEvents(p);
        activity.enterPhaseStep(OwnerActivity.PHASE_SYNC, p);
        try {
            if (applyCommands() > 0) {
                runSyncs++;
            }
        } catch (RefusedCommandException strict) {
            throw strict; // strict mode's report of a recording bug, after the sync point was applied in full
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            failure = SchedulerInternals.atSyncPoint(
                    SchedulerInternals.syncPointEndingPhase(graph.phases().get(p).toString()), t);
        } finally {
            activity.leave();
            EcsInternals.changeClock(world).exitPhase();
        }
        if (failure != null) {
            events.discard();
            SchedulerInternals.outcome(failure, outcome(p, 0, commands.lastApplied()));
            afterFailure(syncPoint, failure);
            throw failure;
        }
        afterPhase(syncPoint, p);
    }

    /** The caller's {@code afterPhase} for phase {@code p}, as a step the watchdog can name (none for {@code NONE}). */
    private void afterPhase(SyncPoint syncPoint, int p) {
        if (syncPoint == SyncPoint.NONE) {
            return;
        }
        activity.enterPhaseStep(OwnerActivity.PHASE_CALLBACK, p);
        try {
            syncPoint.afterPhase(graph.phases().get(p), world);
        } finally {
            activity.leave();
        }
    }

    /** The caller's {@code afterRun}, as a step the watchdog can name. */
    private void afterRun(SyncPoint syncPoint) {
        if (syncPoint == SyncPoint.NONE) {
            return;
        }
        activity.enterRunStep(OwnerActivity.AFTER_RUN);
        try {
            syncPoint.afterRun(world);
        } finally {
            activity.leave();
        }
    }

    /** The caller's {@code afterFailure}, as a step the watchdog can name. */
    private void afterFailure(SyncPoint syncPoint, SystemFailedException failure) {
        if (syncPoint == SyncPoint.NONE) {
            return;
        }
        activity.enterRunStep(OwnerActivity.AFTER_FAILURE);
        try {
            syncPoint.afterFailure(failure, world);
        } finally {
            activity.leave();
        }
    }

    /** Applies the command buffers (structure unlocked by the caller); returns how many commands applied. */
    private long applyCommands() {
        return commands.apply(world);
    }

    /**
     * What the failed run left, for the end of a failure's message: what the failing sync
     * point applied, when the failure is a sync point's ({@code failedSyncApplied} commands;
     * -1 for a system's failure); the structural changes applied at this run's sync points
     * before it (they stay); the direct changes of exclusive systems; the {@code dropped}
     * commands still pending in phase {@code p}; and the column values. Built only on failure.
     */
    private String outcome(int p, long dropped, long failedSyncApplied) {
        PlaybackReport totals = commands.totals();
        long own = Math.max(0, failedSyncApplied);
        long earlier = totals.applied() - runApplied0 - own;
        long inPhase = totals.applied() - phaseApplied0 - own;
        long spawns = totals.count(CommandKind.SPAWN, CommandOutcome.APPLIED) - runSpawns0;
        String phase = graph.phases().get(p).toString();
        StringBuilder sb = new StringBuilder("; what the failed run left: ");
        if (failedSyncApplied >= 0) {
            sb.append("the failing sync point had applied its ").append(plural(own, "command")).append(" before it "
                    + "failed, and they stay with the changes of the hooks that ran (the commands the hooks recorded in "
                    + "the failing round were dropped); ");
        }
        if (earlier == 0) {
            sb.append("no ").append(failedSyncApplied >= 0 ? "earlier " : "").append("sync point of this run had "
                    + "applied a structural change");
        } else {
            sb.append(plural(earlier, "command")).append(" applied at ").append(plural(runSyncs, "earlier sync point"))
                    .append(" of this run stay");
            if (inPhase > 0) {
                sb.append(", ").append(inPhase).append(" of them inside phase ").append(phase).append(" (the last ")
                        .append(lastSyncInPhase == null ? "one"
                                : (lastSyncAfter ? "after exclusive system '" : "before system '")
                                        + lastSyncInPhase.name + "'").append(')');
            }
        }
        if (spawns > 0) {
            sb.append("; this run's sync points spawned ").append(spawns).append(spawns == 1 ? " entity" : " entities");
        }
        if (exclusivesRun > 0) {
            sb.append("; the direct changes of ").append(exclusivesRun == 1 ? "exclusive system '" + lastExclusive + "'"
                    : exclusivesDistinct == exclusivesRun ? exclusivesRun + " exclusive systems (the last '"
                            + lastExclusive + "')"
                    : plural(exclusivesDistinct, "exclusive system") + ", over " + exclusivesRun + " runs (the last '"
                            + lastExclusive + "')").append(" stay");
        }
        if (failedSyncApplied < 0) {
            sb.append("; ").append(dropped == 0 ? "no command was still pending in phase " + phase
                    : "the " + plural(dropped, "command") + " still pending in phase " + phase + (dropped == 1 ? " was"
                            : " were") + " discarded").append(", so the world's structure is consistent");
        }
        if (stepIndex >= 0) { // a fixed-step phase: which step, and what became of the steps after it
            int after = stepCount - stepIndex - 1;
            sb.append("; it failed in step ").append(stepIndex + 1).append(" of ").append(stepCount)
                    .append(" of fixed-step phase ").append(phase);
            if (after > 0) {
                sb.append("; the ").append(plural(after, "step")).append(" after it did not run, and ")
                        .append(after == 1 ? "its" : "their").append(" time is dropped (FixedTimestep.droppedSteps())");
            }
        }
        sb.append("; later phases did not run, and column values written before the failure keep their new values");
        return sb.toString();
    }

    private static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    /**
     * At the run boundary, per state machine in order: on the first run the on-enter phase of
     * its initial value; then, if a change was requested, the on-exit phase of the current
     * value, the change, and the on-enter phase of the new value.
     */
    private void runTransitions(SyncPoint syncPoint, PhaseRunner runner) {
        for (int m = 0; m < stateKeys.length; m++) {
            Object value = stateValue(m);
            if (!(value instanceof States<?> st)) {
                throw new IllegalStateException("resource '" + stateKeys[m].name() + "' is used as a state machine "
                        + "but holds " + value.getClass().getName() + "; put a States value under it");
            }
            if (!st.entered()) {
                SchedulerInternals.markEntered(st);
                runTransition(m, 0, st.current(), syncPoint, runner);
            }
            Enum<?> next = st.requested();
            if (next != null && next != st.current()) {
                runTransition(m, 1, st.current(), syncPoint, runner);
                SchedulerInternals.applyRequest(st);
                runTransition(m, 0, st.current(), syncPoint, runner);
            } else if (next != null) {
                SchedulerInternals.applyRequest(st); // a request for the current value: nothing to do
            }
        }
    }

    private void runTransition(int machine, int side, Enum<?> value, SyncPoint syncPoint, PhaseRunner runner) {
        int[] byOrdinal = transitionPhase[machine][side];
        if (byOrdinal != null && value.ordinal() < byOrdinal.length && byOrdinal[value.ordinal()] >= 0) {
            runPhase(byOrdinal[value.ordinal()], syncPoint, runner);
        }
    }

    /**
     * Before system {@code r} of phase {@code p} starts, with no job of a system it is ordered
     * against running: its sync point (see {@link #syncBefore}), then its run condition;
     * when it holds, opens its event readers. Returns false when the condition skips it.
     *
     * @throws SystemFailedException when the sync point fails (its playback or an observer
     *     hook threw) or the run condition throws; nothing is in flight, and the phase ends
     */
    boolean startSystem(SystemRun r, int p) {
        syncBefore(r, p);
        if (r.runIf != null && !holds(r)) {
            return false;
        }
        if (r.readsEvents()) {
            activity.enterSystemStep(OwnerActivity.OPEN_EVENTS, r.position);
            try {
                r.openEvents(resources);
            } finally {
                activity.leave();
            }
        } else {
            r.openEvents(resources); // looks up the channels it writes: nothing to merge
        }
        return true;
    }

    /**
     * As non-exclusive system {@code r} starts: lists its chunks, or asks a range system for its
     * count (user code) or takes a level system's hierarchy, as a step the watchdog can name.
     */
    void collect(SystemRun r) {
        long tick = changeTick(r);
        if (r.rangeBody == null && r.walk == null) {
            r.collect(tick);
            return;
        }
        activity.enterSystemStep(OwnerActivity.COUNT, r.position);
        try {
            r.collect(tick); // keeps a count that throws as the system's failure
        } finally {
            activity.leave();
        }
    }

    /** Whether {@code r}'s run condition holds; a condition that throws fails {@code r} (its phase ends there). */
    private boolean holds(SystemRun r) {
        activity.enterSystemStep(OwnerActivity.CONDITION, r.position);
        JobsRunning jobs = EcsInternals.storage(world).jobsRunning();
        jobs.conditionStarts(r.name); // a refusal of what the condition reaches for gives a condition's fix
        try {
            return r.runIf.test(resources);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            throw SchedulerInternals.inChunk(r.name, null, -1, 0, new IllegalStateException("the run condition of "
                    + "system '" + r.name + "' threw: " + t, t));
        } finally {
            jobs.conditionEnds();
            activity.leave();
        }
    }

    /** Locks the world for phase {@code p}'s jobs: no structural change, no by-id write through the world. */
    void lockPhase(int p) {
        EcsInternals.storage(world).lockStructure(lockReasons[p]);
        EcsInternals.storage(world).jobsRunning().enter(lockReasons[p]);
    }

    /** Undoes {@link #lockPhase}. */
    void unlockPhase() {
        EcsInternals.storage(world).jobsRunning().exit();
        EcsInternals.storage(world).unlockStructure();
    }

    /**
     * Before {@code r} starts, in phase {@code p}, with no job running: applies the command
     * buffers if {@code r} is exclusive, declared {@code afterStructuralChanges()} or got an
     * automatic sync point from the graph ({@code SystemGraph.syncBefore}), with the phase lock
     * released meanwhile.
     */
    void syncBefore(SystemRun r, int p) {
        if (r.exclusive || r.syncBefore) {
            EcsInternals.changeClock(world).set(changeTick(r)); // playback stamps the tick of the system it precedes
            unlockPhase();
            activity.enterSystemStep(OwnerActivity.SYNC_BEFORE, r.position);
            try {
                counted(applyCommands(), r, false);
            } catch (RefusedCommandException strict) {
                throw strict;
            } catch (VirtualMachineError e) {
                throw e;
            } catch (Throwable t) {
                syncFailureApplied = commands.lastApplied();
                syncFailure = SchedulerInternals.atSyncPoint(SchedulerInternals.syncPointBeforeSystem(r.name), t);
                throw syncFailure; // the executors end the phase here: nothing is in flight
            } finally {
                activity.leave();
                lockPhase(p);
            }
        }
    }

    /**
     * Counts a sync point inside the running phase, before {@code r} (or, {@code after}, after
     * exclusive system {@code r}), that applied {@code applied} commands.
     */
    private void counted(long applied, SystemRun r, boolean after) {
        if (applied > 0) {
            runSyncs++;
            phaseSyncs++;
            lastSyncInPhase = r;
            lastSyncAfter = after;
        }
    }

    /** The change tick of system {@code r} in the running phase: see {@link #phaseBase}. */
    long changeTick(SystemRun r) {
        return phaseBase + r.position - phaseStart;
    }

    /**
     * Runs exclusive system {@code r} of phase {@code p} on this thread with the phase lock
     * released (it may change the structure and write by id), records a failure in its one
     * job instead of throwing, and locks the phase again; returns the job.
     */
    Job runExclusive(SystemRun r, int p) {
        r.beginChangeTick(changeTick(r));
        EcsInternals.changeClock(world).set(r.tick + 1); // its direct changes stamp the tick after its own
        Job job = r.whole();
        unlockPhase();
        exclusivesRun++;
        lastExclusive = r.name;
        if (exclusiveSeen[r.position] != runSerial) {
            exclusiveSeen[r.position] = runSerial;
            exclusivesDistinct++;
        }
        boolean ran = false;
        ChangeClock clock = EcsInternals.changeClock(world);
        try {
            clock.enterSystem(r.tick, r.since); // a query it iterates is the system's: its ticks, not the query's own
            try {
                callerContext.runExclusive(r);
            } finally {
                clock.exitSystem();
            }
            ran = true;
            activity.enterSystemStep(OwnerActivity.SYNC_AFTER, r.position);
            counted(applyCommands(), r, true); // what its context recorded, before the next system starts
        } catch (Throwable t) {
            if (ran) { // its commands' playback (or a hook they fired) threw: count what was applied
                counted(commands.lastApplied(), r, true);
            }
            job.fail(t, -1, 0);
        } finally {
            activity.leave();
            lockPhase(p);
        }
        return job;
    }
}
