package dev.orrery.bench.host;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.tick.IdleStrategy;
import java.util.Arrays;
import java.util.List;

/**
 * The baselines' driver: one thread per simulation, each paced the way
 * {@code Simulation.run(ticks, hz, listener)} paces its loop ({@link IdleStrategy}, no
 * catch-up after an overrun), recording each tick's lag (start minus due time) and duration
 * while {@link #measure} is on. Written out rather than calling {@code run} because
 * {@code run} reports a tick's duration, not its lag.
 *
 * <p><b>Threading:</b> start, measure and stop from one controlling thread; each loop thread
 * owns its simulation and its sample arrays until {@link #stop} has joined it.
 */
final class PacedLoops {
    private final Thread[] threads;
    private final long[][] lags;
    private final int[] samples;
    private final long[] busy;
    private volatile boolean measuring;
    private volatile boolean stopping;

    /** Starts a loop per simulation at {@code hz}, their first ticks spread over one period. */
    PacedLoops(List<Simulation> sims, double hz, int maxSamplesEach) {
        int n = sims.size();
        long period = (long) (1e9 / hz);
        threads = new Thread[n];
        lags = new long[n][maxSamplesEach];
        samples = new int[n];
        busy = new long[n];
        long start = System.nanoTime() + 20_000_000;
        for (int i = 0; i < n; i++) {
            int me = i;
            Simulation sim = sims.get(i);
            long first = start + period * i / n;
            threads[i] = new Thread(() -> loop(me, sim, first, period), "paced-" + i);
        }
        for (Thread t : threads) {
            t.start(); // Thread.start orders the simulation's building before its first tick on the new thread
        }
    }

    private void loop(int me, Simulation sim, long first, long period) {
        sim.bindTickThread();
        long[] lag = lags[me];
        long next = first;
        while (!stopping) {
            IdleStrategy.idleUntil(next);
            long start = System.nanoTime();
            sim.tick();
            long end = System.nanoTime();
            if (measuring && samples[me] < lag.length) {
                lag[samples[me]++] = start - next;
                busy[me] += end - start;
            }
            next += period;
            if (next - end < 0) {
                next = end;
            }
        }
    }

    /** Turns recording on (after a warm-up) or off. */
    void measure(boolean on) {
        measuring = on;
    }

    /** Stops and joins every loop; their samples may be read afterwards. */
    void stop() throws InterruptedException {
        stopping = true;
        for (Thread t : threads) {
            t.join();
        }
    }

    /** Every recorded lag, sorted (after {@link #stop}). */
    long[] sortedLags() {
        int total = 0;
        for (int s : samples) {
            total += s;
        }
        long[] all = new long[total];
        int at = 0;
        for (int i = 0; i < lags.length; i++) {
            System.arraycopy(lags[i], 0, all, at, samples[i]);
            at += samples[i];
        }
        Arrays.sort(all);
        return all;
    }

    /** Time spent ticking while measuring, all loops together (after {@link #stop}). */
    long busyNanos() {
        long sum = 0;
        for (long b : busy) {
            sum += b;
        }
        return sum;
    }

    /** The value at quantile {@code q} of sorted {@code values} (0 when empty). */
    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return Math.max(0, sorted[Math.max(0, rank - 1)]);
    }
}
