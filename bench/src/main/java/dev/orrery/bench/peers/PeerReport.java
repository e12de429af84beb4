package dev.orrery.bench.peers;

import dev.orrery.bench.fixture.CommandLine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the three peer benchmarks ({@link PeerCreateBenchmark}, {@link PeerAddRemoveBenchmark},
 * {@link PeerIterateBenchmark}) in one JMH run, every library in the order JMH gives them, and
 * prints a Markdown table: per workload, each library's time per million entities, the bytes
 * it allocated per entity (JMH's {@code gc.alloc.rate.norm} over the entity count) and its
 * time over Orrery's ({@code Dominion / Orrery = 1.7x}: above 1, Orrery is faster).
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.orrery.bench.peers.PeerReport \
 *     [--quick] [--entities 1000000] [--forks 1] [--no-gc] [--out FILE]
 * </pre>
 *
 * <p>{@code --quick} runs 1 warm-up and 2 measured iterations of 200 ms (or shots) instead of
 * the classes' own counts; {@code --forks 0} runs in this JVM (the tests do; the fixed heap
 * of the classes' {@code @Fork} then does not apply); {@code --no-gc} leaves out the GC
 * profiler; {@code --out} also writes the table to a file. A failed correctness check fails
 * the whole run (JMH's fail-on-error), so a table only ever shows checked results.
 */
public final class PeerReport {
    /** The workloads, by benchmark method name, in table order, with their labels. */
    private static final String[][] WORKLOADS = {
        {"create", "create one by one (Position + Velocity)"},
        {"addRemove", "add Extra to each, then remove it, one by one"},
        {"move", "iterate p += v * dt"},
    };

    /** Library parameter values in table order, with their table labels. */
    private static final String[][] LIBRARIES = {
        {PeerWorld.ORRERY, "Orrery"},
        {PeerWorld.ORRERY_SHAPE, "Orrery (prepared Shape, records)"},
        {PeerWorld.ORRERY_ROW, "Orrery (Shape row, no records)"},
        {PeerWorld.ORRERY_SPARSE, "Orrery (sparse Extra)"},
        {PeerWorld.ORRERY_BULK, "Orrery (Shape.spawnMany with a writer, bulk)"},
        {PeerWorld.DOMINION, "Dominion"},
        {PeerWorld.ARTEMIS, "Artemis"},
        {PeerWorld.FLAT, "flat float[]"},
    };

    /**
     * One measured (workload, library) pair, already per million entities.
     *
     * @param workload the benchmark method name ({@code create}, {@code addRemove}, {@code move})
     * @param library the library parameter value
     * @param ms milliseconds per million entities
     * @param error the 99.9 % half-width, same unit (NaN when JMH gives none)
     * @param bytesPerEntity bytes allocated per entity (NaN without the GC profiler)
     */
    record Row(String workload, String library, double ms, double error, double bytesPerEntity) {
    }

    private PeerReport() {
    }

    /**
     * Runs the comparison and prints the table.
     *
     * @param args see the class comment
     * @throws RunnerException when a benchmark fails, its correctness check included
     * @throws IOException when {@code --out} cannot be written
     */
    public static void main(String[] args) throws Exception {
        CommandLine.main(PeerReport.class, args, a -> System.out.println(run(a)));
    }

    /** Runs the comparison with the given options and returns the Markdown report; the options are checked first. */
    static String run(String[] args) throws RunnerException, IOException {
        int entities = 1_000_000;
        boolean quick = false;
        boolean gc = true;
        int forks = 1;
        Path out = null;
        CommandLine c = new CommandLine(args, PeerReport.class,
                "[--quick] [--entities 1000000] [--forks 1] [--no-gc] [--out FILE]",
                "Runs the peer benchmarks (create, add+remove, iterate) for every library in one JMH run and prints a "
                + "table per million entities.\n--quick: 1 warm-up and 2 measured iterations of 200 ms; --forks 0 runs "
                + "in this JVM; --no-gc leaves out the GC profiler;\n--out also writes the table to FILE.");
        while (c.next()) {
            switch (c.option()) {
                case "--quick" -> quick = true;
                case "--no-gc" -> gc = false;
                case "--entities" -> entities = c.intAtLeast(1, CommandLine.ENTITIES);
                case "--forks" -> forks = c.intAtLeast(0, CommandLine.REPEATS);
                case "--out" -> out = c.outputFile();
                default -> throw c.unknown();
            }
        }
        ChainedOptionsBuilder b = new OptionsBuilder()
                .include("dev\\.orrery\\.bench\\.peers\\.Peer(Create|AddRemove|Iterate)Benchmark")
                .param("entities", Integer.toString(entities))
                .forks(forks)
                .shouldFailOnError(true);
        if (quick) {
            b.warmupIterations(1).measurementIterations(2)
                    .warmupTime(TimeValue.milliseconds(200)).measurementTime(TimeValue.milliseconds(200));
        }
        if (gc) {
            b.addProfiler(GCProfiler.class);
        }
        Collection<RunResult> results = new Runner(b.build()).run();
        String header = String.format(Locale.ROOT,
                "%s, JDK %s, %d CPUs visible, %s entities, %s, %d fork(s)%s.",
                ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")),
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), entities,
                quick ? "quick mode (1 warm-up + 2 measured iterations)" : "the classes' iteration counts",
                forks, gc ? ", -prof gc" : "");
        String report = markdown(rows(results, entities), header);
        if (out != null) {
            Files.writeString(out, report, StandardCharsets.UTF_8);
        }
        return report;
    }

    /** Turns JMH's results into rows per million entities. */
    static List<Row> rows(Collection<RunResult> results, int entities) {
        double perMillion = 1e6 / entities;
        List<Row> rows = new ArrayList<>();
        for (RunResult r : results) {
            String bench = r.getParams().getBenchmark();
            String method = bench.substring(bench.lastIndexOf('.') + 1);
            Result<?> primary = r.getPrimaryResult();
            if (!"ms/op".equals(primary.getScoreUnit())) {
                throw new IllegalStateException(bench + " reports " + primary.getScoreUnit()
                        + "; the peer benchmarks must keep @OutputTimeUnit(MILLISECONDS)");
            }
            Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
            rows.add(new Row(method, r.getParams().getParam("library"), primary.getScore() * perMillion,
                    primary.getScoreError() * perMillion,
                    alloc == null ? Double.NaN : alloc.getScore() / entities));
        }
        return rows;
    }

    /** The Markdown table: one line per (workload, library), in the fixed orders above. */
    static String markdown(List<Row> rows, String header) {
        Map<String, Row> byKey = new HashMap<>();
        for (Row r : rows) {
            byKey.put(r.workload() + "/" + r.library(), r);
        }
        StringBuilder s = new StringBuilder("### Peer comparison: one JMH run\n\n").append(header).append("\n\n")
                .append("Time per million entities (99.9 % error); allocation per entity from `-prof gc` (n/a without it) "
                        + "(setup and checks included, both kept allocation-free or amortised); the last column "
                        + "is the library's time over Orrery's in the same workload (above 1: Orrery is faster).\n\n")
                .append("| workload | library | ms per 1 M | B/entity | vs Orrery |\n")
                .append("| --- | --- | ---: | ---: | --- |\n");
        for (String[] w : WORKLOADS) {
            Row orrery = byKey.get(w[0] + "/" + PeerWorld.ORRERY);
            for (String[] lib : LIBRARIES) {
                Row r = byKey.get(w[0] + "/" + lib[0]);
                if (r == null) {
                    continue;
                }
                String vs;
                if (lib[0].equals(PeerWorld.ORRERY)) {
                    vs = "reference";
                } else if (orrery == null) {
                    vs = "n/a (no Orrery result)";
                } else {
                    vs = String.format(Locale.ROOT, "%s / Orrery = %s", lib[1], ratio(r.ms() / orrery.ms()));
                }
                s.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |\n", w[1], lib[1],
                        time(r.ms(), r.error()), bytes(r.bytesPerEntity()), vs));
            }
        }
        return s.toString();
    }

    private static String ratio(double x) {
        return String.format(Locale.ROOT, x >= 10 ? "%.0fx" : x >= 0.1 ? "%.2fx" : "%.3fx", x);
    }

    private static String time(double ms, double error) {
        String v = String.format(Locale.ROOT, ms >= 100 ? "%.0f" : ms >= 10 ? "%.1f" : "%.2f", ms);
        return Double.isNaN(error) ? v : v + " ± " + String.format(Locale.ROOT, ms >= 100 ? "%.0f" : "%.2g", error);
    }

    private static String bytes(double b) {
        return Double.isNaN(b) ? "n/a" : String.format(Locale.ROOT, b >= 10 ? "%.0f" : "%.1f", b);
    }
}
