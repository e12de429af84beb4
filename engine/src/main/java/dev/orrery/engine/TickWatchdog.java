package dev.orrery.engine;

import dev.orrery.ecs.World;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.engine.jfr.TickOverrunEvent;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.executor.ExecutionPlan;
import dev.orrery.scheduler.executor.OwnerActivity;
import dev.orrery.scheduler.graph.SystemGraph;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches ticks from a thread of its own and reports a tick still running after
 * {@code limitNanos} (a multiple of the step) once, naming the system and job still running
 * (the one running longest), as a {@link TickOverrunEvent} and to a
 * {@link Simulation.OverrunListener}. The tick is not interrupted.
 *
 * <p>It watches the whole tick, the end-of-tick hook included ({@link #endOfTickStarted}), so a
 * tool attached there that runs long is reported too, by name. Outside jobs it names what the
 * tick thread is in, from the executor's {@link OwnerActivity}: a system's or a phase's run
 * condition, a range system's count, a sync point, an event merge, a caller's {@code SyncPoint}
 * callback, and the simulation's own steps that {@link TickSteps} names there (taking the
 * tick's inputs from the input source, the state hash, the hash listener, handing the hash to
 * the source, a skipped tick's listeners, and between ticks handing the source a new tick
 * thread, watched as a span of its own: {@link #betweenTicksStarted}); and the observer hook
 * running there from the world ({@code EcsInternals.firingHook}). A state machine's on-exit and
 * on-enter systems run as the jobs of their own phases, with those phases' sync points, so they
 * are named like any other. Every label was built before the tick, so the tick thread only
 * publishes an index and a time, and this thread reads them when it reports.
 *
 * <p><b>Threading:</b> {@link #tickStarted}, {@link #betweenTicksStarted},
 * {@link #endOfTickStarted} and {@link #tickEnded} are called by the tick thread; {@link #jobStarted}/{@link #jobRan} by each worker for its own slot; the tick
 * thread publishes its steps outside jobs on the {@link OwnerActivity} (release stores); the watchdog
 * thread reads them all. Per-worker slots are atomic arrays (a start time of 0 means idle);
 * a report may pair a job's start with its neighbour's system when they race, which only
 * blurs a report about a tick that is already late. A job's end clears its slot only if the
 * slot still holds that job's start (one compare-and-set, in place of a release store): a
 * worker the executor abandoned at a run's deadline shares its id with its replacement, and
 * its job, returning late, must not erase the replacement's. Until the replacement's first job,
 * the slot still holds the abandoned job's start, from before the watched span: a report
 * names only jobs that started in the span.
 */
final class TickWatchdog implements JobObserver {
    private final long limitNanos;
    private final String[] names;
    /** What a job's range counts, per system: "chunks", "indices" (a range system) or "slots" (a level system). */
    private final String[] units;
    /**
     * Per system: the key of its phase's fixed step, or {@code null} outside a fixed-step phase
     * (a job there is named with its sub-step, read from the clock when reporting).
     */
    private final ResourceKey<FixedTimestep>[] fixedSteps;
    /** Per system: the name of its phase. */
    private final String[] phases;
    private final Resources resources;
    private final Simulation.OverrunListener listener;
    private final OwnerActivity activity;
    private final World world;
    private final AtomicLongArray jobStart;
    private final AtomicIntegerArray jobSystem;
    private final AtomicIntegerArray jobFrom;
    private final AtomicIntegerArray jobTo;
    private final Thread thread;
    private volatile long tickStart;
    /** When the end-of-tick hook of the watched tick started, or 0 while it has not. */
    private volatile long hookStart;
    private volatile long tick;
    /**
     * How many spans were watched (ticks, and the tick thread's steps between ticks), so that
     * each is reported at most once: a step between ticks is reported under the number of the
     * tick after it, and that tick may overrun too. Written by the tick thread before
     * {@link #tickStart}.
     */
    private volatile long span;
    private volatile boolean closed;

    /**
     * Watches ticks of {@code plan}'s executor ({@code workers} threads), whose owner-thread steps
     * (the run's and the tick's own) {@code activity} publishes (this turns it on until
     * {@link #close}); the observer hooks it names are those of the plan's world.
     */
    TickWatchdog(long limitNanos, ExecutionPlan plan, int workers, Simulation.OverrunListener listener,
            OwnerActivity activity) {
        this.limitNanos = limitNanos;
        this.listener = listener;
        this.activity = activity;
        this.world = plan.world();
        this.names = new String[plan.size()];
        this.units = new String[plan.size()];
        this.resources = plan.resources();
        @SuppressWarnings("unchecked")
        ResourceKey<FixedTimestep>[] steps = (ResourceKey<FixedTimestep>[]) new ResourceKey<?>[plan.size()];
        this.fixedSteps = steps;
        this.phases = new String[plan.size()];
        SystemGraph graph = plan.graph();
        for (int p = 0; p < graph.phases().size(); p++) {
            for (int i = graph.phaseStart(p); i < graph.phaseEnd(p); i++) {
                fixedSteps[i] = graph.phaseRule(p).fixedStep();
                phases[i] = graph.phases().get(p).name();
            }
        }
        for (int i = 0; i < names.length; i++) {
            names[i] = plan.system(i).name();
            units[i] = plan.system(i).leveled() ? "slots" : plan.system(i).ranged() ? "indices" : "chunks";
        }
        this.jobStart = new AtomicLongArray(workers);
        this.jobSystem = new AtomicIntegerArray(workers);
        this.jobFrom = new AtomicIntegerArray(workers);
        this.jobTo = new AtomicIntegerArray(workers);
        activity.watch(true);
        this.thread = new Thread(this::watch, "orrery-tick-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    /** Tick thread: tick {@code t} starts; watched until {@link #tickEnded}. */
    void tickStarted(long t, long startNanos) {
        hookStart = 0;
        tick = t;
        span = span + 1; // one writer, the tick thread
        tickStart = startNanos;
    }

    /**
     * Tick thread: a step the simulation runs between ticks on the tick thread (handing the
     * input source a new tick thread) starts, before tick {@code next}; watched as a span of
     * its own until {@link #tickEnded}, and reported under {@code next}'s number.
     */
    void betweenTicksStarted(long next, long startNanos) {
        tickStarted(next, startNanos);
    }

    /** The tick's systems are done and its end-of-tick hook starts (a tool such as the explorer). */
    void endOfTickStarted(long startNanos) {
        hookStart = startNanos;
    }

    /** Tick thread: the watched tick (or step between ticks) has ended. */
    void tickEnded() {
        tickStart = 0;
    }

    @Override
    public void jobStarted(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos) {
        jobSystem.setPlain(workerId, systemIndex);
        jobFrom.setPlain(workerId, fromChunk);
        jobTo.setPlain(workerId, toChunk);
        jobStart.setRelease(workerId, startNanos);
    }

    @Override
    public void jobRan(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos, long endNanos) {
        // Only the job's own mark: a worker abandoned at a run's deadline keeps its id, and when
        // its job returns at last its replacement may be in a job of its own in this slot.
        jobStart.compareAndSet(workerId, startNanos, 0);
    }

    private void watch() {
        long reported = 0;
        long poll = Math.max(1_000_000L, Math.min(100_000_000L, limitNanos / 4));
        while (!closed) {
            LockSupport.parkNanos(poll);
            long start = tickStart;
            long s = span; // written before tickStart: at least the span of that start
            long t = tick;
            if (start != 0 && s != reported) {
                long elapsed = System.nanoTime() - start;
                if (elapsed > limitNanos && tickStart == start) {
                    reported = s;
                    report(t, elapsed, start);
                }
            }
        }
    }

    /** Reports the span that started at {@code spanStart}; a job slot older than that is an abandoned job's. */
    private void report(long t, long elapsed, long spanStart) {
        int worker = -1;
        long oldest = Long.MAX_VALUE;
        for (int w = 0; w < jobStart.length(); w++) {
            long s = jobStart.getAcquire(w);
            if (s != 0 && s >= spanStart && s < oldest) { // jobs of this span only: see the class's threading note
                oldest = s;
                worker = w;
            }
        }
        String system = "";
        String job = "no job running: the tick thread is between its named steps (going from one to the next, "
                + "or changing a state machine's value; no user code runs there)";
        long hook = hookStart;
        long stepStart = activity.startedAt(); // the run's steps and the tick's own (inputs, hash, listeners)
        String step = stepStart != 0 ? activity.label() : null;
        String observer = EcsInternals.firingHook(world);
        if (hook != 0) {
            job = "no job running: the end-of-tick hook (Simulation.atEndOfTick, where a tool such as the explorer "
                    + "reads the world) has run for " + (System.nanoTime() - hook) / 1_000_000 + " ms"
                    + (observer == null ? "" : ", in " + observer);
        } else if (step != null && (worker < 0 || stepStart <= oldest)) { // the tick thread's step runs longest
            job = (worker < 0 ? "no job running: " : "") + "the tick thread is in "
                    + (observer == null ? "" : observer + " at ") + step + " for "
                    + (System.nanoTime() - stepStart) / 1_000_000 + " ms";
        } else if (worker >= 0) {
            int index = jobSystem.getPlain(worker);
            system = names[index];
            int from = jobFrom.getPlain(worker);
            int to = jobTo.getPlain(worker);
            job = "worker " + worker + (from < 0 ? " (exclusive)" : " " + units[index] + " [" + from + ", " + to + ")")
                    + " for " + (System.nanoTime() - oldest) / 1_000_000 + " ms" + subStep(index)
                    + (from < 0 && observer != null ? ", in " + observer : ""); // a hook its direct change fired
        }
        TickOverrunEvent.emit(t, elapsed, system, job);
        if (listener != null) {
            try {
                listener.overrun(t, elapsed, system, job);
            } catch (RuntimeException e) {
                // a failing listener must not stop the watchdog
            }
        }
    }

    /**
     * For a system of a fixed-step phase, which of the tick's sub-steps its job runs in
     * ({@code ", in sub-step 2 of fixed-step phase Physics"}); empty elsewhere. Read from the
     * clock without a hand-off (the tick thread writes it between sub-steps): a report racing
     * a sub-step's start may name its neighbour, which only blurs a report of a late tick.
     */
    private String subStep(int system) {
        if (fixedSteps[system] == null) {
            return "";
        }
        Object clock = resources.value(fixedSteps[system]);
        int i = clock instanceof FixedTimestep f ? f.stepInRun() : -1;
        return i < 0 ? "" : ", in sub-step " + (i + 1) + " of fixed-step phase " + phases[system];
    }

    void close() {
        activity.watch(false);
        closed = true;
        LockSupport.unpark(thread);
    }
}
