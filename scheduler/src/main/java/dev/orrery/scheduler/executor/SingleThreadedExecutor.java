package dev.orrery.scheduler.executor;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.graph.SystemGraph;

/**
 * Runs every system on the calling thread, one by one in the graph's linear order: the
 * reference that the parallel executor must match, and the right choice on one core.
 * Like the parallel one it locks the world's structure while ordinary systems run, checks
 * access through each system's chunk views, runs exclusive systems with the structure
 * unlocked and calls the sync point at the end of each phase. Allocates nothing per run in
 * the steady state.
 *
 * <p><b>Threading:</b> no threads of its own; everything happens on the thread that calls
 * {@link #run}, one run at a time.
 */
public final class SingleThreadedExecutor implements ScheduleExecutor {
    private final ExecutionPlan plan;
    private final World world;
    private final SystemGraph graph;
    private final SystemRun[] runs;
    private final JobContext context;
    private final CommandSync commands = new CommandSync();
    private final PhaseLoop.PhaseRunner phaseRunner = this::runPhase;
    private final String[] lockReasons;
    private boolean running;
    private boolean closed;

    /** An executor for {@code plan}. */
    public SingleThreadedExecutor(ExecutionPlan plan) {
        this.plan = plan;
        this.world = plan.world();
        this.graph = plan.graph();
        this.runs = new SystemRun[plan.size()];
        for (int i = 0; i < runs.length; i++) {
            runs[i] = new SystemRun(i, plan.system(i), 1);
        }
        this.context = new JobContext(0, plan);
        this.commands.add(context.buffer());
        this.lockReasons = new String[graph.phases().size()];
        for (int p = 0; p < lockReasons.length; p++) {
            lockReasons[p] = "the scheduled systems of phase " + graph.phases().get(p);
        }
    }

    @Override
    public void run(SyncPoint syncPoint) {
        PhaseLoop.checkCanRun(closed, running);
        running = true;
        try {
            PhaseLoop.run(graph, world, commands, syncPoint, phaseRunner);
        } finally {
            running = false;
        }
    }

    private SystemFailedException runPhase(int p) {
        world.storage().lockStructure(lockReasons[p]);
        try {
            for (int s = graph.phaseStart(p), end = graph.phaseEnd(p); s < end; s++) {
                SystemRun r = runs[s];
                Job job;
                if (r.exclusive || r.system.declaration().syncBefore()) {
                    PhaseLoop.applyUnlocked(world, commands, lockReasons[p]);
                }
                if (r.exclusive) {
                    job = r.whole();
                    world.storage().unlockStructure();
                    try {
                        context.runExclusive(r.system, r.position, world);
                    } catch (Throwable t) {
                        job.fail(t, -1, 0);
                    } finally {
                        world.storage().lockStructure(lockReasons[p]);
                    }
                } else {
                    r.collect();
                    job = r.whole();
                    context.run(job);
                }
                if (job.failure != null) {
                    return r.failureOf(job);
                }
            }
            return null;
        } finally {
            world.storage().unlockStructure();
        }
    }

    @Override
    public void observe(JobObserver observer) {
        if (running) {
            throw new IllegalStateException("set the job observer between runs");
        }
        context.observer = observer;
    }

    @Override
    public PlaybackTotals commandTotals() {
        return commands.totals();
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
        closed = true;
    }
}
