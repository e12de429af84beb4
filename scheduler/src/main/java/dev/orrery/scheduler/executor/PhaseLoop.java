package dev.orrery.scheduler.executor;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.resource.Resources;
import dev.orrery.scheduler.system.SyncPoint;
import dev.orrery.scheduler.system.SystemFailedException;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of a run both executors share, so it is written once: the owner thread and its
 * assert, the run/closed state, phases in order each followed by its sync point (command
 * buffers applied, then the user's {@link SyncPoint}; on a failure the buffers are discarded,
 * the sync point hears of it, and the failure is thrown), the phase lock (the world's
 * structure lock plus its jobs-running marker, which refuses by-id writes from jobs), the
 * sync point before a system declared {@code afterStructuralChanges()}, and the run of an
 * exclusive system (unlock, run, record a failure, relock).
 *
 * <p><b>Owner thread:</b> an executor is owned by the thread of its first {@code run}, or by
 * the thread given to {@link #bindOwner} (which also rebinds the calling worker's command
 * buffer); under {@code -ea}, {@link #run} asserts it is called on the owner. Handing the
 * executor to another thread needs a happens-before edge from the old owner's last run to the
 * {@code bindOwner} call (a queue, a lock, {@code Thread.start}), like the world itself.
 *
 * <p><b>Threading:</b> every method runs on the owner thread, between or inside runs; none is
 * called by a worker.
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
    private Thread owner;
    private boolean running;
    private boolean closed;
    private boolean finishPhase;

    PhaseLoop(ExecutionPlan plan, int workers, CommandSync commands, WorkerContext callerContext) {
        this.world = plan.world();
        this.resources = plan.resources();
        this.workers = workers;
        this.graph = plan.graph();
        this.commands = commands;
        commands.systemNames(position -> position < graph.size() ? graph.system(position).name() : null);
        this.callerContext = callerContext;
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
            throw new IllegalStateException(what + " between runs, not from a system or a sync point");
        }
    }

    /**
     * One run: checks it may start (not closed, not inside a run, on the owner thread), then
     * runs every phase through {@code runner} with its sync point.
     */
    void run(SyncPoint syncPoint, PhaseRunner runner) {
        if (closed) {
            throw new IllegalStateException("this executor is closed; create a new one to run the schedule");
        }
        if (running) {
            throw new IllegalStateException("run() called while a run is in progress (from a system or a sync "
                    + "point); call it again after the current run returns");
        }
        if (owner == null) {
            bindOwner(Thread.currentThread());
        }
        assert owner == Thread.currentThread() : "ScheduleExecutor.run called on thread '"
                + Thread.currentThread().getName() + "', but the executor is owned by thread '" + owner.getName()
                + "' (the thread of its first run, or the one given to bindOwner); run it on its owner, or hand it "
                + "over with bindOwner(thread) between runs";
        running = true;
        world.changes().retire(); // removal logs keep the last runs' entries only
        resources.prepareReductions(workers); // a LongSum put since the last run gets a slot per worker
        try {
            for (int p = 0, np = graph.phases().size(); p < np; p++) {
                SystemFailedException failure = runner.runPhase(p);
                if (failure != null) {
                    commands.discard();
                    syncPoint.afterFailure(failure, world);
                    throw failure;
                }
                commands.apply(world);
                syncPoint.afterPhase(graph.phases().get(p), world);
            }
            syncPoint.afterRun(world);
        } finally {
            running = false;
        }
    }

    /** Locks the world for phase {@code p}'s jobs: no structural change, no by-id write through the world. */
    void lockPhase(int p) {
        world.storage().lockStructure(lockReasons[p]);
        world.storage().jobsRunning().enter(lockReasons[p]);
    }

    /** Undoes {@link #lockPhase}. */
    void unlockPhase() {
        world.storage().jobsRunning().exit();
        world.storage().unlockStructure();
    }

    /**
     * Before {@code r} starts, in phase {@code p}, with no job running: applies the command
     * buffers if {@code r} is exclusive, declared {@code afterStructuralChanges()} or got an
     * automatic sync point from the graph ({@code SystemGraph.syncBefore}), with the phase lock
     * released meanwhile.
     */
    void syncBefore(SystemRun r, int p) {
        if (r.exclusive || r.syncBefore) {
            unlockPhase();
            try {
                commands.apply(world);
            } finally {
                lockPhase(p);
            }
        }
    }

    /**
     * Runs exclusive system {@code r} of phase {@code p} on this thread with the phase lock
     * released (it may change the structure and write by id), records a failure in its one
     * job instead of throwing, and locks the phase again; returns the job.
     */
    Job runExclusive(SystemRun r, int p) {
        r.beginChangeTick();
        Job job = r.whole();
        unlockPhase();
        try {
            callerContext.runExclusive(r);
        } catch (Throwable t) {
            job.fail(t, -1, 0);
        } finally {
            lockPhase(p);
        }
        return job;
    }
}
