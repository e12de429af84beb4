package dev.orrery.bench.scaling;

import dev.orrery.bench.fixture.CommandLine;
import dev.orrery.bench.fixture.EcsSuite;
import dev.orrery.bench.fixture.PlainParallelLoop;
import dev.orrery.bench.scheduling.SchedulerBenchmark;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.executor.ParallelExecutor;
import dev.orrery.scheduler.executor.SingleThreadedExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * (Over about 500 lines on purpose: the report, its command line and its SVG plot share
 * one set of measured rows; splitting them would pass those rows between three classes.)
 *
 * <p>The multi-core scaling report: each workload at each thread count, through Orrery's
 * executor, with the throughput, the speed-up against one thread and the parallel
 * efficiency; then the executor's own costs (per job, per tick) and what Amdahl's and
 * Gustafson's laws make of them at 16 and 64 cores. Writes a markdown table and an SVG
 * plot (speed-up against threads, one line per workload, and the ideal line).
 *
 * <p>Each figure is the median of {@code --reps} timed repetitions of about
 * {@code --rep-ms} each, after {@code --warmup-ms} of warm-up (shared among the thread
 * counts); one workload's thread counts take turns rep by rep, so a burst of load from
 * elsewhere hits them alike. Beside it stands the process CPU time over wall time during
 * the repetitions: on a quiet machine
 * it reaches the thread count (the workers spin while they wait, so it can exceed the busy
 * share); where it stays below, other processes held the cores and the speed-up
 * understates the engine.
 *
 * <pre>{@code
 * java -cp bench/target/benchmarks.jar dev.orrery.bench.scaling.ScalingReport \
 *     [--threads 1,2] [--workloads heavy_compute,parallel_light_compute,schedule,flops64] \
 *     [--reps 7] [--rep-ms 300] [--warmup-ms 2000] \
 *     [--md bench/results/scaling.md] [--svg bench/results/scaling.svg]
 * }</pre>
 *
 * <p>The last line printed is {@code scaling: workload=W threads=N speedup=S efficiency=E}
 * for the heaviest workload (the most arithmetic per entity) at the largest thread count.
 */
public final class ScalingReport {
    /** The workloads, lightest per entity first, with their arithmetic per entity (for "heaviest"). */
    static final Map<String, Double> FLOPS_PER_ENTITY = new LinkedHashMap<>();

    static {
        FLOPS_PER_ENTITY.put("schedule", 0.0);
        FLOPS_PER_ENTITY.put("flops64", 64.0);
        FLOPS_PER_ENTITY.put("parallel_light_compute", 130.0);
        FLOPS_PER_ENTITY.put("heavy_compute", 100 * 130.0);
    }

    /**
     * Suffix of the plain-Java baseline's rows: the compute workloads also run as a plain
     * parallel loop over flat arrays with the same thread counts, interleaved with Orrery's
     * repetitions, so "is it the engine or the machine" is answered in one run.
     */
    static final String PLAIN = " (plain Java)";

    private ScalingReport() {
    }

    /** One workload's schedule, its entity count, and the rows of each chunk of its main system. */
    record Workload(String name, Schedule schedule, int entities, int[] chunkRows) {
        int maxChunkRows() {
            return Arrays.stream(chunkRows).max().orElse(0);
        }
    }

    /** One measured point: median microseconds per tick and the CPU/wall ratio. */
    record Point(String workload, int threads, double usPerTick, double cpuPerWall, int entities) {
    }

    /** Runs the report; see the class comment for the options. */
    public static void main(String[] args) throws Exception {
        CommandLine.main(ScalingReport.class, args, ScalingReport::run);
    }

    /** The command line, checked. */
    record Options(int[] threads, List<String> names, int reps, long repNanos, long warmNanos, Path md, Path svg) {
    }

    static Options parse(String[] args) {
        int[] threads = range(Runtime.getRuntime().availableProcessors());
        List<String> names = List.of("heavy_compute", "parallel_light_compute", "schedule", "flops64");
        int reps = 7;
        long repMs = 300;
        long warmMs = 2000;
        Path md = Path.of("bench/results/scaling.md");
        Path svg = Path.of("bench/results/scaling.svg");
        CommandLine c = new CommandLine(args, ScalingReport.class, "[--threads 1,2] [--workloads "
                + String.join(",", FLOPS_PER_ENTITY.keySet()) + "] [--reps 7] [--rep-ms 300] [--warmup-ms 2000] "
                + "[--md bench/results/scaling.md] [--svg bench/results/scaling.svg]",
                "Each workload at each thread count through Orrery's executor (1 always included; default 1 to the "
                + "cores), the median of --reps repetitions\nof --rep-ms after --warmup-ms; writes the table to --md "
                + "and the plot to --svg (their folders are created).");
        while (c.next()) {
            switch (c.option()) {
                case "--threads" -> threads = withOne(c.intsAtLeast(1, CommandLine.THREADS));
                case "--workloads" -> names = workloads(c.value());
                case "--reps" -> reps = c.intAtLeast(1, CommandLine.REPEATS);
                case "--rep-ms" -> repMs = c.millis(1);
                case "--warmup-ms" -> warmMs = c.millis(0);
                case "--md" -> md = c.outputFileCreatingFolders();
                case "--svg" -> svg = c.outputFileCreatingFolders();
                default -> throw c.unknown();
            }
        }
        return new Options(threads, names, reps, repMs * 1_000_000L, warmMs * 1_000_000L, md, svg);
    }

    private static List<String> workloads(String csv) {
        List<String> names = List.of(csv.split(",", -1));
        for (String n : names) {
            if (!FLOPS_PER_ENTITY.containsKey(n)) {
                throw CommandLine.refuse("--workloads: unknown workload '" + n + "'; choose from "
                        + String.join(",", FLOPS_PER_ENTITY.keySet()));
            }
        }
        return names;
    }

    private static void run(String[] args) throws IOException {
        Options o = parse(args);
        int cores = Runtime.getRuntime().availableProcessors();
        int[] threads = o.threads();
        List<String> names = o.names();
        int reps = o.reps();
        long repNanos = o.repNanos();
        long warmNanos = o.warmNanos();
        Path md = o.md();
        Path svg = o.svg();
        int maxThreads = Arrays.stream(threads).max().orElse(1);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double loadBefore = os.getSystemLoadAverage();
        long started = System.nanoTime();
        System.out.printf("scaling report: threads %s, workloads %s, median of %d reps of %d ms, %d processors, load %.2f%n",
                Arrays.toString(threads), names, reps, repNanos / 1_000_000, cores, loadBefore);

        List<Point> points = new ArrayList<>();
        Map<String, Workload> built = new LinkedHashMap<>();
        for (String name : names) {
            Workload w = build(name, maxThreads);
            built.put(name, w);
            ScheduleExecutor[] executors = new ScheduleExecutor[threads.length];
            List<PlainParallelLoop> loops = new ArrayList<>();
            try {
                boolean compute = name.endsWith("compute");
                PlainParallelLoop.RangeBody plain = !compute ? null : EcsSuite.plainCompute(w.entities(),
                        name.equals("heavy_compute") ? EcsSuite.HEAVY_INVERSIONS : 1);
                int n = threads.length;
                Runnable[] ticks = new Runnable[compute ? 2 * n : n];
                for (int k = 0; k < n; k++) {
                    executors[k] = w.schedule().executor(threads[k]);
                    ticks[k] = executors[k]::run;
                    if (compute) {
                        loops.add(new PlainParallelLoop(threads[k]));
                        PlainParallelLoop loop = loops.get(loops.size() - 1);
                        ticks[n + k] = () -> loop.run(plain, w.entities());
                    }
                }
                double[][] m = measureInterleaved(ticks, reps, repNanos, warmNanos, os);
                for (int k = 0; k < ticks.length; k++) {
                    String label = k < n ? name : name + PLAIN;
                    Point p = new Point(label, threads[k % n], m[k][0], m[k][1], w.entities());
                    points.add(p);
                    System.out.printf(Locale.ROOT, "  %-34s threads %2d: %10.1f us/tick  cpu/wall %.2f%n",
                            label, threads[k % n], p.usPerTick(), p.cpuPerWall());
                }
            } finally {
                for (ScheduleExecutor ex : executors) {
                    if (ex != null) {
                        ex.close();
                    }
                }
                loops.forEach(PlainParallelLoop::close);
                loops.clear();
            }
        }
        Overheads oh = measureOverheads(reps, repNanos, warmNanos, os);
        double loadAfter = os.getSystemLoadAverage();

        String table = table(points);
        String model = model(points, built, oh, threads);
        StringBuilder doc = new StringBuilder();
        doc.append("## Scaling: Orrery's executor, speed-up against threads\n\n");
        doc.append(String.format(Locale.ROOT, "%s, JDK %s (%s), %s, %d processors visible; load average %.2f before, "
                        + "%.2f after; median of %d interleaved repetitions of %d ms after %d ms warm-up per workload; report took %.0f s.%n%n",
                ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")),
                System.getProperty("java.version"), System.getProperty("java.vm.name"), cpuModel(), cores,
                loadBefore, loadAfter, reps, repNanos / 1_000_000, warmNanos / 1_000_000,
                (System.nanoTime() - started) / 1e9));
        doc.append(table).append('\n').append(model);
        System.out.println();
        System.out.print(doc);
        Files.createDirectories(md.toAbsolutePath().getParent());
        Files.writeString(md, doc.toString());
        Files.createDirectories(svg.toAbsolutePath().getParent());
        Files.writeString(svg, ScalingPlot.svg(points, maxThreads));
        System.out.println("wrote " + md + " and " + svg);

        String heaviest = names.stream().max((a, b) -> Double.compare(FLOPS_PER_ENTITY.get(a), FLOPS_PER_ENTITY.get(b)))
                .orElseThrow();
        Point last = find(points, heaviest, maxThreads);
        double s = speedup(points, last);
        System.out.printf(Locale.ROOT, "scaling: workload=%s threads=%d speedup=%.2f efficiency=%.2f%n",
                heaviest, maxThreads, s, s / maxThreads);
    }

    // ------------------------------------------------------------------ workloads

    static Workload build(String name, int maxThreads) {
        switch (name) {
            case "heavy_compute":
            case "parallel_light_compute": {
                boolean heavy = name.equals("heavy_compute");
                int n = heavy ? EcsSuite.HEAVY_ENTITIES : EcsSuite.LIGHT_ENTITIES;
                World world = EcsSuite.computeWorld(n);
                Schedule s = EcsSuite.computeSchedule(world, heavy ? EcsSuite.HEAVY_INVERSIONS : 1, maxThreads);
                return new Workload(name, s, n, chunkRows(world.query().with(world.component(EcsSuite.Transform.class)).build()));
            }
            case "schedule": {
                World world = EcsSuite.scheduleWorld();
                Schedule s = EcsSuite.scheduleOf(world, 4096);
                return new Workload(name, s, 4 * EcsSuite.SCHEDULE_ENTITIES,
                        chunkRows(world.query().with(world.component(EcsSuite.Scalar.class, "A")).build()));
            }
            case "flops64": {
                Schedule s = ExecutorWorkloads.flops64Schedule(1_000_000);
                World world = s.world();
                return new Workload(name, s, 1_000_000,
                        chunkRows(world.query().with(world.component(SchedulerBenchmark.Vec4.class)).build()));
            }
            default:
                throw new IllegalArgumentException("unknown workload '" + name + "'");
        }
    }

    private static int[] chunkRows(Query q) {
        List<Integer> rows = new ArrayList<>();
        for (Archetype a : EcsInternals.archetypes(q)) {
            for (int c = 0; c < a.chunkCount(); c++) {
                if (a.chunk(c).size() > 0) {
                    rows.add(a.chunk(c).size());
                }
            }
        }
        return rows.stream().mapToInt(Integer::intValue).toArray();
    }

    // ------------------------------------------------------------------ measuring

    /**
     * Warms {@code tick} up, then times {@code reps} repetitions of about {@code repNanos};
     * returns {median us per tick, process CPU / wall over all repetitions}.
     */
    static double[] measure(Runnable tick, int reps, long repNanos, long warmNanos,
            com.sun.management.OperatingSystemMXBean os) {
        long end = System.nanoTime() + warmNanos;
        long warmTicks = 0;
        long t0 = System.nanoTime();
        while (System.nanoTime() < end || warmTicks < 3) {
            tick.run();
            warmTicks++;
        }
        double usEach = (System.nanoTime() - t0) / 1e3 / warmTicks;
        long ticks = Math.max(3, (long) (repNanos / 1e3 / usEach));
        double[] us = new double[reps];
        long cpu0 = os.getProcessCpuTime();
        long wall0 = System.nanoTime();
        for (int r = 0; r < reps; r++) {
            long s = System.nanoTime();
            for (long i = 0; i < ticks; i++) {
                tick.run();
            }
            us[r] = (System.nanoTime() - s) / 1e3 / ticks;
        }
        double cpuWall = (double) (os.getProcessCpuTime() - cpu0) / (System.nanoTime() - wall0);
        Arrays.sort(us);
        return new double[] {us[reps / 2], cpuWall};
    }

    /**
     * Like {@link #measure}, for several executors of one workload (one per thread count),
     * with their repetitions interleaved (1, 2, .., 1, 2, ..): a neighbour's burst of load
     * then falls on every thread count alike, so the speed-up, a ratio, stays fair. Idle
     * executors park their workers, so they take no core from the one being timed.
     * Returns {median us per tick, process CPU / wall over its repetitions} per executor.
     */
    public static double[][] measureInterleaved(Runnable[] ticks, int reps, long repNanos, long warmNanos,
            com.sun.management.OperatingSystemMXBean os) {
        int n = ticks.length;
        long[] perRep = new long[n];
        for (int k = 0; k < n; k++) {
            long end = System.nanoTime() + warmNanos / n;
            long warm = 0;
            long t0 = System.nanoTime();
            while (System.nanoTime() < end || warm < 3) {
                ticks[k].run();
                warm++;
            }
            perRep[k] = Math.max(3, (long) (repNanos / ((System.nanoTime() - t0) / (double) warm)));
        }
        double[][] us = new double[n][reps];
        long[] cpu = new long[n];
        long[] wall = new long[n];
        for (int r = 0; r < reps; r++) {
            for (int k = 0; k < n; k++) {
                Runnable tick = ticks[k];
                for (int i = 0; i < 3; i++) {
                    tick.run(); // wake this executor's workers before the clock starts
                }
                long c0 = os.getProcessCpuTime();
                long s = System.nanoTime();
                for (long i = 0; i < perRep[k]; i++) {
                    tick.run();
                }
                long e = System.nanoTime();
                cpu[k] += os.getProcessCpuTime() - c0;
                wall[k] += e - s;
                us[k][r] = (e - s) / 1e3 / perRep[k];
            }
        }
        double[][] out = new double[n][];
        for (int k = 0; k < n; k++) {
            Arrays.sort(us[k]);
            out[k] = new double[] {us[k][reps / 2], (double) cpu[k] / wall[k]};
        }
        return out;
    }

    /** The executor's own costs, from empty-body systems. */
    record Overheads(double tickUs, double jobUs, double handOffUs, double perJobParallelUs, int parallelThreads) {
    }

    /**
     * Empty-body systems, so only the executor is timed: {@code tickUs}, one tick of one
     * system over one chunk, single-threaded (the sync points, structure lock and chunk
     * collection: the serial part of every tick); {@code jobUs}, the cost of one more job
     * on the caller alone (64 one-chunk jobs against 1, divided by 63); {@code handOffUs},
     * what waking a second thread for a system costs over running it inline (2 jobs on 2
     * threads against 1 thread); {@code perJobParallelUs}, wall time per job with 64 jobs
     * on 2 threads.
     */
    static Overheads measureOverheads(int reps, long repNanos, long warmNanos,
            com.sun.management.OperatingSystemMXBean os) {
        Schedule one = ExecutorWorkloads.emptyJobsSchedule(1);
        Schedule many = ExecutorWorkloads.emptyJobsSchedule(64);
        Schedule two = ExecutorWorkloads.emptyJobsSchedule(2);
        int p = Math.min(2, Runtime.getRuntime().availableProcessors());
        double tick;
        double oneJob;
        double sixtyFour;
        double handOff;
        double parallel64;
        try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(one))) {
            tick = measure(ex::run, reps, repNanos / 2, warmNanos / 2, os)[0];
        }
        try (ScheduleExecutor ex = new ParallelExecutor(SchedulerInternals.plan(many), 1, 1)) {
            oneJob = measure(ex::run, reps, repNanos / 2, warmNanos / 2, os)[0];
        }
        try (ScheduleExecutor ex = new ParallelExecutor(SchedulerInternals.plan(many), 1, 64)) {
            sixtyFour = measure(ex::run, reps, repNanos / 2, warmNanos / 2, os)[0];
        }
        double inline2;
        try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(two))) {
            inline2 = measure(ex::run, reps, repNanos / 2, warmNanos / 2, os)[0];
        }
        try (ScheduleExecutor ex = new ParallelExecutor(SchedulerInternals.plan(two), p, 1)) {
            handOff = measure(ex::run, reps, repNanos / 2, warmNanos / 2, os)[0] - inline2;
        }
        try (ScheduleExecutor ex = new ParallelExecutor(SchedulerInternals.plan(many), p, 32)) {
            parallel64 = measure(ex::run, reps, repNanos / 2, warmNanos / 2, os)[0] / 64;
        }
        Overheads o = new Overheads(tick, Math.max(0, (sixtyFour - oneJob) / 63), Math.max(0, handOff), parallel64, p);
        System.out.printf(Locale.ROOT, "  overheads: tick %.2f us, job %.3f us (caller alone), hand-off %.2f us, "
                + "%.3f us wall per job with 64 jobs on %d threads%n", o.tickUs(), o.jobUs(), o.handOffUs(),
                o.perJobParallelUs(), p);
        return o;
    }

    // ------------------------------------------------------------------ output

    private static String table(List<Point> points) {
        StringBuilder b = new StringBuilder();
        b.append("| workload | entities | threads | us/tick (median) | ticks/s | M entity-updates/s | speed-up | efficiency | CPU/wall |\n");
        b.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Point p : points) {
            double s = speedup(points, p);
            b.append(String.format(Locale.ROOT, "| %s | %d | %d | %.1f | %.0f | %.1f | %.2fx | %.2f | %.2f |%n",
                    p.workload(), p.entities(), p.threads(), p.usPerTick(), 1e6 / p.usPerTick(),
                    p.entities() / p.usPerTick(), s, s / p.threads(), p.cpuPerWall()));
        }
        return b.toString();
    }

    /**
     * The model. Per tick, {@code T(p) = serial + handOff + max(work / p, largestJob) + jobs(p) * job / p}
     * with {@code serial} the empty tick, {@code work = T(1) - serial}, {@code jobs(p) =
     * min(4p, chunks)} and {@code largestJob} the biggest chunk's share of the work (a job is
     * whole chunks: once there are more threads than chunks, more threads add nothing).
     * Amdahl's fixed-size speed-up uses the serial fraction {@code f = (serial + handOff) / T(1)};
     * Gustafson's scaled speed-up {@code p - f' (p - 1)} grows the entities with the threads,
     * so the serial time stays fixed while the parallel part grows ({@code f'} is the serial
     * share of the scaled run's wall time at {@code p} threads).
     */
    private static String model(List<Point> points, Map<String, Workload> built, Overheads oh, int[] threads) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "### Executor overheads (empty-body systems)%n%n"
                        + "- serial part of a tick (one system, one chunk, sync points, structure lock, 1 thread): %.2f us%n"
                        + "- one more job, run by the caller alone (64 one-chunk jobs against 1): %.3f us%n"
                        + "- handing a system to a second thread instead of running it inline: %.2f us%n"
                        + "- wall time per job, 64 empty jobs on %d threads: %.3f us%n%n",
                oh.tickUs(), oh.jobUs(), oh.handOffUs(), oh.parallelThreads(), oh.perJobParallelUs()));
        b.append("### Model: predicted speed-up at 16 and 64 cores\n\n");
        b.append("| workload | T(1) us | serial f | chunks (largest) | Amdahl 16 | Amdahl 64 | model 16 | model 64 | Gustafson 16 | Gustafson 64 | bends at |\n");
        b.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
        for (Workload w : built.values()) {
            Point one = find(points, w.name(), 1);
            if (one == null) {
                continue;
            }
            double t1 = one.usPerTick();
            int systems = SchedulerInternals.plan(w.schedule()).size();
            double serial = oh.tickUs() + systems * oh.handOffUs();
            double f = Math.min(1, serial / t1);
            int chunks = w.chunkRows().length;
            double largest = (double) w.maxChunkRows() / Math.max(1, w.entities());
            if (w.name().equals("schedule")) {
                largest = 0.5; // ab covers half the rows, and runs beside cd and ce: the critical path
            }
            double model16 = t1 / modelTime(t1, serial, oh.jobUs(), chunks, largest, 16);
            double model64 = t1 / modelTime(t1, serial, oh.jobUs(), chunks, largest, 64);
            int bend = bend(t1, serial, oh.jobUs(), chunks, largest);
            b.append(String.format(Locale.ROOT, "| %s | %.1f | %.4f | %d (%d rows) | %.1fx | %.1fx | %.1fx | %.1fx | %.1fx | %.1fx | %s |%n",
                    w.name(), t1, f, chunks, w.maxChunkRows(), amdahl(f, 16), amdahl(f, 64), model16, model64,
                    gustafson(f, 16), gustafson(f, 64), bend < 0 ? "beyond 64" : bend + " threads"));
        }
        b.append("\n\"bends at\": the first thread count where one more thread gains less than half of what the ideal "
                + "line gains (the model's efficiency falls fast there): with jobs of whole chunks, a fixed-size "
                + "workload stops scaling once threads outnumber its largest-chunk share; the serial part "
                + "(sync points, hand-offs) caps it at 1/f. Measured speed-ups at ");
        b.append(Arrays.toString(threads)).append(" threads are in the table above; the model is a projection, "
                + "not a measurement (it knows nothing of memory bandwidth, which bounds the light workloads first).\n");
        return b.toString();
    }

    static double modelTime(double t1, double serial, double job, int chunks, double largestShare, int p) {
        double work = Math.max(0, t1 - serial);
        int jobs = Math.min(4 * p, chunks);
        double parallel = Math.max(work / p, work * largestShare);
        return serial + parallel + job * Math.ceil((double) jobs / p);
    }

    static int bend(double t1, double serial, double job, int chunks, double largestShare) {
        double prev = t1 / modelTime(t1, serial, job, chunks, largestShare, 1);
        for (int p = 2; p <= 64; p++) {
            double s = t1 / modelTime(t1, serial, job, chunks, largestShare, p);
            if (s - prev < 0.5) {
                return p;
            }
            prev = s;
        }
        return -1;
    }

    static double amdahl(double f, int p) {
        return 1 / (f + (1 - f) / p);
    }

    static double gustafson(double f, int p) {
        return p - f * (p - 1);
    }

    static double speedup(List<Point> points, Point p) {
        Point one = find(points, p.workload(), 1);
        return one == null ? Double.NaN : one.usPerTick() / p.usPerTick();
    }

    static Point find(List<Point> points, String workload, int threads) {
        for (Point p : points) {
            if (p.workload().equals(workload) && p.threads() == threads) {
                return p;
            }
        }
        return null;
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        return System.getProperty("os.arch");
    }

    /** The thread counts, sorted, without repeats, 1 added: speed-up is against 1 thread, so 1 is always measured. */
    private static int[] withOne(int[] counts) {
        return java.util.stream.IntStream.concat(java.util.stream.IntStream.of(1), Arrays.stream(counts)).sorted()
                .distinct().toArray();
    }

    private static int[] range(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i + 1;
        }
        return r;
    }
}
