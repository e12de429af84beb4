package dev.orrery.bench.host;

import dev.orrery.bench.fixture.CommandLine;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.TickStats;
import dev.orrery.engine.host.WorldHost;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds how many small worlds one process ticks at 30 Hz: on a {@link WorldHost} with one
 * pool thread per core, on one thread per world, and on one executor per world (a simulation
 * built with 2 workers: its own worker thread beside its tick thread). For each world size and
 * each way, N doubles from a start while it holds, then is bisected; a trial of N worlds
 * holds when the 99th-percentile tick lag (start minus due time) is under one period and at
 * least 95 % of the ticks asked for ran. Prints a Markdown table with, at the largest N that
 * held, the lag, the CPU time per world-tick (process CPU over ticks: the tick itself plus the
 * scheduling, parking and waking around it), the tick itself, the heap per world and the
 * threads; then every trial.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.orrery.bench.host.HostCapacityReport \
 *     [--sizes 100,1000] [--modes host,thread,executor] [--hz 30] [--threads 2] \
 *     [--warmup-ms 1000] [--measure-ms 2000] [--max 8192] [--worlds N] [--bisect 2] [--out FILE]
 * </pre>
 *
 * <p>{@code --worlds N} runs one trial of N worlds per size and way instead of searching.
 */
public final class HostCapacityReport {
    /** A way to tick many worlds. */
    enum Mode {
        /** One {@code WorldHost}, its pool as large as {@code --threads}. */
        HOST("world host"),
        /** A thread per world running its paced loop, simulations with 1 worker. */
        THREAD("one thread per world"),
        /** A thread per world, simulations with 2 workers (each its own executor thread). */
        EXECUTOR("one executor per world");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /**
     * One trial.
     *
     * @param mode the way
     * @param entities entities per world
     * @param worlds worlds
     * @param ticks ticks run while measuring
     * @param expected ticks asked for while measuring
     * @param lagP50 median lag, ns
     * @param lagP99 99th-percentile lag, ns
     * @param cpuPerTick process CPU time per tick, ns
     * @param tickTime mean tick duration, ns
     * @param heapPerWorld heap per world, bytes: used heap after GC with everything built and started, less
     *     the lower of the used heap before the worlds were built and after they were closed (so what an
     *     earlier trial's threads freed meanwhile does not count against them)
     * @param threads live threads while measuring
     */
    record Trial(Mode mode, int entities, int worlds, long ticks, long expected, long lagP50, long lagP99,
            double cpuPerTick, double tickTime, double heapPerWorld, int threads) {
        boolean holds(long periodNanos) {
            return lagP99 < periodNanos && ticks >= 0.95 * expected;
        }
    }

    /** The command line. */
    record Options(int[] sizes, List<Mode> modes, double hz, int threads, long warmupMs, long measureMs, int max,
            int fixedWorlds, int bisect, Path out) {
        long period() {
            return (long) (1e9 / hz);
        }
    }

    private HostCapacityReport() {
    }

    /**
     * Runs the search and prints the report.
     *
     * @param args see the class comment
     * @throws Exception when a trial fails or {@code --out} cannot be written
     */
    public static void main(String[] args) throws Exception {
        CommandLine.main(HostCapacityReport.class, args, a -> System.out.println(run(a)));
    }

    static String run(String[] args) throws Exception {
        Options o = parse(args);
        List<Trial> all = new ArrayList<>();
        List<Trial> best = new ArrayList<>();
        for (int size : o.sizes()) {
            for (Mode mode : o.modes()) {
                List<Trial> trials = o.fixedWorlds() > 0 ? List.of(trial(mode, size, o.fixedWorlds(), o))
                        : search(mode, size, o);
                all.addAll(trials);
                Trial top = null;
                for (Trial t : trials) {
                    if (t.holds(o.period()) && (top == null || t.worlds() > top.worlds())) {
                        top = t;
                    }
                }
                best.add(top != null ? top : new Trial(mode, size, 0, 0, 0, 0, 0, 0, 0, 0, 0));
            }
        }
        String header = String.format(Locale.ROOT, "%d cores, %s, %s; %.0f Hz, host pool %d threads, warm-up %d ms, "
                + "measured %d ms a trial", Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.version"), o.hz(), o.threads(), o.warmupMs(), o.measureMs());
        String md = markdown(best, all, o.period(), header);
        if (o.out() != null) {
            Files.writeString(o.out(), md, StandardCharsets.UTF_8);
        }
        return md;
    }

    /** Doubles N from the mode's start while it holds, then bisects between the last N that held and the first that did not. */
    private static List<Trial> search(Mode mode, int size, Options o) throws InterruptedException {
        List<Trial> trials = new ArrayList<>();
        int good = 0;
        int bad = 0;
        for (int n = start(mode, size); n <= o.max() && bad == 0; n *= 2) {
            if (holds(mode, size, n, o, trials)) {
                good = n;
            } else {
                bad = n;
            }
        }
        for (int step = 0; bad > 1 && (good == 0 || (step < o.bisect() && bad > good * 1.15)); step++) {
            int n = good == 0 ? bad / 2 : roundTo2Digits((int) Math.sqrt((double) good * bad)); // even the start failed: halve
            if (n <= good || n >= bad) {
                break;
            }
            if (holds(mode, size, n, o, trials)) {
                good = n;
            } else {
                bad = n;
            }
        }
        return trials;
    }

    private static boolean holds(Mode mode, int size, int n, Options o, List<Trial> trials) throws InterruptedException {
        Trial t = trial(mode, size, n, o);
        trials.add(t);
        return t.holds(o.period());
    }

    private static int start(Mode mode, int size) {
        int base = mode == Mode.HOST ? 1024 : mode == Mode.THREAD ? 256 : 64;
        return size >= 1000 ? base / 4 : base;
    }

    static int roundTo2Digits(int n) {
        int scale = 1;
        while (n / scale >= 100) {
            scale *= 10;
        }
        return Math.round((float) n / scale) * scale;
    }

    /** Builds N worlds, ticks them the given way through a warm-up and a measured stretch, and tears them down. */
    static Trial trial(Mode mode, int size, int n, Options o) throws InterruptedException {
        long heapBefore = usedHeap();
        List<Simulation> sims = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            sims.add(CapacityWorld.build(i, size, mode == Mode.EXECUTOR ? 2 : 1, o.hz()));
        }
        long expected = Math.round(n * o.hz() * o.measureMs() / 1000.0);
        Trial t = mode == Mode.HOST ? onHost(sims, size, expected, o) : onThreads(mode, sims, size, expected, o);
        long heapAfter = usedHeap(); // every world closed
        t = new Trial(t.mode(), t.entities(), t.worlds(), t.ticks(), t.expected(), t.lagP50(), t.lagP99(),
                t.cpuPerTick(), t.tickTime(), t.heapPerWorld() - Math.min(heapBefore, heapAfter) / (double) n,
                t.threads());
        System.err.printf(Locale.ROOT, "%s, %d entities, %d worlds: lag p99 %.2f ms, %.1f %% of ticks, %s%n", mode.label,
                size, n, t.lagP99() / 1e6, 100.0 * t.ticks() / Math.max(1, t.expected()),
                t.holds(o.period()) ? "holds" : "does not hold");
        return t;
    }

    /** Ticks the worlds on a host; the trial's heap per world is the used heap with them, per world (absolute). */
    private static Trial onHost(List<Simulation> sims, int size, long expected, Options o)
            throws InterruptedException {
        int n = sims.size();
        try (WorldHost host = WorldHost.builder().threads(o.threads()).threadName("capacity").build()) {
            for (int i = 0; i < n; i++) {
                host.add("w" + i, sims.get(i), o.hz(), 0, Duration.ofNanos(20_000_000 + o.period() * i / n));
            }
            double heap = usedHeap() / (double) n;
            Thread.sleep(o.warmupMs());
            host.resetStats();
            long cpu0 = processCpu();
            Thread.sleep(o.measureMs());
            TickStats s = host.stats();
            long cpu = processCpu() - cpu0;
            int threads = ManagementFactory.getThreadMXBean().getThreadCount();
            return new Trial(Mode.HOST, size, n, s.ticks(), expected, s.lagP50Nanos(), s.lagP99Nanos(),
                    cpu / (double) Math.max(1, s.ticks()), s.meanTickNanos(), heap, threads);
        } // close() closes every simulation still hosted
    }

    /** As {@link #onHost}, on a thread or an executor per world. */
    private static Trial onThreads(Mode mode, List<Simulation> sims, int size, long expected, Options o)
            throws InterruptedException {
        int n = sims.size();
        int maxSamples = (int) (o.hz() * o.measureMs() / 1000.0 * 1.5) + 16;
        PacedLoops loops = new PacedLoops(sims, o.hz(), maxSamples);
        double heap = usedHeap() / (double) n;
        Thread.sleep(o.warmupMs());
        loops.measure(true);
        long cpu0 = processCpu();
        Thread.sleep(o.measureMs());
        loops.measure(false);
        long cpu = processCpu() - cpu0;
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();
        loops.stop();
        for (Simulation sim : sims) {
            sim.bindTickThread(); // the join in stop() ordered its loop's last tick before this
            sim.close();
        }
        long[] lags = loops.sortedLags();
        return new Trial(mode, size, n, lags.length, expected, PacedLoops.percentile(lags, 0.5),
                PacedLoops.percentile(lags, 0.99), cpu / (double) Math.max(1, lags.length),
                loops.busyNanos() / (double) Math.max(1, lags.length), heap, threads);
    }

    private static long usedHeap() {
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return mem.getHeapMemoryUsage().getUsed();
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** The summary table (largest N held, per size and way) and the trial log. */
    static String markdown(List<Trial> best, List<Trial> all, long period, String header) {
        int cores = Runtime.getRuntime().availableProcessors();
        double hz = 1e9 / period;
        StringBuilder sb = new StringBuilder();
        sb.append(header).append("\n\n");
        String rate = Math.abs(hz - Math.rint(hz)) < 1e-3 ? String.valueOf((long) Math.rint(hz)) // --hz, not always 30
                : String.format(Locale.ROOT, "%.2f", hz);
        sb.append("| entities/world | way | largest N at " + rate + " Hz (p99 lag < 1 period) | lag p50 / p99 ms | "
                + "CPU µs per world-tick | tick µs | N the CPU time allows on idle cores | heap KB per world | threads |\n");
        sb.append("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (Trial t : best) {
            if (t.worlds() == 0) {
                sb.append(String.format(Locale.ROOT, "| %d | %s | none held | | | | | | |%n", t.entities(), t.mode().label));
                continue;
            }
            sb.append(String.format(Locale.ROOT, "| %d | %s | %d | %.2f / %.2f | %.1f | %.1f | %d | %.1f | %d |%n",
                    t.entities(), t.mode().label, t.worlds(), t.lagP50() / 1e6, t.lagP99() / 1e6,
                    t.cpuPerTick() / 1e3, t.tickTime() / 1e3, cpuBound(t.cpuPerTick(), cores, hz), t.heapPerWorld() / 1024,
                    t.threads()));
        }
        for (Trial h : best) {
            for (Trial e : best) {
                if (h.mode() == Mode.HOST && e.mode() == Mode.EXECUTOR && h.entities() == e.entities()
                        && e.worlds() > 0) {
                    sb.append(String.format(Locale.ROOT, "%n- %d entities: the host holds %.1fx the worlds of one "
                            + "executor per world", h.entities(), h.worlds() / (double) e.worlds()));
                }
            }
        }
        sb.append("\n\nTrials:\n\n| entities | way | N | ticks / asked | lag p50 / p99 ms | held |\n"
                + "| ---: | --- | ---: | ---: | ---: | --- |\n");
        for (Trial t : all) {
            sb.append(String.format(Locale.ROOT, "| %d | %s | %d | %d / %d | %.2f / %.2f | %s |%n", t.entities(),
                    t.mode().label, t.worlds(), t.ticks(), t.expected(), t.lagP50() / 1e6, t.lagP99() / 1e6,
                    t.holds(period) ? "yes" : "no"));
        }
        return sb.toString();
    }

    /**
     * Worlds whose CPU time per tick fills {@code cores} idle cores at {@code hz}: the capacity
     * the measured cost allows on a machine nobody else uses (the trials on a shared machine
     * measure the neighbours too, and a thread per world takes a larger share of a busy machine
     * than a pool of two).
     */
    static long cpuBound(double cpuPerTickNanos, int cores, double hz) {
        return cpuPerTickNanos > 0 ? (long) (cores * 1e9 / (cpuPerTickNanos * hz)) : 0;
    }

    /**
     * The tick rates {@code --hz} takes: below 1 Hz a trial of a few seconds sees too few ticks
     * to judge, and above 10 kHz the period (100 us) is below what sleeping and the timer can
     * pace, so the "capacity" would measure the timer (1e9 Hz is a 1 ns period).
     */
    static final double MIN_HZ = 1;
    static final double MAX_HZ = 10_000;

    static Options parse(String[] args) {
        int[] sizes = {100, 1000};
        List<Mode> modes = List.of(Mode.values());
        double hz = 30;
        int threads = Runtime.getRuntime().availableProcessors();
        long warmup = 1000;
        long measure = 2000;
        int max = 8192;
        int fixed = 0;
        int bisect = 2;
        Path out = null;
        CommandLine c = new CommandLine(args, HostCapacityReport.class, "[--sizes 100,1000] "
                + "[--modes host,thread,executor] [--hz 30] [--threads N] [--warmup-ms 1000] [--measure-ms 2000] "
                + "[--max 8192] [--worlds N] [--bisect 2] [--out FILE]",
                "Finds how many worlds of each of --sizes entities one process ticks at --hz, each way of --modes: N "
                + "doubles while it holds, up to --max,\nthen --bisect steps; --worlds N runs one trial of N worlds "
                + "instead. --threads: the host's pool (default: the cores).\n--out also writes the report to FILE.");
        while (c.next()) {
            switch (c.option()) {
                case "--sizes" -> sizes = c.intsAtLeast(1, CommandLine.ENTITIES);
                case "--modes" -> modes = modes(c.value());
                case "--hz" -> hz = c.numberBetween(MIN_HZ, MAX_HZ, "ticks per second; a period from 1 s down to "
                        + "100 us, which the paced loops can hold");
                case "--threads" -> threads = c.intAtLeast(1, CommandLine.THREADS);
                case "--warmup-ms" -> warmup = c.millis(0);
                case "--measure-ms" -> measure = c.millis(1);
                case "--max" -> max = c.intAtLeast(1, CommandLine.WORLDS);
                case "--worlds" -> fixed = c.intAtLeast(1, CommandLine.WORLDS);
                case "--bisect" -> bisect = c.intAtLeast(0, CommandLine.REPEATS);
                case "--out" -> out = c.outputFile();
                default -> throw c.unknown();
            }
        }
        long largest = java.util.Arrays.stream(sizes).max().orElse(0);
        if (fixed * largest > CommandLine.ENTITIES.max()) {
            throw CommandLine.refuse("--worlds " + fixed + " of " + largest + " entities is over "
                    + CommandLine.ENTITIES.max() + " (" + CommandLine.ENTITIES.why() + "); give fewer --worlds or smaller --sizes");
        }
        return new Options(sizes, modes, hz, threads, warmup, measure, max, fixed, bisect, out);
    }

    private static List<Mode> modes(String csv) {
        List<Mode> modes = new ArrayList<>();
        for (String m : csv.split(",", -1)) {
            try {
                modes.add(Mode.valueOf(m.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw CommandLine.refuse("--modes takes host, thread or executor separated by commas, not '" + csv + "'");
            }
        }
        return modes;
    }
}
