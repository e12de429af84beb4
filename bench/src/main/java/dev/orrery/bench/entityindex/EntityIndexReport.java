package dev.orrery.bench.entityindex;

import dev.orrery.bench.fixture.CommandLine;
import dev.orrery.ecs.prototype.PrototypeIndex;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reproduces the Stingray entity-index article's synthetic test for both designs in one
 * run and prints its comparison table. For each total entity count (10 k doubling to
 * 10.24 M) and each design, single-threaded: entities are created from 75 compositions of
 * 1 to 11 named components, each component added and registered one at a time; two
 * look-ups by name follow each creation (one on the new entity, one on a random live
 * entity, possibly for a name it lacks); after every 10 000 creations a random quarter of
 * the live entities is destroyed, and at the end everyone is, so every index must reclaim
 * what it no longer needs. Both designs see the same operations (same seed) and must give
 * the same look-up answers (checked by checksum).
 *
 * <p>The indexes run standalone, not inside a {@code World}: a world add moves the entity's
 * row between archetypes, which would dominate the figures and is the same for both.
 * Memory is the peak, sampled after every round outside the timed region, of a deep-size
 * walk of the index's arrays (actual lengths, 16-byte array headers, 8-byte alignment);
 * for the prototype index it is the entity array plus the prototype table plus the look-up
 * cache.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.orrery.bench.entityindex.EntityIndexReport [--max N]</pre>
 */
public final class EntityIndexReport {
    private static final int ROUND = 10_000;
    private static final int REPEATS = 3;
    private static final long SEED = 0x5EED_1DE4L;

    private EntityIndexReport() {
    }

    /** The operations the synthetic test needs from an index design. */
    private interface Design {
        void register(int entity, int column, int nameHash);

        int find(int entity, int nameHash);

        void release(int entity);

        long bytes();

        void reclaimAll();

        long tableBytes();

        int leftover();
    }

    private static final class Prototype implements Design {
        final PrototypeIndex index = new PrototypeIndex();

        @Override
        public void register(int entity, int column, int nameHash) {
            index.register(entity, column, nameHash);
        }

        @Override
        public int find(int entity, int nameHash) {
            return index.find(entity, nameHash);
        }

        @Override
        public void release(int entity) {
            index.release(entity);
        }

        @Override
        public long bytes() {
            return index.entityBytes() + index.tableBytes() + index.cacheBytes();
        }

        @Override
        public void reclaimAll() {
            index.reclaimUnused();
        }

        @Override
        public long tableBytes() {
            return index.tableBytes();
        }

        @Override
        public int leftover() {
            return index.prototypeCount() - 1;
        }
    }

    private static final class Legacy implements Design {
        final LegacyEntityIndex index = new LegacyEntityIndex();

        @Override
        public void register(int entity, int column, int nameHash) {
            index.register(entity, column, nameHash);
        }

        @Override
        public int find(int entity, int nameHash) {
            return index.find(entity, nameHash);
        }

        @Override
        public void release(int entity) {
            index.release(entity);
        }

        @Override
        public long bytes() {
            return index.bytes();
        }

        @Override
        public void reclaimAll() {
            // the garbage collector reclaims released arrays
        }

        @Override
        public long tableBytes() {
            return 0;
        }

        @Override
        public int leftover() {
            return 0;
        }
    }

    /** One design's run at one entity count. */
    record Result(long nanos, long wallNanos, long peakBytes, long peakTableBytes, long checksum, int leftover) {
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU time of this thread plus the time the collectors report: the work the run caused. */
    private static long cpuNanos() {
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        return THREADS.getCurrentThreadCpuTime() + gcMillis * 1_000_000L;
    }

    static Result run(Design d, EntityIndexWorkload w, int total) {
        long rng = SEED;
        int[] free = new int[1 << 16];
        int freeHead = 0;
        int freeTail = 0;
        int highWater = 0;
        int[] live = new int[1 << 16];
        int liveCount = 0;
        long checksum = 0;
        long nanos = 0;
        long wall = 0;
        long peak = 0;
        long peakTable = 0;
        final int[][] cols = w.columns;
        final int[][] names = w.names;
        final int[] allNames = w.nameHashes;
        int created = 0;
        while (created < total) {
            int n = Math.min(ROUND, total - created);
            long w0 = System.nanoTime();
            long t0 = cpuNanos();
            for (int i = 0; i < n; i++) {
                int e = freeHead != freeTail ? free[freeHead++ & (free.length - 1)] : highWater++;
                rng = next(rng);
                int c = below(rng, EntityIndexWorkload.COMPOSITIONS);
                int[] cc = cols[c];
                int[] nn = names[c];
                for (int k = 0; k < cc.length; k++) {
                    d.register(e, cc[k], nn[k]);
                }
                rng = next(rng);
                checksum += d.find(e, nn[below(rng, nn.length)]);
                if (liveCount > 0) {
                    rng = next(rng);
                    int other = live[below(rng, liveCount)];
                    checksum = checksum * 31 + d.find(other, allNames[below(rng << 32, allNames.length)]);
                }
                if (liveCount == live.length) {
                    live = java.util.Arrays.copyOf(live, live.length * 2);
                }
                live[liveCount++] = e;
            }
            nanos += cpuNanos() - t0;
            wall += System.nanoTime() - w0;
            peak = Math.max(peak, d.bytes());
            peakTable = Math.max(peakTable, d.tableBytes());
            w0 = System.nanoTime();
            t0 = cpuNanos();
            int kill = liveCount / 4;
            for (int i = 0; i < kill; i++) {
                rng = next(rng);
                int j = below(rng, liveCount);
                int e = live[j];
                live[j] = live[--liveCount];
                d.release(e);
                if (freeTail - freeHead == free.length) {
                    free = grow(free, freeHead, freeTail);
                    freeTail -= freeHead;
                    freeHead = 0;
                }
                free[freeTail++ & (free.length - 1)] = e;
            }
            nanos += cpuNanos() - t0;
            wall += System.nanoTime() - w0;
            created += n;
        }
        long w0 = System.nanoTime();
        long t0 = cpuNanos();
        for (int i = 0; i < liveCount; i++) {
            d.release(live[i]);
        }
        d.reclaimAll();
        nanos += cpuNanos() - t0;
        wall += System.nanoTime() - w0;
        return new Result(nanos, wall, peak, peakTable, checksum, d.leftover());
    }

    private static int[] grow(int[] ring, int head, int tail) {
        int[] out = new int[ring.length * 2];
        for (int i = head; i < tail; i++) {
            out[i - head] = ring[i & (ring.length - 1)];
        }
        return out;
    }

    /** A number in {@code [0, bound)} from the high 32 bits of {@code rng}, without a division. */
    private static int below(long rng, int bound) {
        return (int) (((rng >>> 32) * bound) >>> 32);
    }

    private static long next(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        return x;
    }

    private static String label(int count) {
        if (count >= 1_000_000) {
            return String.format(Locale.ROOT, "%.2fm", count / 1e6).replace(".00m", "m").replaceAll("(\\.\\d)0m", "$1m");
        }
        return (count / 1000) + "k";
    }

    /** {@code 640000}, {@code 640k} or {@code 10.24m} as a count; -1 for anything else or a count over an int. */
    private static int parseCount(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        double mult = 1;
        if (t.endsWith("m")) {
            mult = 1e6;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("k")) {
            mult = 1e3;
            t = t.substring(0, t.length() - 1);
        }
        try {
            double n = Double.parseDouble(t) * mult;
            return n <= Integer.MAX_VALUE ? (int) Math.round(n) : -1;
        } catch (NumberFormatException notANumber) {
            return -1;
        }
    }

    private static Result best(Result a, Result b) {
        return a == null || b.nanos() < a.nanos() ? b : a;
    }

    private static Result measure(Design d, EntityIndexWorkload w, int count) {
        System.gc();
        return run(d, w, count);
    }

    /** Runs the report; {@code --max N} (e.g. 640000, 640k, 10.24m) stops at the last count not above N. */
    public static void main(String[] args) throws Exception {
        CommandLine.main(EntityIndexReport.class, args, EntityIndexReport::run);
    }

    /** The largest entity count to run, from the command line; checked before anything runs. */
    static int parse(String[] args) {
        int max = 10_240_000;
        CommandLine c = new CommandLine(args, EntityIndexReport.class, "[--max 10.24m]",
                "The Stingray synthetic test for both index designs at 10 k entities doubling up to --max (like 640000, "
                + "640k or 10.24m; at least 10k).");
        while (c.next()) {
            if (!c.option().equals("--max")) {
                throw c.unknown();
            }
            String v = c.value();
            max = parseCount(v);
            if (max < 10_000 || max > CommandLine.ENTITIES.max()) { // -1 past an int, too
                throw CommandLine.refuse("--max takes a count from 10000 (10k) to " + CommandLine.ENTITIES.max()
                        + " (20m; " + CommandLine.ENTITIES.why() + "), like 640000, 640k or 10.24m, not '" + v + "'");
            }
        }
        return max;
    }

    private static void run(String[] args) {
        int max = parse(args);
        long wallStart = System.nanoTime();
        EntityIndexWorkload w = new EntityIndexWorkload(75);
        // warm up both designs so the JIT has compiled the loops before anything is timed
        for (int i = 0; i < 3; i++) {
            run(new Prototype(), w, 320_000);
            run(new Legacy(), w, 320_000);
        }
        List<int[]> rows = new ArrayList<>();
        List<Result[]> results = new ArrayList<>();
        for (long count = 10_000; count <= max; count *= 2) {
            Result p = null;
            Result l = null;
            for (int rep = 0; rep < REPEATS; rep++) {
                p = best(p, measure(new Prototype(), w, (int) count));
                l = best(l, measure(new Legacy(), w, (int) count));
            }
            if (p.checksum() != l.checksum()) {
                throw new IllegalStateException("the designs disagree at " + count + " entities: look-up checksums "
                        + p.checksum() + " and " + l.checksum());
            }
            if (p.leftover() != 0) {
                throw new IllegalStateException(p.leftover() + " prototypes survived despawning everyone at " + count);
            }
            rows.add(new int[] {(int) count});
            results.add(new Result[] {p, l});
        }
        System.out.println("### Entity index: prototype chains vs per-entity arrays (Stingray synthetic test)");
        System.out.println();
        System.out.printf(Locale.ROOT, "%s, JDK %s (%s), %d CPUs visible, max heap %d MB.%n", LocalDate.now(),
                System.getProperty("java.version"), System.getProperty("java.vm.name"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        System.out.printf(Locale.ROOT, "Indexes measured standalone (not through World). %d compositions of 1-11 of %d "
                + "names over %d component types; %d prototype chain links needed. Memory: peak deep size of the "
                + "index's arrays (MB = 2^20 bytes). Time: best of " + REPEATS + " runs, alternating designs, of the CPU time of the benchmark thread plus the collectors' "
                + "reported time (the machine is shared, so wall time, also shown, includes waiting for a core). "
                + "New = prototype index (with look-up cache), Legacy = per-entity {name, manager, instance} "
                + "arrays.%n", EntityIndexWorkload.COMPOSITIONS,
                EntityIndexWorkload.NAMES.length, EntityIndexWorkload.TYPES.length, w.distinctPrefixes());
        System.out.println();
        System.out.println("| Entity Count | Time New (s) | Time Legacy (s) | Memory New (MB) | Memory Legacy (MB) "
                + "| Time/Entity New (us) | Time/Entity Legacy (us) | Wall New (s) | Wall Legacy (s) |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        double minUs = Double.MAX_VALUE;
        double maxUs = 0;
        for (int i = 0; i < rows.size(); i++) {
            int count = rows.get(i)[0];
            Result p = results.get(i)[0];
            Result l = results.get(i)[1];
            double pUs = p.nanos() / 1e3 / count;
            double lUs = l.nanos() / 1e3 / count;
            if (count >= 160_000) {
                minUs = Math.min(minUs, pUs);
                maxUs = Math.max(maxUs, pUs);
            }
            System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.2f | %.2f | %.3f | %.3f | %.3f | %.3f |%n",
                    label(count), p.nanos() / 1e9, l.nanos() / 1e9, p.peakBytes() / 1048576.0,
                    l.peakBytes() / 1048576.0, pUs, lUs, p.wallNanos() / 1e9, l.wallNanos() / 1e9);
        }
        int last = rows.size() - 1;
        int n = rows.get(last)[0];
        Result p = results.get(last)[0];
        Result l = results.get(last)[1];
        System.out.println();
        if (maxUs > 0) {
            double mid = (minUs + maxUs) / 2;
            System.out.printf(Locale.ROOT, "Prototype us/entity from 160k to %s: %.3f .. %.3f (+-%.0f%% around the middle)."
                    + " Whole report: %.1f s.%n", label(n), minUs, maxUs, 100 * (maxUs - mid) / mid,
                    (System.nanoTime() - wallStart) / 1e9);
        }
        System.out.printf(Locale.ROOT, "prototype us/entity at %d: %.3f; legacy/prototype time: %.2f; prototype table "
                + "bytes: %d%n", n, p.nanos() / 1e3 / n, (double) l.nanos() / p.nanos(), p.peakTableBytes());
    }
}
