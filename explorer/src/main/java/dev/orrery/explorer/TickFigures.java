package dev.orrery.explorer;

import dev.orrery.scheduler.JobObserver;
import java.util.Arrays;

/**
 * The per-tick figures the charts, the stream and the summary are made from: a preallocated
 * ring of the last {@link #CAPACITY} ticks (number, tick time, end time, entities, the
 * explorer's own time at the end of the tick, and, while job timing is on, each system's
 * time, the sync points' time and the commands they played back), written by the tick
 * thread, read by HTTP threads. It is also the job observer that times the systems while a
 * client is attached: each worker adds its jobs' times to a row of its own, and the tick
 * thread folds the rows into the tick's slot.
 *
 * <p><b>Threading:</b> {@link #record} on the tick thread, at the end of a tick; {@link #jobRan}
 * on each worker for its own row (rows are folded after the executor's run, which every job
 * finished before); {@link #syncPointApplied} on the tick thread; {@link #summarize} and
 * {@link #rows} on any thread. A slot is written before the volatile {@code published} count
 * that covers it; a reader reads the count, the slots below it, then the count again, and
 * drops the slots the writer may have reused meanwhile. A job the executor abandoned at a
 * run's deadline reports under its replacement's worker id when it returns, unsynchronised with
 * that row's adds and folds: this can only lose, or add to a later tick (a stuck job's whole
 * time, or the row's sum twice), one system's time in one tick, never a negative time.
 */
final class TickFigures implements JobObserver {
    /** Ticks kept: over a minute at 60 ticks a second. */
    static final int CAPACITY = 4096;
    /** Most ticks one {@link #rows} answer carries (the newest). */
    static final int MAX_ROWS = CAPACITY - 64;
    private static final int MASK = CAPACITY - 1;
    /** Longs between two workers' rows, so that rows do not share a cache line. */
    private static final int PAD = 8;
    private static final long SECOND = 1_000_000_000L;

    private final int systems;
    private final int stride;
    private final long[] byWorker;
    private final long[] ticks = new long[CAPACITY];
    private final long[] nanos = new long[CAPACITY];
    private final long[] ends = new long[CAPACITY];
    private final int[] entities = new int[CAPACITY];
    private final long[] explorerNanos = new long[CAPACITY];
    private final boolean[] timed = new boolean[CAPACITY];
    private final long[] syncNanos = new long[CAPACITY];
    private final long[] commands = new long[CAPACITY];
    private final long[] systemNanos;
    /** Epoch milliseconds minus nanoTime in milliseconds, to turn end times into wall-clock times. */
    private final double epochOffsetMillis;
    private long syncAcc;
    private long commandsAcc;
    private volatile long published;

    TickFigures(int systems, int workers) {
        this.systems = systems;
        this.stride = systems + PAD;
        this.byWorker = new long[Math.max(1, workers) * stride];
        this.systemNanos = new long[CAPACITY * Math.max(1, systems)];
        this.epochOffsetMillis = System.currentTimeMillis() - System.nanoTime() / 1e6;
    }

    @Override
    public void jobRan(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos, long endNanos) {
        byWorker[workerId * stride + systemIndex] += endNanos - startNanos;
    }

    @Override
    public void syncPointApplied(long commandCount, long moves, long startNanos, long endNanos) {
        syncAcc += endNanos - startNanos;
        commandsAcc += commandCount;
    }

    /**
     * Records one tick; with {@code withSystems}, folds the workers' system times and the sync
     * points' figures into it. Tick thread; allocates nothing.
     */
    void record(long tick, long tickNanos, long endNanos, int entityCount, long ownNanos, boolean withSystems) {
        long seq = published;
        int slot = (int) (seq & MASK);
        ticks[slot] = tick;
        nanos[slot] = tickNanos;
        ends[slot] = endNanos;
        entities[slot] = entityCount;
        explorerNanos[slot] = ownNanos;
        timed[slot] = withSystems;
        syncNanos[slot] = syncAcc;
        commands[slot] = commandsAcc;
        syncAcc = 0;
        commandsAcc = 0;
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

    /** The number of the last tick recorded, or -1 before one. */
    long lastTick() {
        long p = published;
        return p == 0 ? -1 : ticks[(int) ((p - 1) & MASK)];
    }

    /** Ticks recorded so far (the sequence number the next tick gets). */
    long recorded() {
        return published;
    }

    /** The wall-clock time, in seconds since the epoch, of a {@link System#nanoTime()} value. */
    double epochSeconds(long nanoTime) {
        return (nanoTime / 1e6 + epochOffsetMillis) / 1e3;
    }

    /**
     * Writes the figures of the ticks that ended before {@code now}: the last tick and its
     * entities (however long ago it ended: a paused simulation, or a replay that has finished,
     * still shows where it stands); ticks per second over the last second; tick-time p50, p99 and max in
     * milliseconds over the last ten seconds; each system's mean milliseconds per tick over
     * the ticks of those ten seconds that were timed (null when none was), and the sync
     * points' and the explorer's mean. Only ticks up to {@code upToTick} count (the tick a state
     * written beside these figures was read after, so that the figures' {@code tick} is never
     * past it; {@code Long.MAX_VALUE}: all): a run goes on while the answer is written.
     */
    void summarize(long now, long upToTick, Json json) {
        long window = 10 * SECOND;
        long p = published;
        long oldest = Math.max(0, p - (CAPACITY - 64));
        while (p > oldest && ticks[(int) ((p - 1) & MASK)] > upToTick) {
            p--; // ended after the state was read: left to the next answer
        }
        long from = Math.max(0, p - (CAPACITY - 64));
        int n = (int) (p - from);
        long[] times = new long[n];
        double[] sys = new double[systems];
        double sync = 0;
        double own = 0;
        int count = 0;
        int timedCount = 0;
        int lastSecond = 0;
        long lastTick = p == 0 ? -1 : ticks[(int) ((p - 1) & MASK)];
        int lastEntities = p == 0 ? 0 : entities[(int) ((p - 1) & MASK)];
        boolean inWindow = false;
        long firstEndInSecond = 0;
        long lastEnd = 0;
        for (long seq = p - 1; seq >= from; seq--) {
            int slot = (int) (seq & MASK);
            long end = ends[slot];
            if (now - end > window) {
                break;
            }
            if (!inWindow) {
                inWindow = true;
                lastEnd = end;
            }
            if (now - end <= SECOND) {
                lastSecond++;
                firstEndInSecond = end;
            }
            times[count++] = nanos[slot];
            own += explorerNanos[slot];
            if (timed[slot]) {
                timedCount++;
                sync += syncNanos[slot];
                for (int s = 0; s < systems; s++) {
                    sys[s] += systemNanos[slot * systems + s];
                }
            }
        }
        if (published - CAPACITY > p - count) {
            count = 0; // the writer lapped this read; report an empty window rather than mixed slots
            timedCount = 0;
            lastSecond = 0;
        }
        Arrays.sort(times, 0, count);
        json.field("tick", lastTick).field("entities", lastEntities).field("ticks", count)
                .field("tps", lastSecond > 1 ? (lastSecond - 1) * 1e9 / Math.max(1, lastEnd - firstEndInSecond) : 0)
                .field("p50", millis(percentile(times, count, 0.50))).field("p99", millis(percentile(times, count, 0.99)))
                .field("max", millis(count == 0 ? 0 : times[count - 1]))
                .field("explorerMs", count == 0 ? 0 : millis((long) (own / count)))
                .field("windowSeconds", 10).key("systems");
        if (timedCount == 0) {
            json.nullValue().key("syncMs").nullValue();
        } else {
            json.beginArray();
            for (double v : sys) {
                json.value(v / timedCount / 1e6);
            }
            json.endArray().field("syncMs", sync / timedCount / 1e6);
        }
    }

    /**
     * Writes the ticks after sequence number {@code after} (-1: all kept), newest
     * {@link #MAX_ROWS} at most, as columns: {@code seq} of the last, {@code tick}, {@code t}
     * (wall-clock seconds), {@code ms}, {@code entities}, {@code explorerMs}, and per tick
     * {@code syncMs}, {@code commands} and each system's {@code systems[s]} (null for a tick
     * that was not timed).
     *
     * @return the sequence number of the last tick written ({@code after} when none)
     */
    long rows(long after, Json json) {
        long p = published;
        // after + 1 saturates: the largest long wrapped to the most negative, and so to every kept tick
        long from = Math.max(Math.max(0, after == Long.MAX_VALUE ? after : after + 1), p - MAX_ROWS);
        int n = (int) Math.max(0, p - from);
        long[] tk = new long[n];
        long[] ns = new long[n];
        long[] en = new long[n];
        int[] ent = new int[n];
        long[] own = new long[n];
        boolean[] tm = new boolean[n];
        long[] sy = new long[n];
        long[] cm = new long[n];
        long[] sn = new long[n * Math.max(1, systems)];
        for (int i = 0; i < n; i++) {
            int slot = (int) ((from + i) & MASK);
            tk[i] = ticks[slot];
            ns[i] = nanos[slot];
            en[i] = ends[slot];
            ent[i] = entities[slot];
            own[i] = explorerNanos[slot];
            tm[i] = timed[slot];
            sy[i] = syncNanos[slot];
            cm[i] = commands[slot];
            if (tm[i]) {
                System.arraycopy(systemNanos, slot * systems, sn, i * systems, systems);
            }
        }
        long safeFrom = published - CAPACITY + 1; // slots below this may have been reused while copying
        int skip = (int) Math.max(0, Math.min(n, safeFrom - from));
        json.field("seq", from + n - 1).key("tick").beginArray();
        for (int i = skip; i < n; i++) {
            json.value(tk[i]);
        }
        json.endArray().key("t").beginArray();
        for (int i = skip; i < n; i++) {
            json.value(Math.round(epochSeconds(en[i]) * 1e4) / 1e4);
        }
        json.endArray().key("ms").beginArray();
        for (int i = skip; i < n; i++) {
            json.millis(ns[i]);
        }
        json.endArray().key("entities").beginArray();
        for (int i = skip; i < n; i++) {
            json.value(ent[i]);
        }
        json.endArray().key("explorerMs").beginArray();
        for (int i = skip; i < n; i++) {
            json.millis(own[i]);
        }
        json.endArray().key("syncMs").beginArray();
        for (int i = skip; i < n; i++) {
            if (tm[i]) {
                json.millis(sy[i]);
            } else {
                json.nullValue();
            }
        }
        json.endArray().key("commands").beginArray();
        for (int i = skip; i < n; i++) {
            if (tm[i]) {
                json.value(cm[i]);
            } else {
                json.nullValue();
            }
        }
        json.endArray().key("systems").beginArray();
        for (int s = 0; s < systems; s++) {
            json.beginArray();
            for (int i = skip; i < n; i++) {
                if (tm[i]) {
                    json.millis(sn[i * systems + s]);
                } else {
                    json.nullValue();
                }
            }
            json.endArray();
        }
        json.endArray();
        return from + n - 1;
    }

    /**
     * Each system's mean and largest milliseconds per timed tick over the last
     * {@code windowNanos} before {@code now}, and how many ticks were timed: {@code [s][0]}
     * mean, {@code [s][1]} max; the last row holds the count in {@code [0]}.
     */
    double[][] systemTimes(long now, long windowNanos) {
        double[][] out = new double[systems + 1][2];
        long p = published;
        long from = Math.max(0, p - (CAPACITY - 64));
        int timedCount = 0;
        for (long seq = p - 1; seq >= from; seq--) {
            int slot = (int) (seq & MASK);
            if (now - ends[slot] > windowNanos) {
                break;
            }
            if (!timed[slot]) {
                continue;
            }
            timedCount++;
            for (int s = 0; s < systems; s++) {
                double ms = systemNanos[slot * systems + s] / 1e6;
                out[s][0] += ms;
                out[s][1] = Math.max(out[s][1], ms);
            }
        }
        for (int s = 0; s < systems; s++) {
            out[s][0] = timedCount == 0 ? 0 : out[s][0] / timedCount;
        }
        out[systems][0] = timedCount;
        return out;
    }

    /** Ticks that ended in the last second before {@code now}. */
    int ticksInLastSecond(long now) {
        long p = published;
        long from = Math.max(0, p - (CAPACITY - 64));
        int n = 0;
        for (long seq = p - 1; seq >= from; seq--) {
            if (now - ends[(int) (seq & MASK)] > SECOND) {
                break;
            }
            n++;
        }
        return n;
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
