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

    /** An executor for {@code plan}. */
    public SingleThreadedExecutor(ExecutionPlan plan) {
        this.plan = plan;
        this.graph = plan.graph();
        this.runs = new SystemRun[plan.size()];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = new SystemRun(plan, i, 1);
        }
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
        SystemFailedException failure = null; // finish mode only: systems run in position order, so the first is lowest
        try {
            for (int s = graph.phaseStart(p), end = graph.phaseEnd(p); s < end; s++) {
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
                    r.collect(loop.changeTick(r));
                    job = r.whole();
                    context.run(job);
                    if (afterSystem != null && context.buffer().commandCount() > pending) {
                        recorded(s);
                    }
                }
                if (job.failure != null) {
                    if (!loop.finishPhase()) {
                        return r.failureOf(job);
                    }
                    failure = PhaseLoop.first(failure, -1, r.failureOf(job), s);
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
    public void close() {
        loop.close();
    }
}
