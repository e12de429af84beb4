package dev.orrery.explorer;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * The figures sampled once a second, off the tick thread: ticks per second, heap in use and
 * heap after the last collection, time and count of garbage collections in the second, and
 * the archetype count the tick thread last took. A ring of the last {@link #CAPACITY}
 * seconds (a quarter of an hour).
 *
 * <p><b>Threading:</b> {@link #sample} on the stream hub's thread; {@link #write} on any
 * thread (both synchronized: once a second, off the tick thread).
 */
final class SecondFigures {
    /** Seconds kept. */
    static final int CAPACITY = 900;
    private static final double MB = 1024.0 * 1024.0;

    private final double[] time = new double[CAPACITY];
    private final double[] tps = new double[CAPACITY];
    private final double[] heapMb = new double[CAPACITY];
    private final double[] heapAfterGcMb = new double[CAPACITY];
    private final double[] gcMs = new double[CAPACITY];
    private final long[] gcCount = new long[CAPACITY];
    private final int[] archetypes = new int[CAPACITY];
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
    private long count;
    private long lastGcMillis = -1;
    private long lastGcCount;

    /** Adds one second's sample. */
    synchronized void sample(double epochSeconds, double ticksPerSecond, int archetypeCount) {
        int slot = (int) (count % CAPACITY);
        long gcMillis = 0;
        long gcs = 0;
        for (GarbageCollectorMXBean gc : collectors) {
            gcMillis += Math.max(0, gc.getCollectionTime());
            gcs += Math.max(0, gc.getCollectionCount());
        }
        long used = 0;
        long afterGc = 0;
        int heapPools = 0;
        for (MemoryPoolMXBean pool : pools) {
            heapPools += pool.getType() == MemoryType.HEAP && pool.isValid() ? 1 : 0;
        }
        for (MemoryPoolMXBean pool : pools) {
            if (pool.getType() != MemoryType.HEAP || !pool.isValid()) {
                continue;
            }
            MemoryUsage now = pool.getUsage();
            used += now.getUsed();
            afterGc += afterCollection(now, pool.getCollectionUsage(), heapPools == 1);
        }
        time[slot] = epochSeconds;
        tps[slot] = ticksPerSecond;
        heapMb[slot] = used / MB;
        heapAfterGcMb[slot] = afterGc / MB;
        gcMs[slot] = lastGcMillis < 0 ? 0 : gcMillis - lastGcMillis;
        gcCount[slot] = lastGcMillis < 0 ? 0 : gcs - lastGcCount;
        archetypes[slot] = archetypeCount;
        lastGcMillis = gcMillis;
        lastGcCount = gcs;
        count++;
    }

    /**
     * Writes the seconds after {@code after} (-1: all kept) as columns {@code t}, {@code tps},
     * {@code heapMb}, {@code heapAfterGcMb}, {@code gcMs}, {@code gcCount}, {@code archetypes}
     * (-1 where not yet counted), and {@code seq} of the last.
     *
     * @return the sequence number of the last second written
     */
    synchronized long write(long after, Json json) {
        // after + 1 saturates: the largest long wrapped to the most negative, and so to every kept second
        long from = Math.max(Math.max(0, after == Long.MAX_VALUE ? after : after + 1), count - CAPACITY);
        json.field("seq", count - 1).key("t").beginArray();
        for (long s = from; s < count; s++) {
            json.value(Math.round(time[(int) (s % CAPACITY)] * 1e3) / 1e3);
        }
        column(json.endArray().key("tps"), tps, from);
        column(json.key("heapMb"), heapMb, from);
        column(json.key("heapAfterGcMb"), heapAfterGcMb, from);
        column(json.key("gcMs"), gcMs, from);
        json.key("gcCount").beginArray();
        for (long s = from; s < count; s++) {
            json.value(gcCount[(int) (s % CAPACITY)]);
        }
        json.endArray().key("archetypes").beginArray();
        for (long s = from; s < count; s++) {
            int a = archetypes[(int) (s % CAPACITY)];
            if (a < 0) {
                json.nullValue();
            } else {
                json.value(a);
            }
        }
        json.endArray();
        return count - 1;
    }

    /**
     * A pool's bytes after the last collection: its collection usage where a collection empties
     * it (an eden) or it is the heap's only pool (ZGC, Shenandoah); otherwise what it holds now,
     * since a survivor or old space changes only at a collection (promotion) or by a humongous
     * allocation, while its collection usage is updated only by that generation's own
     * collections: G1's Old Gen read 0 until its first mixed or full one, however much the
     * young ones had promoted.
     */
    static long afterCollection(MemoryUsage now, MemoryUsage after, boolean onlyPool) {
        if (after == null) {
            return now.getUsed();
        }
        if (onlyPool || (after.getUsed() == 0 && after.getCommitted() > 0)) {
            return after.getUsed();
        }
        return Math.max(after.getUsed(), now.getUsed());
    }

    /** The latest sample's heap after collection and ticks per second, for the summary. */
    synchronized double[] latest() {
        if (count == 0) {
            return new double[] {0, 0, 0};
        }
        int slot = (int) ((count - 1) % CAPACITY);
        return new double[] {heapAfterGcMb[slot], heapMb[slot], gcMs[slot]};
    }

    private void column(Json json, double[] values, long from) {
        json.beginArray();
        for (long s = from; s < count; s++) {
            json.value(Math.round(values[(int) (s % CAPACITY)] * 100) / 100.0);
        }
        json.endArray();
    }
}
