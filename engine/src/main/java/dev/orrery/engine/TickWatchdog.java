package dev.orrery.engine;

import dev.orrery.engine.jfr.TickOverrunEvent;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.executor.ExecutionPlan;
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
 * tool attached there that runs long is reported too, by name.
 *
 * <p><b>Threading:</b> {@link #tickStarted}, {@link #endOfTickStarted} and {@link #tickEnded}
 * are called by the tick thread; {@link #jobStarted}/{@link #jobRan} by each worker for its own slot; the watchdog
 * thread reads them all. Per-worker slots are atomic arrays (a start time of 0 means idle);
 * a report may pair a job's start with its neighbour's system when they race, which only
 * blurs a report about a tick that is already late.
 */
final class TickWatchdog implements JobObserver {
    private final long limitNanos;
    private final String[] names;
    /** What a job's range counts, per system: "chunks", "indices" (a range system) or "slots" (a level system). */
    private final String[] units;
    private final Simulation.OverrunListener listener;
    private final AtomicLongArray jobStart;
    private final AtomicIntegerArray jobSystem;
    private final AtomicIntegerArray jobFrom;
    private final AtomicIntegerArray jobTo;
    private final Thread thread;
    private volatile long tickStart;
    /** When the end-of-tick hook of the watched tick started, or 0 while it has not. */
    private volatile long hookStart;
    private volatile long tick;
    private volatile boolean closed;

    TickWatchdog(long limitNanos, ExecutionPlan plan, int workers, Simulation.OverrunListener listener) {
        this.limitNanos = limitNanos;
        this.listener = listener;
        this.names = new String[plan.size()];
        this.units = new String[plan.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = plan.system(i).name();
            units[i] = plan.system(i).leveled() ? "slots" : plan.system(i).ranged() ? "indices" : "chunks";
        }
        this.jobStart = new AtomicLongArray(workers);
        this.jobSystem = new AtomicIntegerArray(workers);
        this.jobFrom = new AtomicIntegerArray(workers);
        this.jobTo = new AtomicIntegerArray(workers);
        this.thread = new Thread(this::watch, "orrery-tick-watchdog");
        thread.setDaemon(true);
        thread.start();
    }

    void tickStarted(long t, long startNanos) {
        hookStart = 0;
        tick = t;
        tickStart = startNanos;
    }

    /** The tick's systems are done and its end-of-tick hook starts (a tool such as the explorer). */
    void endOfTickStarted(long startNanos) {
        hookStart = startNanos;
    }

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
        jobStart.setRelease(workerId, 0);
    }

    private void watch() {
        long reported = Long.MIN_VALUE;
        long poll = Math.max(1_000_000L, Math.min(100_000_000L, limitNanos / 4));
        while (!closed) {
            LockSupport.parkNanos(poll);
            long start = tickStart;
            long t = tick;
            if (start != 0 && t != reported) {
                long elapsed = System.nanoTime() - start;
                if (elapsed > limitNanos && tickStart == start) {
                    reported = t;
                    report(t, elapsed);
                }
            }
        }
    }

    private void report(long t, long elapsed) {
        int worker = -1;
        long oldest = Long.MAX_VALUE;
        for (int w = 0; w < jobStart.length(); w++) {
            long s = jobStart.getAcquire(w);
            if (s != 0 && s < oldest) {
                oldest = s;
                worker = w;
            }
        }
        String system = "";
        String job = "no job running: the tick is between jobs (taking its inputs, testing a run condition, "
                + "applying a sync point's commands and running its observer hooks, a state transition, or hashing)";
        long hook = hookStart;
        if (hook != 0) {
            job = "no job running: the end-of-tick hook (Simulation.atEndOfTick, where a tool such as the explorer "
                    + "reads the world) has run for " + (System.nanoTime() - hook) / 1_000_000 + " ms";
        } else if (worker >= 0) {
            int index = jobSystem.getPlain(worker);
            system = names[index];
            int from = jobFrom.getPlain(worker);
            int to = jobTo.getPlain(worker);
            job = "worker " + worker + (from < 0 ? " (exclusive)" : " " + units[index] + " [" + from + ", " + to + ")")
                    + " for " + (System.nanoTime() - oldest) / 1_000_000 + " ms";
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

    void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
