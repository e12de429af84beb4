package dev.orrery.bench.gameloop;

import dev.orrery.bench.fixture.CommandLine;
import dev.orrery.bench.scaling.ScalingReport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The particle scenario across worker counts: Orrery (the README idiom and the record-free
 * respawn) on each worker count with chunk pipelines on and off, beside the flat loop on one
 * thread and on a plain parallel loop, as microseconds per tick and as speed-up over the same
 * loop on one worker. Every loop's checksum after the run must equal the 1-worker loop's, or
 * the report fails.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.orrery.bench.gameloop.ParticleScalingReport \
 *     [--particles 10000,100000] [--workers 1,2,4,8,16] [--reps 7] [--rep-ms 300] [--warmup-ms 1500]
 * </pre>
 *
 * <p>Each figure is the median of {@code --reps} repetitions of about {@code --rep-ms} of
 * ticks, after {@code --warmup-ms} of ticks on the same loop; the configurations of one
 * particle count take turns repetition by repetition, so a burst of load from elsewhere hits
 * them alike. Pipelines are switched with the {@code orrery.chunkPipelines} property, read
 * when each loop's executor is built.
 */
public final class ParticleScalingReport {
    private ParticleScalingReport() {
    }

    /** One configuration's loop and its measured repetitions. */
    private static final class Config {
        final String label;
        final int workers;
        final ParticleLoop loop;
        /** Median microseconds per tick, once measured. */
        double median = Double.NaN;

        Config(String label, int workers, ParticleLoop loop) {
            this.label = label;
            this.workers = workers;
            this.loop = loop;
        }

        double median() {
            return median;
        }
    }

    /**
     * Runs the report and prints a Markdown table per particle count.
     *
     * @param args see the class comment
     */
    public static void main(String[] args) throws Exception {
        CommandLine.main(ParticleScalingReport.class, args, ParticleScalingReport::run);
    }

    static void run(String[] args) {
        int[] particles = {10_000, 100_000};
        int[] workers = {1, 2};
        int reps = 7;
        long repMs = 300;
        long warmMs = 1500;
        CommandLine cli = new CommandLine(args, ParticleScalingReport.class, "[--particles 10000,100000] "
                + "[--workers 1,2] [--reps 7] [--rep-ms 300] [--warmup-ms 1500]",
                "The particle scenario on each worker count, Orrery with chunk pipelines on and off beside the flat "
                + "loop; each figure the median\nof --reps repetitions of about --rep-ms of ticks after --warmup-ms.");
        while (cli.next()) {
            switch (cli.option()) {
                case "--particles" -> particles = cli.intsAtLeast(1, CommandLine.ENTITIES);
                case "--workers" -> workers = cli.intsAtLeast(1, CommandLine.THREADS);
                case "--reps" -> reps = cli.intAtLeast(1, CommandLine.REPEATS);
                case "--rep-ms" -> repMs = cli.millis(1);
                case "--warmup-ms" -> warmMs = cli.millis(0);
                default -> throw cli.unknown();
            }
        }
        long repNanos = repMs * 1_000_000L;
        long warmNanos = warmMs * 1_000_000L;
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        System.out.printf(Locale.ROOT, "particle scaling, JDK %s, %d CPUs visible, workers %s, %d reps of %d ms%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), Arrays.toString(workers),
                reps, repNanos / 1_000_000);
        for (int n : particles) {
            List<Config> configs = new ArrayList<>();
            for (int w : workers) {
                for (boolean fast : new boolean[] {false, true}) {
                    for (boolean pipelines : new boolean[] {true, false}) {
                        System.setProperty("orrery.chunkPipelines", Boolean.toString(pipelines));
                        String label = "Orrery " + (fast ? "record-free respawn" : "README") + ", pipelines "
                                + (pipelines ? "on" : "off");
                        configs.add(new Config(label, w, make(() -> new OrreryParticles(11, w, fast), n)));
                    }
                }
                configs.add(new Config("flat loop, move+damage on a plain parallel loop", w,
                        make(() -> FlatParticles.parallel(11, w), n)));
            }
            System.clearProperty("orrery.chunkPipelines");
            Runnable[] ticks = new Runnable[configs.size()];
            for (int k = 0; k < ticks.length; k++) {
                ticks[k] = configs.get(k).loop::tick;
            }
            // Each configuration warms for --warmup-ms, then the repetitions interleave (ScalingReport's way).
            double[][] measured = ScalingReport.measureInterleaved(ticks, reps, repNanos, warmNanos * ticks.length, os);
            for (int k = 0; k < ticks.length; k++) {
                configs.get(k).median = measured[k][0];
            }
            check(configs);
            print(n, configs);
            for (Config c : configs) {
                c.loop.close();
            }
        }
    }

    private static ParticleLoop make(Supplier<ParticleLoop> s, int n) {
        ParticleLoop loop = s.get();
        loop.populate(n);
        return loop;
    }

    /** The loops ran different tick counts; each is re-run from scratch for a fixed count to compare checksums. */
    private static void check(List<Config> configs) {
        // Compared on fresh loops of 200 ticks each: a run's checksum depends on its tick count.
        Map<String, Long> byKind = new LinkedHashMap<>();
        for (Config c : configs) {
            String kind = c.label.startsWith("flat") ? "flat" : c.label.contains("README") ? "readme" : "fast";
            ParticleLoop fresh;
            if (kind.equals("flat")) {
                fresh = make(() -> FlatParticles.parallel(11, c.workers), 2000);
            } else {
                System.setProperty("orrery.chunkPipelines", Boolean.toString(c.label.endsWith("on")));
                fresh = make(() -> new OrreryParticles(11, c.workers, kind.equals("fast")), 2000);
                System.clearProperty("orrery.chunkPipelines");
            }
            for (int t = 0; t < 200; t++) {
                fresh.tick();
            }
            long sum = fresh.checksum();
            fresh.close();
            Long first = byKind.putIfAbsent(kind, sum);
            if (first != null && first != sum) {
                throw new IllegalStateException(c.label + " on " + c.workers + " workers gave checksum " + sum
                        + ", the first of its kind " + first);
            }
        }
    }

    private static void print(int n, List<Config> configs) {
        System.out.printf(Locale.ROOT, "%n%d particles: us per tick (median), and speed-up over the same loop on 1"
                + " worker%n%n| loop | workers | us/tick | speed-up |%n| --- | --- | --- | --- |%n", n);
        Map<String, Double> one = new LinkedHashMap<>();
        for (Config c : configs) {
            if (c.workers == 1) {
                one.put(c.label, c.median());
            }
        }
        for (Config c : configs) {
            Double base = one.get(c.label);
            System.out.printf(Locale.ROOT, "| %s | %d | %.1f | %s |%n", c.label, c.workers, c.median(),
                    base == null ? "" : String.format(Locale.ROOT, "%.2fx", base / c.median()));
        }
    }
}
