package dev.orrery.bench.entityindex;

import dev.orrery.bench.fixture.CommandLine;
import dev.orrery.ecs.prototype.PrototypeIndex;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What the prototype index's look-up cache buys: nanoseconds per look-up by name with the
 * (prototype, name) cache and with the plain chain walk, for three shapes of chain. Times
 * are thread CPU time, best of 30 alternating rounds, so neighbours on a shared machine
 * disturb them less than wall time (the JMH figures in {@link EntityIndexBenchmark} are
 * wall time).
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.orrery.bench.entityindex.EntityIndexLookupReport</pre>
 */
public final class EntityIndexLookupReport {
    private static final int LOOKUPS = 4096;
    private static final int PASSES = 200;
    private static final int ROUNDS = 30;

    private EntityIndexLookupReport() {
    }

    /** Prints one table row per scenario. */
    public static void main(String[] args) throws Exception {
        CommandLine.main(EntityIndexLookupReport.class, args, EntityIndexLookupReport::run);
    }

    private static void run(String[] args) {
        new CommandLine(args, EntityIndexLookupReport.class, "", "Nanoseconds per look-up by name with the prototype "
                + "index's cache and with the plain chain walk, for three shapes of chain.").positionals(0);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.println("| Scenario | Cached (ns) | Chain walk (ns) |");
        System.out.println("| --- | --- | --- |");
        String[] scenarios = {
            "75 compositions of 1-11 names, random held name",
            "11-name chain, always the oldest name",
            "40-name chain, random held name"};
        for (int scenario = 0; scenario < scenarios.length; scenario++) {
            PrototypeIndex[] indexes = {new PrototypeIndex(true), new PrototypeIndex(false)};
            int entities = scenario == 0 ? 1200 : 16;
            int[][] names = new int[entities][];
            EntityIndexWorkload w = new EntityIndexWorkload(75);
            for (int e = 0; e < entities; e++) {
                if (scenario == 0) {
                    names[e] = w.names[e % EntityIndexWorkload.COMPOSITIONS];
                } else {
                    names[e] = new int[scenario == 1 ? 11 : 40];
                    for (int k = 0; k < names[e].length; k++) {
                        names[e][k] = 0x1000 + k * 0x9E37_79B1;
                    }
                }
                for (PrototypeIndex index : indexes) {
                    for (int k = 0; k < names[e].length; k++) {
                        index.register(e, k, names[e][k]);
                    }
                }
            }
            SplittableRandom rnd = new SplittableRandom(scenario);
            int[] le = new int[LOOKUPS];
            int[] ln = new int[LOOKUPS];
            for (int i = 0; i < LOOKUPS; i++) {
                le[i] = rnd.nextInt(entities);
                ln[i] = scenario == 1 ? names[le[i]][0] : names[le[i]][rnd.nextInt(names[le[i]].length)];
            }
            long[] best = {Long.MAX_VALUE, Long.MAX_VALUE};
            long sink = 0;
            for (int round = 0; round < ROUNDS; round++) {
                for (int m = 0; m < 2; m++) {
                    long t0 = threads.getCurrentThreadCpuTime();
                    for (int pass = 0; pass < PASSES; pass++) {
                        for (int i = 0; i < LOOKUPS; i++) {
                            sink += indexes[m].find(le[i], ln[i]);
                        }
                    }
                    best[m] = Math.min(best[m], threads.getCurrentThreadCpuTime() - t0);
                }
            }
            double per = (double) PASSES * LOOKUPS;
            System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f |%n", scenarios[scenario], best[0] / per, best[1] / per);
            if (sink == 42) {
                System.out.println();
            }
        }
    }
}
