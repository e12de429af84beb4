package dev.orrery.scheduler.executor;

import dev.orrery.ecs.PlaybackReport;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SyncPoint;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.graph.SystemGraph;
import java.util.function.BooleanSupplier;

/**
 * Runs systems as chunk-parallel (for range systems, index-range-parallel) jobs on
 * long-lived worker threads. The calling thread is the coordinator and worker 0: it starts
 * each system once its predecessors in the graph have finished, splits the system's
 * matching chunks into jobs (of at least {@code minBatchRows} rows when set, else sized by
 * the system's measured cost per row, see {@link #batching()}; a system too small for two
 * jobs runs inline on the calling thread, paying no hand-off), puts them on a shared job
 * queue, and runs jobs itself while it waits. Workers take jobs, run them, and return them on a completion queue.
 * A level system is handed out stage by stage ({@code LevelWalk}): the jobs of its next level
 * go out when the last job of the level before comes back, and other systems' jobs run
 * meanwhile as the graph allows.
 *
 * <pre>
 * One run, 3 workers. Phase Update: A (3 jobs), B waits for A (writes what A reads),
 * C independent of both (1 job). Phase PostUpdate: D (small, runs inline).
 *
 *  time -->
 *  caller(0) |lock|queue A,C|A.0 |poll|queue B|B.0|wait|unlock|sync Update|lock|D|unlock|sync PostUpdate|sync end|
 *  worker 1  |park...woken  |A.1      |C.0    |B.1 |spin..yield..park
 *  worker 2  |park...woken  |A.2 |spin|B.2        |spin..yield..park
 *                 ^ the caller offers the jobs, fences, unparks parked workers (one per job)
 *                                 ^ A's last job is back on the completion queue: B's count hits 0
 *                                                  ^ every job of Update is back: no job runs, the
 *                                                    structure is unlocked, all writes are visible
 * </pre>
 *
 * <p><b>Threading:</b> {@link #run} is called by the owner thread only (the thread of the
 * first run, or the one given to {@link #bindOwner}; asserted under {@code -ea}); it locks
 * the world's structure around each phase, so a structural change from a job throws, and
 * unlocks it for exclusive systems (which run alone on the calling thread) and for sync
 * points. Each worker's command buffer is bound to the worker's thread. Hand-offs are the
 * JCTools queues of {@link JobQueues}: a job's fields are written before it
 * is offered on the multi-producer multi-consumer job queue and read after it is polled,
 * and a worker's writes (the columns, the job's failure) happen-before the caller polls the
 * job from the multi-producer single-consumer completion queue. So each system's writes
 * happen-before the start of every system that waits for it, the end of a phase
 * happens-before its sync point, and the sync point happens-before the next phase's jobs.
 *
 * <p><b>Idle strategy:</b> a worker with no job spins with {@link Thread#onSpinWait} for
 * {@value #SPINS} polls (10 to 100 us, by the CPU's pause latency: long enough to catch the
 * next system's jobs inside a tick), then yields {@value #YIELDS} times, then parks through
 * its {@link IdleParker}: it parks only after publishing a parked flag and re-checking the
 * queue; the caller, after queueing jobs, issues a full fence and unparks parked workers
 * (one per job), so a wake-up is never lost. The caller waits for completions the
 * same way, and a worker that returns a job unparks it if it is parked. Between ticks every
 * thread ends up parked, so an idle engine burns no CPU.
 *
 * <p><b>Lent workers:</b> at a sync point the workers also write the values of many spawns
 * side by side for {@link dev.orrery.ecs.CommandPlayback} (its
 * {@link dev.orrery.ecs.ParallelFor}, see {@code LentWorkers}): the caller queues one job per task on the same queue, runs tasks
 * itself while it waits, and returns when every task is back on the completion queue, with
 * the same happens-before edges as a system's jobs.
 *
 * <p>Nothing is allocated per run once the jobs, queues and chunk lists have grown to the
 * schedule's size (they grow only when the world gains chunks).
 */
public final class ParallelExecutor implements PlannedExecutor {
    /** Jobs per system per worker, at most: enough to even out uneven chunks and noisy cores. */
    public static final int DEFAULT_JOBS_PER_WORKER = 4;
    static final int SPINS = 2_000;
    static final int YIELDS = 20;

    private final ExecutionPlan plan;
    private final SystemGraph graph;
    private final int workerCount;
    private final int maxJobsPerSystem;
    private final SystemRun[] runs;
    private final AdaptiveBatching batching;
    private final JobQueues<Job> queues;
    private final WorkerThread[] workers;
    private final WorkerContext callerContext;
    private final CommandSync commands = new CommandSync();
    private final PhaseLoop loop;
    private final PhaseLoop.PhaseRunner phaseRunner = this::runPhaseReportingFailure;
    final IdleParker callerParker = new IdleParker(null);
    private final BooleanSupplier callerHasWork;
    private final int[] pending;
    private final int[] ready;
    private final ChunkPipelines pipelines;

    /** Set by the caller when a failure stops the phase: workers hand jobs back without running them. */
    volatile boolean aborting;
    /** Set once by {@link #close}: workers leave their loop. */
    volatile boolean closed;

    // caller-only state
    private int readyCount;
    private int systemsLeft;
    private int inFlight;
    private SystemFailedException failure;
    private int failurePosition;

    /** An executor with {@code workers} threads in all (the caller and {@code workers - 1} started here). */
    public ParallelExecutor(ExecutionPlan plan, int workers) {
        this(plan, workers, DEFAULT_JOBS_PER_WORKER);
    }

    /**
     * An executor with {@code workers} threads in all, splitting each large system into at
     * most {@code workers * jobsPerWorker} jobs.
     *
     * @throws IllegalArgumentException if {@code workers} or {@code jobsPerWorker} is below 1
     */
    public ParallelExecutor(ExecutionPlan plan, int workers, int jobsPerWorker) {
        if (workers < 1 || jobsPerWorker < 1) {
            throw new IllegalArgumentException("a parallel executor needs at least 1 worker and 1 job per worker, "
                    + "got " + workers + " and " + jobsPerWorker);
        }
        this.plan = plan;
        this.graph = plan.graph();
        this.workerCount = workers;
        this.maxJobsPerSystem = workers * jobsPerWorker;
        int n = plan.size();
        this.runs = new SystemRun[n];
        for (int i = 0; i < n; i++) {
            runs[i] = new SystemRun(plan, i, maxJobsPerSystem);
        }
        this.pipelines = new ChunkPipelines(runs, graph);
        for (int i = 0; i < n; i++) {
            int m = pipelines.next[i];
            for (int k = 0; m >= 0 && k < runs[i].jobs.length; k++) {
                runs[i].jobs[k].fused = runs[m].jobs[k]; // the same chunks, right after, on the same worker
            }
        }
        this.batching = new AdaptiveBatching(runs, pipelines);
        this.queues = new JobQueues<>(n * maxJobsPerSystem);
        this.callerHasWork = () -> queues.hasDone() || queues.hasJobs();
        this.callerContext = new WorkerContext(0, plan);
        this.commands.add(callerContext.buffer());
        this.commands.parallel(new LentWorkers(this, queues, workers, workers * jobsPerWorker));
        this.loop = new PhaseLoop(plan, workers, commands, callerContext);
        this.pending = new int[n];
        this.ready = new int[n];
        this.workers = new WorkerThread[workers - 1];
        for (int w = 1; w < workers; w++) {
            WorkerContext context = new WorkerContext(w, plan);
            commands.add(context.buffer());
            this.workers[w - 1] = new WorkerThread(this, queues, w, context);
        }
        for (WorkerThread w : this.workers) {
            w.thread.start();
        }
    }

    @Override
    public void run(SyncPoint syncPoint) {
        loop.run(syncPoint, phaseRunner);
    }

    @Override
    public void bindOwner(Thread owner) {
        loop.bindOwner(owner);
    }

    private SystemFailedException runPhaseReportingFailure(int p) {
        runPhase(p);
        SystemFailedException f = failure;
        failure = null;
        return f;
    }

    private void runPhase(int p) {
        callerParker.bind(Thread.currentThread());
        int start = graph.phaseStart(p);
        int end = graph.phaseEnd(p);
        systemsLeft = end - start;
        inFlight = 0;
        readyCount = 0;
        for (int s = end - 1; s >= start; s--) {
            pending[s] = graph.predecessorCount(s);
            if (pending[s] == 0 && !pipelines.member[s]) { // a pipeline's members start with its head
                ready[readyCount++] = s; // pushed in reverse, so the earliest is popped first
            }
        }
        loop.lockPhase(p);
        try {
            coordinate(p);
        } finally {
            if (inFlight > 0) { // only after an unexpected error in the coordinator itself
                aborting = true;
                drain();
            }
            aborting = false;
            loop.unlockPhase();
        }
    }

    private void coordinate(int phase) {
        int idle = 0;
        while ((systemsLeft > 0 && going()) || inFlight > 0) {
            if (readyCount > 0 && going()) {
                dispatch(ready[--readyCount], phase);
                idle = 0;
                continue;
            }
            Job done = queues.pollDone();
            if (done != null) {
                inFlight--;
                complete(done);
                idle = 0;
                continue;
            }
            Job job = queues.pollJob();
            if (job != null) {
                if (going()) {
                    callerContext.run(job);
                }
                inFlight--;
                complete(job);
                idle = 0;
                continue;
            }
            assert inFlight > 0 : "systems left but none ready or running: the graph has a cycle";
            idle = callerIdle(idle);
        }
    }

    /** Whether the phase goes on handing out jobs: no failure yet, or finish mode. */
    private boolean going() {
        return failure == null || loop.finishPhase();
    }

    /** One step of the caller's wait: spin, then yield, then park until a job or a completion is queued. */
    int callerIdle(int idle) {
        return callerParker.idle(idle, callerHasWork);
    }

    private void dispatch(int s, int phase) {
        SystemRun r = runs[s];
        // An exclusive system, or one after a sync point: every earlier system of the phase has
        // finished and no later one has started (the graph orders them all around this one).
        assert !(r.exclusive || r.syncBefore) || inFlight == 0 : "'" + r.name + "' started beside running jobs";
        if (!loop.startSystem(r, phase)) {
            complete(r.skipped()); // its run condition failed: its successors may start
            return;
        }
        if (r.exclusive) {
            complete(loop.runExclusive(r, phase));
            return;
        }
        r.collect(loop.changeTick(r));
        for (int m = pipelines.next[s]; m >= 0; m = pipelines.next[m]) {
            loop.startSystem(runs[m], phase); // no run condition, no sync point: it starts
            runs[m].collect(loop.changeTick(runs[m])); // the head's query: the same chunks
        }
        if (batching.runsInline(r)) {
            Job job = r.whole();
            for (int m = pipelines.next[s]; m >= 0; m = pipelines.next[m]) {
                runs[m].whole();
            }
            long start = System.nanoTime();
            callerContext.run(job);
            batching.ranInline(r, System.nanoTime() - start);
            complete(job);
            return;
        }
        int n = batching.split(r, maxJobsPerSystem);
        for (int m = pipelines.next[s]; m >= 0; m = pipelines.next[m]) {
            runs[m].splitLike(r, n);
        }
        handOut(r, n);
    }

    /** Queues the first {@code n} jobs of {@code r} and wakes workers for them. */
    private void handOut(SystemRun r, int n) {
        inFlight += n;
        for (int k = 0; k < n; k++) {
            queues.offerJob(r.jobs[k]);
        }
        wakeWorkers(n);
    }

    /** Completes {@code job} and, in a chunk pipeline, the jobs fused after it. */
    private void complete(Job job) {
        for (Job j = job; j != null; j = j.fused) {
            completeOne(j);
        }
    }

    private void completeOne(Job job) {
        SystemRun r = job.run;
        if (job.failure != null) {
            SystemFailedException f = r.failureOf(job);
            if (loop.finishPhase()) {
                SystemFailedException kept = failure;
                failure = PhaseLoop.first(kept, failurePosition, f, r.position);
                failurePosition = failure == kept ? failurePosition : r.position;
            } else if (failure == null) {
                failure = f;
                aborting = true;
            } else {
                failure.addSuppressed(f);
            }
        }
        if (--r.jobsLeft == 0) {
            int n;
            if (r.walk != null && going() && (n = batching.nextStage(r, maxJobsPerSystem)) > 0) {
                handOut(r, n); // a level system's next level: every job of this one is back
                return;
            }
            systemsLeft--;
            if (going()) {
                int[] next = graph.successors(r.position);
                for (int i = 0; i < next.length; i++) {
                    if (--pending[next[i]] == 0 && !pipelines.member[next[i]]) {
                        ready[readyCount++] = next[i];
                    }
                }
            }
        }
    }

    /** Waits, with jobs skipped, until every job handed out has come back. */
    private void drain() {
        while (inFlight > 0) {
            Job j = queues.pollDone();
            if (j == null) {
                j = queues.pollJob();
            }
            if (j != null) {
                inFlight--;
            } else {
                Thread.onSpinWait();
            }
        }
        readyCount = 0;
    }

    /** Unparks up to {@code jobs} parked workers, after a fence that publishes the jobs just queued. */
    void wakeWorkers(int jobs) {
        IdleParker.fenceAfterPublish(); // the jobs are in the queue before we read who is parked
        int woken = 0;
        for (WorkerThread w : workers) {
            if (woken >= jobs) {
                return;
            }
            if (w.parker.unparkIfParked()) {
                woken++;
            }
        }
    }

    @Override
    public void finishPhaseOnFailure(boolean on) {
        loop.finishPhaseOnFailure(on);
        callerContext.finishChunksOnFailure = on;
        for (WorkerThread w : workers) {
            w.context.finishChunksOnFailure = on;
        }
    }

    @Override
    public void observe(JobObserver observer) {
        loop.checkBetweenRuns("set the job observer");
        commands.observer = observer;
        callerContext.observer = observer;
        for (WorkerThread w : workers) {
            w.context.observer = observer;
        }
    }

    @Override
    public PlaybackReport commandTotals() {
        return commands.totals();
    }

    @Override
    public int workerCount() {
        return workerCount;
    }

    /**
     * How each system is split into jobs, as decided so far, in graph order: adaptive
     * (timed inline over its first runs, then split by its cost per row) or explicit (its own
     * {@code minBatchRows}); see {@link BatchDecision}. {@link BatchDecision#toText} prints
     * it. Call between runs; allocates the list.
     */
    @Override
    public java.util.List<BatchDecision> batching() {
        loop.checkBetweenRuns("read the batching decisions");
        return batching.decisions();
    }

    @Override
    public ExecutionPlan plan() {
        return plan;
    }

    /** Stops the workers (each finishes its current job) and joins them. */
    @Override
    public void close() {
        if (!loop.close()) {
            return;
        }
        closed = true;
        for (WorkerThread w : workers) {
            w.parker.unparkAnyway();
        }
        boolean interrupted = false;
        for (WorkerThread w : workers) {
            while (true) {
                try {
                    w.thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
