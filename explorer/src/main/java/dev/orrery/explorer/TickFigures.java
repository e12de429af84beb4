package dev.orrery.explorer;

import dev.orrery.scheduler.JobObserver;
import java.util.Arrays;

/**
 * The per-tick figures the stream and the summary are made from: a preallocated ring of the
 * last {@link #CAPACITY} ticks (number, tick time, end time, entities, and each system's time
 * when job timing is on), written by the tick thread, read by HTTP threads. It is also the job
 * observer that times the systems while a client is attached: each worker adds its jobs'
 * times to a row of its own, and the tick thread folds the rows into the tick's slot.
 *
 * <p><b>Threading:</b> {@link #record} on the tick thread, at the end of a tick; {@link #jobRan}
 * on each worker for its own row (rows are folded after the executor's run, which every job
 * finished before); {@link #summarize} on any thread. A slot is written before the volatile
 * {@code published} count that covers it; a reader reads the count, the slots below it, then
 * the count again, and drops the slots the writer may have reused meanwhile.
 */
final class TickFigures implements JobObserver {
    /** Ticks kept: over a minute at 60 ticks a second. */
    static final int CAPACITY = 4096;
    private static final int MASK = CAPACITY - 1;
    /** Longs between two workers' rows, so that rows do not share a cache line. */
    private static final int PAD = 8;

    private final int systems;
    private final int stride;
    private final long[] byWorker;
    private final long[] ticks = new long[CAPACITY];
    private final long[] nanos = new long[CAPACITY];
    private final long[] ends = new long[CAPACITY];
    private final int[] entities = new int[CAPACITY];
    private final boolean[] timed = new boolean[CAPACITY];
    private final long[] systemNanos;
    private volatile long published;

    TickFigures(int systems, int workers) {
        this.systems = systems;
        this.stride = systems + PAD;
        this.byWorker = new long[Math.max(1, workers) * stride];
        this.systemNanos = new long[CAPACITY * Math.max(1, systems)];
    }

    @Override
    public void jobRan(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos, long endNanos) {
        byWorker[workerId * stride + systemIndex] += endNanos - startNanos;
    }

    /**
     * Records one tick; with {@code withSystems}, folds the workers' system times into it.
     * Tick thread; allocates nothing.
     */
    void record(long tick, long tickNanos, long endNanos, int entityCount, boolean withSystems) {
        long seq = published;
        int slot = (int) (seq & MASK);
        ticks[slot] = tick;
        nanos[slot] = tickNanos;
        ends[slot] = endNanos;
        entities[slot] = entityCount;
        timed[slot] = withSystems;
        if (withSystems) {
            int base = slot * systems;
            for (int s = 0; s < systems; s++) {
                long sum = 0;
                for (int w = s; w < byWorker.length; w += stride) {
                    sum += byWorker[w];
                    byWorker[w] = 0;
                }
                systemNanos[base + s] = sum;
            }
        }
        published = seq + 1;
    }

    /** Ticks recorded so far. */
    long recorded() {
        return published;
    }

    /**
     * Writes the figures of the ticks that ended in the last {@code windowNanos} before
     * {@code now}: tick, ticks per second, entities, tick-time p50/p99/max in milliseconds and
     * each system's mean milliseconds per tick (null when no tick in the window was timed).
     */
    void summarize(long now, long windowNanos, Json json) {
        long p = published;
        long from = Math.max(0, p - CAPACITY / 2);
        int n = (int) (p - from);
        long[] times = new long[n];
        double[] sys = new double[systems];
        int count = 0;
        int timedCount = 0;
        long lastTick = -1;
        int lastEntities = 0;
        long firstEnd = 0;
        long lastEnd = 0;
        for (long seq = p - 1; seq >= from; seq--) {
            int slot = (int) (seq & MASK);
            long end = ends[slot];
            if (now - end > windowNanos) {
                break;
            }
            if (lastTick < 0) {
                lastTick = ticks[slot];
                lastEntities = entities[slot];
                lastEnd = end;
            }
            firstEnd = end;
            times[count++] = nanos[slot];
            if (timed[slot]) {
                timedCount++;
                for (int s = 0; s < systems; s++) {
                    sys[s] += systemNanos[slot * systems + s];
                }
            }
        }
        if (published - CAPACITY > p - count) {
            count = 0; // the writer lapped this read; report an empty window rather than mixed slots
            timedCount = 0;
        }
        Arrays.sort(times, 0, count);
        json.field("tick", lastTick).field("entities", lastEntities).field("ticks", count)
                .field("tps", count > 1 ? (count - 1) * 1e9 / Math.max(1, lastEnd - firstEnd) : 0)
                .field("p50", millis(percentile(times, count, 0.50))).field("p99", millis(percentile(times, count, 0.99)))
                .field("max", millis(count == 0 ? 0 : times[count - 1])).key("systems");
        if (timedCount == 0) {
            json.value((String) null);
        } else {
            json.beginArray();
            for (double v : sys) {
                json.value(v / timedCount / 1e6);
            }
            json.endArray();
        }
    }

    private static long percentile(long[] sorted, int n, double q) {
        if (n == 0) {
            return 0;
        }
        int i = (int) Math.ceil(q * n) - 1;
        return sorted[Math.max(0, Math.min(n - 1, i))];
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 1e3) / 1e3;
    }
}
