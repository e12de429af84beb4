package dev.orrery.engine;

import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.executor.ExecutionPlan;
import dev.orrery.scheduler.graph.SystemGraph;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Records a few ticks as a Chrome trace (JSON "trace event" format, opens in Perfetto or
 * {@code chrome://tracing}): one track per worker with a slice per job (named by its system,
 * with its chunk range, or index range for a range system), and a track of tick slices.
 * Events go into preallocated per-worker arrays; once an array is full, further events of
 * that worker are counted as dropped, so tracing never allocates on the hot path and never
 * grows without bound.
 *
 * <p><b>Threading:</b> {@link #jobStarted} and {@link #jobRan} are called by each worker for its
 * own jobs (per-worker arrays); {@link #tickRan} and {@link #write} by the tick thread. Call
 * {@link #write} after the traced ticks have finished: the executor's completion hand-off
 * makes every worker's events visible to the tick thread by then. A worker the executor
 * abandoned at a run's deadline shares its id with its replacement, so a worker's arrays can
 * have two writers: a job's end is recorded only if that worker id's last job start was its
 * own (a job returning after its replacement started jobs is left out, so that it does not
 * overlap them on the track), each event claims its own index with one atomic increment, and
 * its end, written last with a release store, marks it complete for {@link #write}.
 */
public final class ChromeTrace implements JobObserver {
    /** Longs between two workers' slots, so that they do not share a cache line. */
    private static final int PAD = 8;
    private static final int START = 0;
    private static final int COUNT = 1;
    /** Release store and acquire load of an event's end: written last, it marks the event complete. */
    private static final VarHandle END = MethodHandles.arrayElementVarHandle(long[].class);
    private final SystemGraph graph;
    private final boolean[] ranged;
    private final int capacity;
    private final long[][] starts;
    private final long[][] ends;
    private final int[][] systems;
    private final int[][] froms;
    private final int[][] tos;
    /** Per worker, {@link #PAD} longs apart: the start of its last job ({@link #START}, 0 before one) and its events claimed ({@link #COUNT}). */
    private final AtomicLongArray slots;
    private final int workers;
    private final long[] tickStarts;
    private final long[] tickEnds;
    private final long[] tickNumbers;
    private int ticks;

    /** A trace for {@code workers} workers of a schedule's plan, keeping up to {@code eventsPerWorker} jobs each. */
    ChromeTrace(ExecutionPlan plan, int workers, int eventsPerWorker) {
        this.graph = plan.graph();
        this.ranged = new boolean[plan.size()];
        for (int i = 0; i < ranged.length; i++) {
            ranged[i] = plan.system(i).ranged() || plan.system(i).leveled(); // index or slot ranges
        }
        this.capacity = eventsPerWorker;
        this.starts = new long[workers][eventsPerWorker];
        this.ends = new long[workers][eventsPerWorker];
        this.systems = new int[workers][eventsPerWorker];
        this.froms = new int[workers][eventsPerWorker];
        this.tos = new int[workers][eventsPerWorker];
        this.workers = workers;
        this.slots = new AtomicLongArray(Math.max(1, workers) * PAD);
        this.tickStarts = new long[eventsPerWorker];
        this.tickEnds = new long[eventsPerWorker];
        this.tickNumbers = new long[eventsPerWorker];
    }

    /** Notes the start of worker {@code workerId}'s job, so that {@link #jobRan} can tell its own job's end (worker thread). */
    @Override
    public void jobStarted(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos) {
        slots.setRelease(workerId * PAD + START, startNanos);
    }

    @Override
    public void jobRan(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos, long endNanos) {
        long last = slots.getAcquire(workerId * PAD + START);
        if (last != startNanos && last != 0) {
            return; // a job abandoned at a run's deadline, returning after its replacement (same id) started jobs
        }
        long claimed = slots.getAndIncrement(workerId * PAD + COUNT);
        if (claimed >= capacity) {
            return; // counted as dropped
        }
        int n = (int) claimed;
        starts[workerId][n] = startNanos;
        systems[workerId][n] = systemIndex;
        froms[workerId][n] = fromChunk;
        tos[workerId][n] = toChunk;
        END.setRelease(ends[workerId], n, endNanos);
    }

    /**
     * Records one tick's span (tick thread).
     *
     * @param tick the tick's number
     * @param startNanos when it started, {@link System#nanoTime()}
     * @param endNanos when it ended, {@link System#nanoTime()}
     */
    public void tickRan(long tick, long startNanos, long endNanos) {
        if (ticks == capacity) {
            return;
        }
        tickNumbers[ticks] = tick;
        tickStarts[ticks] = startNanos;
        tickEnds[ticks] = endNanos;
        ticks++;
    }

    /**
     * Jobs recorded in all.
     *
     * @return the jobs kept for the trace, 0 or more, dropped ones not counted
     */
    public long jobCount() {
        long n = 0;
        for (int w = 0; w < workers; w++) {
            n += Math.min(capacity, slots.get(w * PAD + COUNT));
        }
        return n;
    }

    /**
     * Jobs not recorded because a worker's array was full.
     *
     * @return the jobs left out, 0 or more; 0 means no job was left out
     */
    public long droppedCount() {
        long n = 0;
        for (int w = 0; w < workers; w++) {
            n += Math.max(0, slots.get(w * PAD + COUNT) - capacity);
        }
        return n;
    }

    /**
     * Writes the trace as JSON to {@code file}, created or replaced (the format of
     * {@link #write(Writer)}).
     *
     * @param file where to write; its folder must exist
     * @throws IOException if the file cannot be created or written
     */
    public void write(Path file) throws IOException {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            write(w);
        }
    }

    /**
     * Writes the trace as JSON: one Chrome "trace event" object holding the worker tracks'
     * job slices and the tick track, times in microseconds from the earliest event recorded.
     * Tick thread, after the traced ticks (see the class comment); {@code out} is not closed.
     *
     * @param out where to write
     * @throws IOException if {@code out} throws
     */
    public void write(Writer out) throws IOException {
        int[] counts = new int[workers]; // each worker's complete events (a job returning now is left out)
        long origin = Long.MAX_VALUE;
        for (int w = 0; w < workers; w++) {
            int n = (int) Math.min(capacity, slots.get(w * PAD + COUNT));
            while (counts[w] < n && (long) END.getAcquire(ends[w], counts[w]) != 0) {
                origin = Math.min(origin, starts[w][counts[w]]);
                counts[w]++;
            }
        }
        for (int i = 0; i < ticks; i++) {
            origin = Math.min(origin, tickStarts[i]);
        }
        if (origin == Long.MAX_VALUE) {
            origin = 0;
        }
        out.write("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n");
        boolean first = true;
        first = meta(out, first, counts.length, "ticks");
        for (int w = 0; w < counts.length; w++) {
            first = meta(out, first, w, w == 0 ? "worker 0 (tick thread)" : "worker " + w);
        }
        for (int i = 0; i < ticks; i++) {
            first = slice(out, first, "tick " + tickNumbers[i], "tick", counts.length, tickStarts[i] - origin,
                    tickEnds[i] - tickStarts[i], null);
        }
        for (int w = 0; w < counts.length; w++) {
            for (int i = 0; i < counts[w]; i++) {
                String name = graph.system(systems[w][i]).name();
                String args = froms[w][i] < 0 ? "{\"exclusive\":true}"
                        : "{\"" + (ranged[systems[w][i]] ? "indices" : "chunks") + "\":\"" + froms[w][i] + ".."
                                + (tos[w][i] - 1) + "\"}";
                first = slice(out, first, name, "job", w, starts[w][i] - origin, ends[w][i] - starts[w][i], args);
            }
        }
        out.write("\n]}\n");
    }

    private static boolean meta(Writer out, boolean first, int tid, String name) throws IOException {
        out.write(first ? "" : ",\n");
        out.write("{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + tid + ",\"args\":{\"name\":\""
                + escape(name) + "\"}}");
        return false;
    }

    private static boolean slice(Writer out, boolean first, String name, String cat, int tid, long startNanos,
            long durNanos, String args) throws IOException {
        out.write(first ? "" : ",\n");
        out.write(String.format(Locale.ROOT, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
                + "\"ts\":%.3f,\"dur\":%.3f%s}", escape(name), cat, tid, startNanos / 1000.0, durNanos / 1000.0,
                args == null ? "" : ",\"args\":" + args));
        return false;
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
