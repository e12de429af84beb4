package dev.orrery.bench.gameloop;

import dev.orrery.bench.fixture.CommandLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link ParticleBenchmark} once (every implementation, 10 000 and 100 000 particles)
 * and prints a Markdown table of the ratios within that run: each implementation's tick over
 * the flat loop's and over Orrery's (README idiom, 1 worker), its allocation per tick
 * ({@code -prof gc}), and the speed-up of 2 workers over 1.
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.orrery.bench.gameloop.ParticleReport \
 *     [--quick] [--particles 10000,100000] [--forks 1] [--no-gc] [--out FILE]
 * </pre>
 *
 * <p>{@code --quick}: 2 warm-up and 3 measured iterations of 500 ms; {@code --forks 0} runs in
 * this JVM (the tests do).
 */
public final class ParticleReport {
    /** Table order, with labels. */
    private static final String[][] LOOPS = {
        {ParticleLoop.FLAT, "flat float[] loop"},
        {ParticleLoop.ORRERY_1, "Orrery, README idiom, 1 worker"},
        {ParticleLoop.ORRERY_2, "Orrery, README idiom, 2 workers"},
        {ParticleLoop.ORRERY_FAST_1, "Orrery, spawn without records, 1 worker"},
        {ParticleLoop.ORRERY_FAST_2, "Orrery, spawn without records, 2 workers"},
        {ParticleLoop.ARTEMIS, "Artemis-odb 2.3.0"},
        {ParticleLoop.DOMINION, "Dominion 0.9.0"},
    };

    /**
     * One measured (implementation, population) pair.
     *
     * @param loop the implementation's name
     * @param particles the population
     * @param us microseconds per tick
     * @param error the 99.9 % half-width (NaN when JMH gives none)
     * @param bytes bytes allocated per tick (NaN without the GC profiler)
     */
    record Row(String loop, int particles, double us, double error, double bytes) {
    }

    private ParticleReport() {
    }

    /**
     * Runs the benchmark and prints the table.
     *
     * @param args see the class comment
     * @throws RunnerException when a benchmark fails, its living-count check included
     * @throws IOException when {@code --out} cannot be written
     */
    public static void main(String[] args) throws Exception {
        CommandLine.main(ParticleReport.class, args, a -> System.out.println(run(a)));
    }

    /** Runs the benchmark with the given options and returns the Markdown table; the options are checked first. */
    static String run(String[] args) throws RunnerException, IOException {
        boolean quick = false;
        boolean gc = true;
        String particles = "10000,100000";
        int forks = 1;
        Path out = null;
        CommandLine c = new CommandLine(args, ParticleReport.class,
                "[--quick] [--particles 10000,100000] [--forks 1] [--no-gc] [--out FILE]",
                "Runs ParticleBenchmark (every implementation, each population of --particles) in one JMH run and "
                + "prints the ratios.\n--quick: 2 warm-up and 3 measured iterations of 500 ms; --forks 0 runs in this "
                + "JVM; --no-gc leaves out the GC profiler;\n--out also writes the table to FILE.");
        while (c.next()) {
            switch (c.option()) {
                case "--quick" -> quick = true;
                case "--no-gc" -> gc = false;
                case "--particles" -> particles = Arrays.stream(c.intsAtLeast(1, CommandLine.ENTITIES))
                        .mapToObj(Integer::toString)
                        .collect(Collectors.joining(","));
                case "--forks" -> forks = c.intAtLeast(0, CommandLine.REPEATS);
                case "--out" -> out = c.outputFile();
                default -> throw c.unknown();
            }
        }
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include("dev\\.orrery\\.bench\\.gameloop\\.ParticleBenchmark")
                .param("particles", particles.split(","))
                .forks(forks)
                .shouldFailOnError(true);
        if (quick) {
            b.warmupIterations(2).measurementIterations(3)
                    .warmupTime(TimeValue.milliseconds(500)).measurementTime(TimeValue.milliseconds(500));
        }
        if (gc) {
            b.addProfiler(GCProfiler.class);
        }
        String report = markdown(rows(new Runner(b.build()).run()), String.format(Locale.ROOT,
                "JDK %s, %d CPUs visible, %s, %d fork(s)%s.", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), quick ? "quick mode" : "the class's iteration counts",
                forks, gc ? ", -prof gc" : ""));
        report += batching(particles.split(","));
        if (out != null) {
            Files.writeString(out, report, StandardCharsets.UTF_8);
        }
        return report;
    }

    /** The split Orrery's executor chose on 2 workers, after 300 ticks in this JVM, per population. */
    static String batching(String[] populations) {
        StringBuilder s = new StringBuilder("\nBatching chosen by Orrery's executor on 2 workers (README idiom, "
                + "300 ticks in the report's JVM):\n\n```\n");
        for (String p : populations) {
            try (OrreryParticles loop = (OrreryParticles) ParticleLoop.of(ParticleLoop.ORRERY_2, Integer.parseInt(p),
                    Particles.SEED)) {
                for (int t = 0; t < 300; t++) {
                    loop.tick();
                }
                s.append(p).append(" particles:\n").append(loop.batching());
            }
        }
        return s.append("```\n").toString();
    }

    /** JMH's results as rows. */
    static List<Row> rows(Collection<RunResult> results) {
        List<Row> rows = new ArrayList<>();
        for (RunResult r : results) {
            Result<?> primary = r.getPrimaryResult();
            Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
            rows.add(new Row(r.getParams().getParam("loop"), Integer.parseInt(r.getParams().getParam("particles")),
                    primary.getScore(), primary.getScoreError(), alloc == null ? Double.NaN : alloc.getScore()));
        }
        return rows;
    }

    /** The table: per population, each implementation's tick, allocation and ratios. */
    static String markdown(List<Row> rows, String header) {
        StringBuilder s = new StringBuilder("### Particle scenario: one JMH run\n\n").append(header).append("\n\n")
                .append("Microseconds per tick (99.9 % error), bytes allocated per tick, and the tick over the flat "
                        + "loop's and over Orrery's (README idiom, 1 worker) in the same run.\n\n")
                .append("| particles | implementation | us/tick | B/tick | vs flat | vs Orrery 1 worker |\n")
                .append("| ---: | --- | ---: | ---: | ---: | ---: |\n");
        List<Integer> sizes = rows.stream().map(Row::particles).distinct().sorted().toList();
        for (int n : sizes) {
            Row flat = find(rows, ParticleLoop.FLAT, n);
            Row orrery = find(rows, ParticleLoop.ORRERY_1, n);
            for (String[] l : LOOPS) {
                Row r = find(rows, l[0], n);
                if (r != null) {
                    s.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s |\n", n, l[1],
                            Double.isNaN(r.error()) ? fmt(r.us()) : fmt(r.us()) + " ± " + fmt(r.error()),
                            Double.isNaN(r.bytes()) ? "n/a" : String.format(Locale.ROOT, "%.0f", r.bytes()),
                            over(r, flat), over(r, orrery)));
                }
            }
        }
        s.append('\n');
        for (int n : sizes) {
            speedUp(s, rows, n, ParticleLoop.ORRERY_1, ParticleLoop.ORRERY_2, "README idiom");
            speedUp(s, rows, n, ParticleLoop.ORRERY_FAST_1, ParticleLoop.ORRERY_FAST_2, "spawn without records");
        }
        return s.toString();
    }

    private static void speedUp(StringBuilder s, List<Row> rows, int n, String one, String two, String label) {
        Row a = find(rows, one, n);
        Row b = find(rows, two, n);
        if (a != null && b != null) {
            s.append(String.format(Locale.ROOT, "- %d particles, Orrery %s: 2 workers %.2fx faster than 1%n", n, label,
                    a.us() / b.us()));
        }
    }

    private static Row find(List<Row> rows, String loop, int particles) {
        for (Row r : rows) {
            if (r.loop().equals(loop) && r.particles() == particles) {
                return r;
            }
        }
        return null;
    }

    private static String over(Row r, Row base) {
        return base == null ? "n/a" : String.format(Locale.ROOT, "%.2fx", r.us() / base.us());
    }

    private static String fmt(double us) {
        return String.format(Locale.ROOT, us >= 100 ? "%.0f" : us >= 10 ? "%.1f" : "%.2f", us);
    }
}
