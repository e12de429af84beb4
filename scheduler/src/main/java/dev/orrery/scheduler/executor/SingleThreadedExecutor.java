package dev.orrery.scheduler.executor;

import dev.orrery.ecs.PlaybackReport;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SyncPoint;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.graph.SystemGraph;

/**
 * Runs every system on the calling thread, one by one in the graph's linear order: the
 * reference that the parallel executor must match, and the right choice on one core.
 * Like the parallel one it locks the world's structure (and refuses by-id writes through the
 * world) while ordinary systems run, checks access through each system's chunk views, runs
 * exclusive systems with the lock released and calls the sync point at the end of each
 * phase. Allocates nothing per run in the steady state.
 *
 * <p>Made while {@link JobOrderOverride#reverse} is set on the constructing thread (tests only),
 * or {@link JobOrderOverride#reverseOnly} for the one system it names, it splits each such
 * non-exclusive system into its finest jobs and runs them last to first (see
 * {@link JobOrderOverride}); a chunk system that throws stops at the first failing chunk met in
 * that order, or, in finish mode, runs every chunk and reports the lowest failing one, as
 * forward; a range or level system stops at its first failing job.
 *
 * <p>Made while {@link TieOrderOverride} is set on the constructing thread (tests only), it runs
 * each phase's systems in the order {@code TieOrderOverride.runOrder} gives, which keeps every
 * edge of the graph; each system keeps its position (its change tick, where its commands and
 * events merge, which failure finish mode reports), and the hook of {@link #afterEachSystem}
 * is called in the order the systems ran.
 *
 * <p><b>Threading:</b> no threads of its own; everything happens on the owner thread (the
 * thread of the first {@link #run}, or the one given to {@link #bindOwner}), one run at a time.
 */
public final class SingleThreadedExecutor implements PlannedExecutor {
    private final ExecutionPlan plan;
    private final SystemGraph graph;
    private final SystemRun[] runs;
    private final WorkerContext context;
    private final CommandSync commands = new CommandSync();
    private final PhaseLoop loop;
    private final PhaseLoop.PhaseRunner phaseRunner = this::runPhase;
    private SystemHook afterSystem;
    // For afterSystem's sync points: the positions of the systems whose commands wait for the next
    // playback, and the exclusive system running (its own commands are applied inside it), or -1.
    private int[] recordedBy = new int[8];
    private int recorded;
    private int exclusiveRunning = -1;
    /** By position: whether {@link JobOrderOverride} reverses that system (all, or the one named). */
    private final boolean[] reversedSystems;
    /** {@link TieOrderOverride}: the positions in the order they run, or null for the graph's order. */
    private final int[] runOrder;

    /** An executor for {@code plan}; reads {@link JobOrderOverride} and {@link TieOrderOverride} on this thread once, here. */
    public SingleThreadedExecutor(ExecutionPlan plan) {
        this.plan = plan;
        this.graph = plan.graph();
        this.runs = new SystemRun[plan.size()];
        this.reversedSystems = new boolean[runs.length];
        for (int i = 0; i < runs.length; i++) {
            reversedSystems[i] = JobOrderOverride.reverses(plan.system(i).name());
            runs[i] = new SystemRun(plan, i, reversedSystems[i] ? JobOrderOverride.RANGE_JOBS : 1);
        }
        this.runOrder = TieOrderOverride.runOrder(graph);
        this.context = new WorkerContext(0, plan);
        this.commands.add(context.buffer());
        this.loop = new PhaseLoop(plan, 1, commands, context);
    }

    @Override
    public void run(SyncPoint syncPoint) {
        recorded = 0; // a failed run discarded what it recorded
        loop.run(syncPoint, phaseRunner);
    }

    private SystemFailedException runPhase(int p) {
        loop.lockPhase(p);
        SystemFailedException failure = null; // finish mode only: the one at the lowest position
        int failurePos = -1;
        try {
            for (int k = graph.phaseStart(p), end = graph.phaseEnd(p); k < end; k++) {
                int s = runOrder == null ? k : runOrder[k];
                SystemRun r = runs[s];
                boolean starts;
                try {
                    starts = loop.startSystem(r, p);
                } catch (SystemFailedException beforeSystem) { // its sync point (or run condition) failed: the phase ends
                    if (failure == null) {
                        return beforeSystem;
                    }
                    failure.addSuppressed(beforeSystem);
                    return failure;
                }
                if (!starts) {
                    if (afterSystem != null) {
                        afterSystem.after(s, r.name, false, plan.world());
                    }
                    continue; // its run condition failed: nothing runs
                }
                Job job;
                int pending = context.buffer().commandCount();
                if (r.exclusive) {
                    exclusiveRunning = s;
                    try {
                        job = loop.runExclusive(r, p);
                    } finally {
                        exclusiveRunning = -1;
                    }
                } else {
                    loop.collect(r);
                    if (reversedSystems[s]) {
                        job = runReversed(r);
                    } else {
                        job = r.whole();
                        context.run(job);
                    }
                    if (afterSystem != null && context.buffer().commandCount() > pending) {
                        recorded(s);
                    }
                }
                if (job.failure != null) {
                    if (!loop.finishPhase()) {
                        return r.failureOf(job);
                    }
                    SystemFailedException kept = failure;
                    failure = PhaseLoop.first(failure, failurePos, r.failureOf(job), s);
                    failurePos = failure == kept ? failurePos : s;
                }
                if (afterSystem != null) {
                    afterSystem.after(s, r.name, true, plan.world());
                }
            }
            return failure;
        } finally {
            loop.unlockPhase();
        }
    }

    /**
     * {@link JobOrderOverride}: runs {@code r}'s finest jobs last to first (a level system's
     * stages in order, each stage's jobs last to first); returns the job whose failure to
     * report, or an empty job when none failed. A chunk system goes on past a failing chunk in
     * finish mode, as its one forward job would, and reports the lowest failing chunk (the last
     * met), as that job would; a range or level system stops at its first failing job.
     */
    private Job runReversed(SystemRun r) {
        Job[] jobs = r.jobs;
        if (r.countFailure != null || r.rangeBody == null && r.walk == null && r.chunkCount <= 1) {
            Job job = r.whole(); // nothing to reverse (or a failed count, which the one job reports)
            context.run(job);
            return job;
        }
        if (r.rangeBody == null && r.walk == null) {
            Job failed = null;
            int slot = 0;
            for (int c = r.chunkCount - 1; c >= 0; c--) {
                Job j = jobs[slot];
                j.reset(c, c + 1);
                context.run(j);
                if (j.failure != null) {
                    failed = j;
                    if (!context.finishChunksOnFailure) {
                        return failed;
                    }
                    slot = 1 - slot; // keeps this failure's record while the next chunks run in the other job
                }
            }
            return failed != null ? failed : r.skipped();
        }
        int n = r.walk != null ? r.nextStage(jobs.length, 1) : r.split(jobs.length, 1);
        while (n > 0) {
            for (int k = n - 1; k >= 0; k--) {
                context.run(jobs[k]);
                if (jobs[k].failure != null) {
                    return jobs[k];
                }
            }
            n = r.walk != null ? r.nextStage(jobs.length, 1) : 0;
        }
        return r.skipped();
    }

    @Override
    public void afterEachSystem(SystemHook hook) {
        loop.checkBetweenRuns("set the after-each-system hook");
        this.afterSystem = hook;
        this.recorded = 0;
        commands.afterApply = hook == null ? null : this::afterSyncPoint;
    }

    private void recorded(int position) {
        if (recorded == recordedBy.length) {
            recordedBy = java.util.Arrays.copyOf(recordedBy, 2 * recorded);
        }
        recordedBy[recorded++] = position;
    }

    /** A playback applied commands: tells the hook whose, then forgets them. */
    private void afterSyncPoint() {
        if (exclusiveRunning >= 0) {
            recorded(exclusiveRunning); // the commands pending before it were applied before it started
        }
        if (runOrder != null) {
            java.util.Arrays.sort(recordedBy, 0, recorded); // the hook's contract: ascending positions
        }
        try {
            afterSystem.afterSyncPoint(recordedBy, recorded, plan.world());
        } finally {
            recorded = 0;
        }
    }

    /**
     * Accepted and kept, but it ends nothing: every job runs on the calling thread, which
     * cannot end its own job (see {@link ScheduleExecutor#runDeadline}).
     */
    @Override
    public void runDeadline(long nanos) {
        loop.checkRunDeadline(nanos);
    }

    @Override
    public void finishPhaseOnFailure(boolean on) {
        loop.finishPhaseOnFailure(on);
        context.finishChunksOnFailure = on;
    }

    @Override
    public void bindOwner(Thread owner) {
        loop.bindOwner(owner);
    }

    @Override
    public void observe(JobObserver observer) {
        loop.checkBetweenRuns("set the job observer");
        commands.observer = observer;
        context.observer = observer;
    }

    @Override
    public PlaybackReport commandTotals() {
        return commands.totals();
    }

    @Override
    public java.util.List<BatchDecision> batching() {
        return java.util.List.of(); // every job runs on the calling thread
    }

    @Override
    public int workerCount() {
        return 1;
    }

    @Override
    public ExecutionPlan plan() {
        return plan;
    }

    @Override
    public OwnerActivity activity() {
        return loop.activity;
    }

    @Override
    public void close() {
        loop.close();
    }
}
