package dev.orrery.scheduler.executor;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.graph.SystemGraph;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;
import org.jctools.queues.atomic.MpscAtomicArrayQueue;

/**
 * Runs systems as chunk-parallel (for range systems, index-range-parallel) jobs on
 * long-lived worker threads. The calling thread is the coordinator and worker 0: it starts
 * each system once its predecessors in the graph have finished, splits the system's
 * matching chunks into jobs of at least {@code minBatchRows} rows (a system with fewer rows
 * in all runs inline on the calling thread, paying no hand-off), puts them on a shared job
 * queue, and runs jobs itself while it waits. Workers take jobs, run them, and return them on a completion queue.
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
 * <p><b>Threading:</b> {@link #run} is called by one thread at a time (the owner of the
 * world); it locks the world's structure around each phase, so a structural change from a
 * job throws, and unlocks it for exclusive systems (which run alone on the calling thread)
 * and for sync points. Hand-offs are JCTools queues: a job's fields are written before it
 * is offered on the multi-producer multi-consumer job queue and read after it is polled,
 * and a worker's writes (the columns, the job's failure) happen-before the caller polls the
 * job from the multi-producer single-consumer completion queue. So each system's writes
 * happen-before the start of every system that waits for it, the end of a phase
 * happens-before its sync point, and the sync point happens-before the next phase's jobs.
 *
 * <p><b>Idle strategy:</b> a worker with no job spins with {@link Thread#onSpinWait} for
 * {@value #SPINS} polls (10 to 100 us, by the CPU's pause latency: long enough to catch the
 * next system's jobs inside a tick), then yields {@value #YIELDS} times, then parks with
 * {@link LockSupport#park}. It parks only after publishing a parked flag and re-checking
 * the queue; the caller, after queueing jobs, issues a full fence and unparks parked
 * workers (one per job), so a wake-up is never lost. The caller waits for completions the
 * same way, and a worker that returns a job unparks it if it is parked. Between ticks every
 * thread ends up parked, so an idle engine burns no CPU.
 *
 * <p>Nothing is allocated per run once the jobs, queues and chunk lists have grown to the
 * schedule's size (they grow only when the world gains chunks).
 */
public final class ParallelExecutor implements ScheduleExecutor {
    /** Jobs per system per worker, at most: enough to even out uneven chunks and noisy cores. */
    public static final int DEFAULT_JOBS_PER_WORKER = 4;
    static final int SPINS = 2_000;
    static final int YIELDS = 20;
    private static final int ACTIVE = 0;
    private static final int PARKED = 1;

    private final ExecutionPlan plan;
    private final World world;
    private final SystemGraph graph;
    private final int workerCount;
    private final int maxJobsPerSystem;
    private final SystemRun[] runs;
    private final MpmcAtomicArrayQueue<Job> jobQueue;
    private final MpscAtomicArrayQueue<Job> doneQueue;
    private final Worker[] workers;
    private final JobContext callerContext;
    private final CommandSync commands = new CommandSync();
    private final PhaseLoop.PhaseRunner phaseRunner = this::runPhaseReportingFailure;
    private final String[] lockReasons;
    private final int[] pending;
    private final int[] ready;

    private volatile boolean aborting;
    private volatile boolean closed;
    private volatile int callerState = ACTIVE;
    private volatile Thread caller;

    // caller-only state
    private boolean running;
    private int readyCount;
    private int systemsLeft;
    private int inFlight;
    private SystemFailedException failure;

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
        this.world = plan.world();
        this.graph = plan.graph();
        this.workerCount = workers;
        this.maxJobsPerSystem = workers * jobsPerWorker;
        int n = plan.size();
        this.runs = new SystemRun[n];
        for (int i = 0; i < n; i++) {
            runs[i] = new SystemRun(i, plan.system(i), maxJobsPerSystem);
        }
        int capacity = Math.max(2, n * maxJobsPerSystem);
        this.jobQueue = new MpmcAtomicArrayQueue<>(capacity);
        this.doneQueue = new MpscAtomicArrayQueue<>(capacity);
        this.callerContext = new JobContext(0, plan);
        this.commands.add(callerContext.buffer());
        this.lockReasons = new String[graph.phases().size()];
        for (int p = 0; p < lockReasons.length; p++) {
            lockReasons[p] = "the scheduled jobs of phase " + graph.phases().get(p);
        }
        this.pending = new int[n];
        this.ready = new int[n];
        this.workers = new Worker[workers - 1];
        for (int w = 1; w < workers; w++) {
            JobContext context = new JobContext(w, plan);
            commands.add(context.buffer());
            Worker worker = new Worker(w, context);
            this.workers[w - 1] = worker;
        }
        for (Worker w : this.workers) {
            w.thread.start();
        }
    }

    @Override
    public void run(SyncPoint syncPoint) {
        PhaseLoop.checkCanRun(closed, running);
        running = true;
        caller = Thread.currentThread();
        try {
            PhaseLoop.run(graph, world, commands, syncPoint, phaseRunner);
        } finally {
            running = false;
        }
    }

    private SystemFailedException runPhaseReportingFailure(int p) {
        runPhase(p);
        SystemFailedException f = failure;
        failure = null;
        return f;
    }

    private void runPhase(int p) {
        int start = graph.phaseStart(p);
        int end = graph.phaseEnd(p);
        systemsLeft = end - start;
        inFlight = 0;
        readyCount = 0;
        for (int s = end - 1; s >= start; s--) {
            pending[s] = graph.predecessorCount(s);
            if (pending[s] == 0) {
                ready[readyCount++] = s; // pushed in reverse, so the earliest is popped first
            }
        }
        world.storage().lockStructure(lockReasons[p]);
        try {
            coordinate(p);
        } finally {
            if (inFlight > 0) { // only after an unexpected error in the coordinator itself
                aborting = true;
                drain();
            }
            aborting = false;
            world.storage().unlockStructure();
        }
    }

    private void coordinate(int phase) {
        int idle = 0;
        while ((systemsLeft > 0 && failure == null) || inFlight > 0) {
            if (readyCount > 0 && failure == null) {
                dispatch(ready[--readyCount], phase);
                idle = 0;
                continue;
            }
            Job done = doneQueue.poll();
            if (done != null) {
                inFlight--;
                complete(done);
                idle = 0;
                continue;
            }
            Job job = jobQueue.poll();
            if (job != null) {
                if (failure == null) {
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

    private int callerIdle(int idle) {
        if (idle < SPINS) {
            Thread.onSpinWait();
            return idle + 1;
        }
        if (idle < SPINS + YIELDS) {
            Thread.yield();
            return idle + 1;
        }
        callerState = PARKED;
        if (doneQueue.isEmpty() && jobQueue.isEmpty()) {
            LockSupport.park(this);
        }
        callerState = ACTIVE;
        return 0;
    }

    private void dispatch(int s, int phase) {
        SystemRun r = runs[s];
        if (r.exclusive || r.system.declaration().syncBefore()) {
            // Every earlier system of the phase has finished and no later one has started
            // (the graph orders them all around this one), so no job runs now.
            assert inFlight == 0 : "sync point before '" + r.name + "' reached beside running jobs";
            PhaseLoop.applyUnlocked(world, commands, lockReasons[phase]);
        }
        if (r.exclusive) {
            assert inFlight == 0 : "exclusive system '" + r.name + "' started beside running jobs";
            Job job = r.whole();
            world.storage().unlockStructure();
            try {
                callerContext.runExclusive(r.system, r.position, world);
            } catch (Throwable t) {
                job.fail(t, -1, 0);
            } finally {
                world.storage().lockStructure(lockReasons[phase]);
            }
            complete(job);
            return;
        }
        r.collect();
        if (r.rows < r.minBatchRows) {
            Job job = r.whole();
            callerContext.run(job);
            complete(job);
            return;
        }
        int n = r.split(maxJobsPerSystem);
        inFlight += n;
        Job[] jobs = r.jobs;
        for (int k = 0; k < n; k++) {
            if (!jobQueue.offer(jobs[k])) {
                throw new IllegalStateException("job queue full: sized for every job of every system, so this is "
                        + "a bug in the executor");
            }
        }
        wakeWorkers(n);
    }

    private void complete(Job job) {
        SystemRun r = job.run;
        if (job.failure != null) {
            SystemFailedException f = r.failureOf(job);
            if (failure == null) {
                failure = f;
                aborting = true;
            } else {
                failure.addSuppressed(f);
            }
        }
        if (--r.jobsLeft == 0) {
            systemsLeft--;
            if (failure == null) {
                int[] next = graph.successors(r.position);
                for (int i = 0; i < next.length; i++) {
                    if (--pending[next[i]] == 0) {
                        ready[readyCount++] = next[i];
                    }
                }
            }
        }
    }

    /** Waits, with jobs skipped, until every job handed out has come back. */
    private void drain() {
        while (inFlight > 0) {
            Job j = doneQueue.poll();
            if (j == null) {
                j = jobQueue.poll();
            }
            if (j != null) {
                inFlight--;
            } else {
                Thread.onSpinWait();
            }
        }
        readyCount = 0;
    }

    private void wakeWorkers(int jobs) {
        VarHandle.fullFence(); // the jobs are in the queue before we read who is parked
        int woken = 0;
        for (Worker w : workers) {
            if (woken >= jobs) {
                return;
            }
            if (w.state == PARKED) {
                LockSupport.unpark(w.thread);
                woken++;
            }
        }
    }

    private void wakeCaller() {
        VarHandle.fullFence(); // the completion is in the queue before we read whether the caller parked
        if (callerState == PARKED) {
            LockSupport.unpark(caller);
        }
    }

    @Override
    public void observe(JobObserver observer) {
        if (running) {
            throw new IllegalStateException("set the job observer between runs");
        }
        callerContext.observer = observer;
        for (Worker w : workers) {
            w.context.observer = observer;
        }
    }

    @Override
    public PlaybackTotals commandTotals() {
        return commands.totals();
    }

    @Override
    public int workerCount() {
        return workerCount;
    }

    @Override
    public ExecutionPlan plan() {
        return plan;
    }

    /** Stops the workers (each finishes its current job) and joins them. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Worker w : workers) {
            LockSupport.unpark(w.thread);
        }
        boolean interrupted = false;
        for (Worker w : workers) {
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

    /** A worker thread's loop: take a job, run it, hand it back; idle as the class Javadoc says. */
    private final class Worker implements Runnable {
        final Thread thread;
        final JobContext context;
        volatile int state = ACTIVE;

        Worker(int id, JobContext context) {
            this.context = context;
            this.thread = new Thread(this, "orrery-worker-" + id);
            thread.setDaemon(true);
        }

        @Override
        public void run() {
            int idle = 0;
            while (!closed) {
                Job job = jobQueue.poll();
                if (job != null) {
                    if (!aborting) {
                        context.run(job);
                    }
                    doneQueue.offer(job);
                    wakeCaller();
                    idle = 0;
                } else if (idle < SPINS) {
                    Thread.onSpinWait();
                    idle++;
                } else if (idle < SPINS + YIELDS) {
                    Thread.yield();
                    idle++;
                } else {
                    state = PARKED;
                    if (jobQueue.isEmpty() && !closed) {
                        LockSupport.park(this);
                    }
                    state = ACTIVE;
                    idle = 0;
                }
            }
        }
    }
}
