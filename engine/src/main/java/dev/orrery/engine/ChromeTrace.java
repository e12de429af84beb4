package dev.orrery.engine;

import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.executor.ExecutionPlan;
import dev.orrery.scheduler.graph.SystemGraph;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Records a few ticks as a Chrome trace (JSON "trace event" format, opens in Perfetto or
 * {@code chrome://tracing}): one track per worker with a slice per job (named by its system,
 * with its chunk range, or index range for a range system), and a track of tick slices.
 * Events go into preallocated per-worker arrays; once an array is full, further events of
 * that worker are counted as dropped, so tracing never allocates on the hot path and never
 * grows without bound.
 *
 * <p><b>Threading:</b> {@link #jobRan} is called by each worker for its own jobs (per-worker
 * arrays, no sharing); {@link #tickRan} and {@link #write} by the tick thread. Call
 * {@link #write} after the traced ticks have finished: the executor's completion hand-off
 * makes every worker's events visible to the tick thread by then.
 */
public final class ChromeTrace implements JobObserver {
    private final SystemGraph graph;
    private final boolean[] ranged;
    private final int capacity;
    private final long[][] starts;
    private final long[][] ends;
    private final int[][] systems;
    private final int[][] froms;
    private final int[][] tos;
    private final int[] counts;
    private final long[] dropped;
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
        this.counts = new int[workers];
        this.dropped = new long[workers];
        this.tickStarts = new long[eventsPerWorker];
        this.tickEnds = new long[eventsPerWorker];
        this.tickNumbers = new long[eventsPerWorker];
    }

    @Override
    public void jobRan(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos, long endNanos) {
        int n = counts[workerId];
        if (n == capacity) {
            dropped[workerId]++;
            return;
        }
        starts[workerId][n] = startNanos;
        ends[workerId][n] = endNanos;
        systems[workerId][n] = systemIndex;
        froms[workerId][n] = fromChunk;
        tos[workerId][n] = toChunk;
        counts[workerId] = n + 1;
    }

    /** Records one tick's span (tick thread). */
    public void tickRan(long tick, long startNanos, long endNanos) {
        if (ticks == capacity) {
            return;
        }
        tickNumbers[ticks] = tick;
        tickStarts[ticks] = startNanos;
        tickEnds[ticks] = endNanos;
        ticks++;
    }

    /** Jobs recorded in all. */
    public long jobCount() {
        long n = 0;
        for (int c : counts) {
            n += c;
        }
        return n;
    }

    /** Jobs not recorded because a worker's array was full. */
    public long droppedCount() {
        long n = 0;
        for (long d : dropped) {
            n += d;
        }
        return n;
    }

    /** Writes the trace as JSON to {@code file}. */
    public void write(Path file) throws IOException {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            write(w);
        }
    }

    /** Writes the trace as JSON. */
    public void write(Writer out) throws IOException {
        long origin = Long.MAX_VALUE;
        for (int w = 0; w < counts.length; w++) {
            for (int i = 0; i < counts[w]; i++) {
                origin = Math.min(origin, starts[w][i]);
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
