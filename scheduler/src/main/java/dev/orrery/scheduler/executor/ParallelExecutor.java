package dev.orrery.scheduler.executor;

import dev.orrery.ecs.PlaybackReport;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SyncPoint;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * Runs systems as chunk-parallel (for range systems, index-range-parallel) jobs on
 * long-lived worker threads. The calling thread is the coordinator and worker 0: it starts
 * each system once its predecessors in the graph have finished, splits the system's
 * matching chunks into jobs (of at least {@code minBatchRows} rows when set, else sized by
 * the system's measured cost per row, see {@link #batching()}; a system too small for two
 * jobs, or one that would end before a worker thread could pick up its jobs, runs inline on
 * the calling thread, paying no hand-off), puts them on a shared job
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
 * The exception is a job abandoned at the run deadline: its retired worker never offers it
 * back, so nothing it writes is ordered before anything the caller does after the run.
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
 *
 * <p>(Over 500 lines on purpose: dispatch, completion, chunk pipelines and the run deadline all read
 * and write the caller's in-flight count, the job queues, the worker array and each system's job
 * array, which only the calling thread touches and so need no lock; a second class would have to
 * share that state through accessors on the hot path of every job. The phase order, sync points
 * and failure reporting around it are already apart, in {@code PhaseLoop}; the worker side in
 * {@code WorkerThread} and {@code WorkerContext}.)
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
    /** {@link #runDeadline}: 0, none; else how long a run may wait for a worker's job, from its start. */
    private long deadlineNanos;
    private long runStart;
    /** Set when this run's deadline passed: no more jobs go out, and the phase ends once none is out. */
    private boolean pastDeadline;
    /** Workers started in place of abandoned ones, for their threads' names. */
    private int replacements;

    /** The most workers an executor takes: each needs its own command buffer id (0 to 255). */
    public static final int MAX_WORKERS = 256;

    /** An executor with {@code workers} threads in all (the caller and {@code workers - 1} started here). */
    public ParallelExecutor(ExecutionPlan plan, int workers) {
        this(plan, workers, DEFAULT_JOBS_PER_WORKER);
    }

    /**
     * An executor with {@code workers} threads in all, splitting each large system into at
     * most {@code workers * jobsPerWorker} jobs.
     *
     * @throws IllegalArgumentException if {@code workers} is not 1 to {@value #MAX_WORKERS} or
     *     {@code jobsPerWorker} is below 1
     */
    public ParallelExecutor(ExecutionPlan plan, int workers, int jobsPerWorker) {
        if (workers < 1 || workers > MAX_WORKERS) {
            throw new IllegalArgumentException("an executor takes 1 to " + MAX_WORKERS + " workers, counting the "
                    + "calling thread (each needs its own command buffer id, 0 to 255); got " + workers);
        }
        if (jobsPerWorker < 1) {
            throw new IllegalArgumentException("a parallel executor needs at least 1 job per worker, got "
                    + jobsPerWorker);
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
            this.workers[w - 1] = new WorkerThread(this, queues, w, context, "orrery-worker-" + w);
        }
        for (WorkerThread w : this.workers) {
            w.thread.start();
        }
    }

    @Override
    public void run(SyncPoint syncPoint) {
        runStart = deadlineNanos > 0 ? System.nanoTime() : 0L;
        loop.run(syncPoint, phaseRunner);
    }

    /**
     * Ends a run that, {@code nanos} after it began, still waits for a job on a worker thread
     * (0: waits for ever, the default). See {@link ScheduleExecutor#runDeadline}: the jobs not
     * yet taken are not run, the workers in a job are interrupted and given a grace of a tenth
     * of the deadline (1 ms to 1 s) to return, and a worker whose job still has not returned is
     * abandoned and replaced by a new thread; the run then fails with the report of each
     * stuck job. Call between runs.
     */
    @Override
    public void runDeadline(long nanos) {
        loop.checkRunDeadline(nanos);
        deadlineNanos = nanos;
    }

    @Override
    public void bindOwner(Thread owner) {
        loop.bindOwner(owner);
    }

    private SystemFailedException runPhaseReportingFailure(int p) {
        try {
            runPhase(p);
        } catch (SystemFailedException beforeSystem) { // a sync point (or a run condition) inside the phase; nothing is in flight
            if (failure == null) {
                failure = beforeSystem;
            } else { // an earlier system of the phase failed first (finish mode)
                failure.addSuppressed(beforeSystem);
            }
        }
        SystemFailedException f = failure;
        failure = null;
        pastDeadline = false;
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
                if (!done.writtenOff) { // a job given up at a deadline and handed back late is not counted again
                    done.out = false;
                    inFlight--;
                    complete(done);
                }
                idle = 0;
                continue;
            }
            Job job = queues.pollJob();
            if (job != null) {
                if (going()) {
                    callerContext.run(job);
                }
                job.out = false;
                inFlight--;
                complete(job);
                idle = 0;
                continue;
            }
            assert inFlight > 0 : "systems left but none ready or running: the graph has a cycle";
            idle = callerIdle(idle);
            if (idle == 0 && deadlineNanos > 0 && !pastDeadline && System.nanoTime() - runStart > deadlineNanos) {
                endStuckJobs(phase); // only after a park: the clock is read once per park, not per spin
            }
        }
    }

    /** Whether the phase goes on handing out jobs: no failure yet, or finish mode; never past the deadline. */
    private boolean going() {
        return (failure == null || loop.finishPhase()) && !pastDeadline;
    }

    /**
     * One step of the caller's wait: spin, then yield, then park until a job or a completion is
     * queued; under a run deadline the park is bounded, so the caller looks at the clock again.
     */
    int callerIdle(int idle) {
        if (deadlineNanos > 0 && idle >= SPINS + YIELDS) {
            callerParker.parkUnless(callerHasWork, Math.min(Math.max(deadlineNanos / 8, 1_000_000L), 100_000_000L));
            return 0;
        }
        return callerParker.idle(idle, callerHasWork);
    }

    /**
     * The run's deadline passed with jobs of phase {@code phase} still out: no more jobs go
     * out and the queued ones are taken back unrun; the workers in a job are interrupted and
     * get a grace period to return it; a job still out after that is written off, its worker
     * retired (its thread abandoned: Java cannot stop a thread safely) and replaced by a new
     * worker, and the run fails with the report of each such job. Caller thread.
     */
    private void endStuckJobs(int phase) {
        long now = System.nanoTime();
        pastDeadline = true;
        aborting = true; // workers hand back the jobs they take without running them
        Job firstOut = firstOut(phase);
        for (WorkerThread w : workers) {
            if (w.current() != null) {
                w.thread.interrupt(); // a job blocked in an interruptible wait ends here
            }
        }
        long grace = Math.min(Math.max(deadlineNanos / 10, 1_000_000L), 1_000_000_000L);
        while (inFlight > 0 && System.nanoTime() - now < grace) {
            if (!reclaimOne()) {
                callerParker.parkUnless(callerHasWork, 1_000_000L);
            }
        }
        SystemFailedException stuck = null;
        while (inFlight > 0) {
            while (reclaimOne()) {
                // every job that came back is counted before the rest is written off
            }
            boolean inTransit = false;
            for (int s = graph.phaseStart(phase), end = graph.phaseEnd(phase); s < end && inFlight > 0; s++) {
                Job[] jobs = runs[s].jobs;
                for (int k = 0; k < jobs.length; k++) {
                    Job j = jobs[k];
                    if (!j.out) {
                        continue;
                    }
                    WorkerThread owner = ownerOf(j);
                    if (owner == null) {
                        inTransit = true; // between its worker and the completion queue: it is coming back
                        continue;
                    }
                    SystemFailedException f = abandon(owner, j, now, grace);
                    if (stuck == null) {
                        stuck = f;
                    } else {
                        stuck.addSuppressed(f);
                    }
                }
            }
            if (inTransit) {
                Thread.onSpinWait();
            }
        }
        if (stuck == null && firstOut != null) { // every job came back within the grace period
            stuck = SchedulerInternals.pastDeadline(firstOut.run.name, new TimeoutException(describe(firstOut, now)
                    + "; it returned within the " + grace / 1_000_000 + " ms grace after the executor interrupted its "
                    + "worker, and the phase ended there"));
        }
        if (stuck != null) {
            if (failure != null) {
                stuck.addSuppressed(failure);
            }
            failure = stuck;
        }
    }

    /** The first job of {@code phase} still out, in graph order, or null. */
    private Job firstOut(int phase) {
        for (int s = graph.phaseStart(phase), end = graph.phaseEnd(phase); s < end; s++) {
            for (Job j : runs[s].jobs) {
                if (j.out) {
                    return j;
                }
            }
        }
        return null;
    }

    /** Takes one job back from the queues (a queued one unrun, as aborting workers do); false when none waits. */
    private boolean reclaimOne() {
        Job j = queues.pollDone();
        if (j == null) {
            j = queues.pollJob();
        }
        if (j == null) {
            return false;
        }
        if (!j.writtenOff) {
            j.out = false;
            inFlight--;
            complete(j);
        }
        return true;
    }

    /** The worker running {@code job} now, or null. */
    private WorkerThread ownerOf(Job job) {
        for (WorkerThread w : workers) {
            if (w.current() == job) {
                return w;
            }
        }
        return null;
    }

    /**
     * Writes off {@code job}, stuck on {@code owner}: the worker is retired and a new one takes
     * its place (a new command buffer, so nothing the stuck job records is ever applied), the
     * system gets a new job object, and the failure reporting it is returned.
     */
    private SystemFailedException abandon(WorkerThread owner, Job job, long deadlineHit, long grace) {
        Job in = owner.context.runningJob();
        Job stuck = job;
        for (Job m = job.fused; m != null; m = m.fused) { // a chunk pipeline: name the member it is stuck in
            stuck = m == in ? m : stuck;
        }
        String report = describe(job, stuck, deadlineHit);
        job.out = false;
        inFlight--;
        SystemRun r = stuck.run;
        Job previous = null; // a chunk pipeline's head carries its members: the stuck thread holds them all
        for (Job old = job; old != null; old = old.fused) {
            old.writtenOff = true;
            Job fresh = new Job(old.run, old.ordinal);
            old.run.jobs[old.ordinal] = fresh;
            if (previous != null) {
                previous.fused = fresh;
            }
            previous = fresh;
        }
        owner.retire();
        WorkerContext context = new WorkerContext(owner.id, plan);
        context.finishChunksOnFailure = owner.context.finishChunksOnFailure;
        context.observer = owner.context.observer;
        commands.replace(owner.context.buffer(), context.buffer());
        WorkerThread fresh = new WorkerThread(this, queues, owner.id, context, "orrery-worker-" + owner.id + "-r"
                + ++replacements);
        for (int i = 0; i < workers.length; i++) {
            if (workers[i] == owner) {
                workers[i] = fresh;
            }
        }
        fresh.thread.start();
        String thread = owner.thread.getName();
        return SchedulerInternals.pastDeadline(r.name, new TimeoutException(report + "; it did not return within the " + grace / 1_000_000 + " ms grace after the executor interrupted "
                + "its worker, so that thread (now '" + thread + "') was abandoned and a new worker started in its "
                + "place: Java cannot stop a thread safely, so if the job ever returns, what it writes to columns "
                + "races with later runs (nothing it records is applied)"));
    }

    /** The watchdog-style report of stuck {@code job}: system, worker, range, and how long past the run's start. */
    private String describe(Job job, long deadlineHit) {
        return describe(job, job, deadlineHit);
    }

    /** As {@link #describe(Job, long)}, for {@code stuck}, the member of {@code job}'s chunk pipeline (or {@code job}) stuck. */
    private String describe(Job job, Job stuck, long deadlineHit) {
        SystemRun r = stuck.run;
        WorkerThread owner = ownerOf(job);
        String unit = r.rangeBody != null ? "indices" : r.walk != null ? "slots" : "chunks";
        StringBuilder pipeline = new StringBuilder();
        for (Job m = job; m != stuck; m = m.fused) {
            pipeline.append(pipeline.length() == 0 ? " (a chunk pipeline, after " : ", ").append('\'').append(m.run.name)
                    .append('\'');
        }
        for (Job m = stuck.fused; m != null; m = m.fused) {
            pipeline.append(m != stuck.fused ? ", " : pipeline.length() == 0 ? " (a chunk pipeline, with " : " and with ")
                    .append('\'').append(m.run.name).append('\'');
        }
        if (pipeline.length() > 0) {
            pipeline.append(stuck.fused != null ? " after it on the same chunks)" : " on the same chunks)");
        }
        return "its job over " + unit + " [" + job.from + ", " + job.to + ")" + pipeline + (owner == null ? ""
                : " on worker " + owner.id) + " was still running " + (deadlineHit - runStart) / 1_000_000
                + " ms after the run began (its deadline: " + deadlineNanos / 1_000_000 + " ms)";
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
        loop.collect(r);
        for (int m = pipelines.next[s]; m >= 0; m = pipelines.next[m]) {
            loop.startSystem(runs[m], phase); // no run condition, no sync point: it starts
            loop.collect(runs[m]); // the head's query: the same chunks
        }
        if (batching.runsInline(r)) {
            Job job = r.whole();
            job.startedAt = 0; // run here: no pick-up to time (also after a run a deadline cut short)
            r.handedOutAt = 0;
            for (int m = pipelines.next[s]; m >= 0; m = pipelines.next[m]) {
                runs[m].whole();
            }
            boolean timed = batching.timesInline(r);
            long start = timed ? System.nanoTime() : 0L;
            callerContext.run(job);
            batching.ranInline(r, timed ? System.nanoTime() - start : -1);
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
        if (r.walk == null) { // a level system's stages are not timed
            r.handedOutAt = System.nanoTime();
            r.firstPickup = Long.MAX_VALUE;
        }
        for (int k = 0; k < n; k++) {
            Job j = r.jobs[k];
            j.out = true;
            j.startedAt = 0;
            queues.offerJob(j);
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
        if (job.startedAt != 0 && r.handedOutAt != 0) {
            r.firstPickup = Math.min(r.firstPickup, job.startedAt - r.handedOutAt);
        }
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
            if (r.handedOutAt != 0) {
                // How long the split waited for a worker; when none came, the caller ran every
                // job, so a worker would have come later than the whole run took: twice that is
                // taken, so the run stays inline next time.
                batching.ranSplit(r, r.firstPickup != Long.MAX_VALUE ? r.firstPickup
                        : 2 * (System.nanoTime() - r.handedOutAt));
                r.handedOutAt = 0;
            }
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
                if (!j.writtenOff) {
                    j.out = false;
                    inFlight--;
                }
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

    /** Tests: takes system {@code name}'s split jobs to wait {@code nanos} for a worker thread from now on. */
    void assumePickup(String name, long nanos) {
        batching.assumePickup(run(name).position, nanos);
    }

    /** Tests: whether an inline run of system {@code name}, with its last run's rows, would be timed. */
    boolean timesInline(String name) {
        return batching.timesInline(run(name));
    }

    private SystemRun run(String name) {
        for (SystemRun r : runs) {
            if (r.name.equals(name)) {
                return r;
            }
        }
        throw new IllegalArgumentException("no system named '" + name + "'");
    }

    @Override
    public ExecutionPlan plan() {
        return plan;
    }

    @Override
    public OwnerActivity activity() {
        return loop.activity;
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
