package dev.orrery.bench.hierarchy;

import dev.orrery.bench.fixture.CommandLine;
import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.internal.EcsInternals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Prints the relationship figures of {@code bench/README.md} from one run in this JVM:
 *
 * <ol>
 *   <li><b>Transform propagation</b> over the {@link Forest} (100 000 entities by default):
 *       (a) Orrery's level system reading and writing by id, 1 and 2 workers; (b) Orrery's
 *       exclusive system walking the {@code Hierarchy} by id through the world; (c) a
 *       recursive walk over flat arrays; (d) Orrery in slot space ({@link SlotPropagation}:
 *       gather into arrays by slot, the level walk on them, scatter back), 1 and 2 workers.
 *       Every implementation must reach the flat walk's checksum, else the report fails.
 *       Time per tick: the median over rounds of the mean of a batch of ticks, the
 *       implementations alternating round by round.</li>
 *   <li><b>The layout choice</b>: Orrery's non-fragmenting pairs (one marker column, all
 *       children in one archetype, pairs in the relation store) against a fragmenting layout
 *       emulated on the same forest ({@link FragmentingWorld}: one archetype per parent's
 *       children): a query pass over every child, reparenting 1 000 children, and the
 *       archetype, chunk and memory counts.</li>
 * </ol>
 *
 * <pre>
 * java -cp bench/target/benchmarks.jar dev.orrery.bench.hierarchy.HierarchyReport \
 *     [--trees 1000] [--per-tree 100] [--rounds 7] [--quick]
 * </pre>
 *
 * <p>Wall-clock time on a shared machine: trust the ratios within one run, not the absolute
 * figures. {@code --quick} (the tests) uses few rounds and short batches.
 */
public final class HierarchyReport {
    private static final String[][] IMPLEMENTATIONS = {
        {Propagation.FLAT, "(c) flat arrays, recursive walk"},
        {Propagation.LEVEL_1, "(a) Orrery level system by id, 1 worker"},
        {Propagation.LEVEL_2, "(a) Orrery level system by id, 2 workers"},
        {Propagation.LEVEL_1_SORTED, "(a') the same, 1 worker, rows sorted in hierarchy order"},
        {Propagation.SERIAL, "(b) Orrery exclusive system, serial Hierarchy walk"},
        {Propagation.SLOT_1, "(d) Orrery slot space (README idiom), 1 worker"},
        {Propagation.SLOT_2, "(d) Orrery slot space (README idiom), 2 workers"},
    };

    private HierarchyReport() {
    }

    /**
     * Runs the report and prints it.
     *
     * @param args see the class comment
     */
    public static void main(String[] args) throws Exception {
        CommandLine.main(HierarchyReport.class, args, a -> System.out.println(run(a)));
    }

    /** Runs the report with the given options and returns it as Markdown; the options are checked first. */
    static String run(String[] args) {
        int trees = 1000;
        int perTree = 100;
        int rounds = 7;
        boolean quick = false;
        CommandLine c = new CommandLine(args, HierarchyReport.class, "[--trees 1000] [--per-tree 100] [--rounds 7] [--quick]",
                "Transform propagation over a forest of --trees trees of about --per-tree entities each, and the pair "
                + "layout against a fragmenting one;\nmedian of --rounds rounds; --quick uses at most 2 rounds and "
                + "short batches.");
        while (c.next()) {
            switch (c.option()) {
                case "--trees" -> trees = c.intAtLeast(1, CommandLine.ENTITIES);
                case "--per-tree" -> perTree = c.intAtLeast(1, CommandLine.ENTITIES);
                case "--rounds" -> rounds = c.intAtLeast(1, CommandLine.REPEATS);
                case "--quick" -> quick = true;
                default -> throw c.unknown();
            }
        }
        if ((long) trees * perTree > CommandLine.ENTITIES.max()) {
            throw CommandLine.refuse("--trees " + trees + " times --per-tree " + perTree + " is over "
                    + CommandLine.ENTITIES.max() + " (" + CommandLine.ENTITIES.why() + "); give smaller counts");
        }
        if (quick) {
            rounds = Math.min(rounds, 2);
        }
        Forest forest = new Forest(trees, perTree, Forest.SEED);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "JDK %s, %d CPUs visible, max heap %d MB. Forest: %s.%n%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, forest.describe()));
        propagation(s, forest, rounds, quick);
        layout(s, forest, rounds, quick);
        return s.toString();
    }

    // ---------------------------------------------------------------- propagation

    private static void propagation(StringBuilder s, Forest forest, int rounds, boolean quick) {
        int warm = quick ? 20 : 300;
        int batch = quick ? 5 : 50;
        List<Propagation> impls = new ArrayList<>();
        try {
            for (String[] l : IMPLEMENTATIONS) {
                impls.add(Propagation.of(l[0], forest));
            }
            long expected = 0;
            for (int k = 0; k < impls.size(); k++) {
                Propagation p = impls.get(k);
                for (int t = 0; t < warm; t++) {
                    p.tick();
                }
                if (k == 0) {
                    expected = p.checksum();
                } else if (p.checksum() != expected) {
                    throw new IllegalStateException(p.describe() + " computed other world transforms than the flat "
                            + "walk (checksum " + Long.toHexString(p.checksum()) + ", expected "
                            + Long.toHexString(expected) + ")");
                }
            }
            double[][] perTick = new double[impls.size()][rounds];
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < impls.size(); k++) {
                    Propagation p = impls.get(k);
                    long start = System.nanoTime();
                    for (int t = 0; t < batch; t++) {
                        p.tick();
                    }
                    perTick[k][r] = (System.nanoTime() - start) / 1e3 / batch;
                }
            }
            s.append("### Transform propagation over ").append(forest.size()).append(" entities\n\n")
                    .append("Median over ").append(rounds).append(" rounds of the mean of ").append(batch)
                    .append(" ticks, after ").append(warm).append(" warm-up ticks; all give the same world "
                            + "transforms (checksum ").append(Long.toHexString(expected)).append(").\n\n")
                    .append("| implementation | us/tick | ns/entity | vs (c) |\n| --- | ---: | ---: | ---: |\n");
            double flat = median(perTick[0]);
            for (int k = 0; k < impls.size(); k++) {
                double us = median(perTick[k]);
                s.append(String.format(Locale.ROOT, "| %s | %.0f | %.1f | %.2fx |%n", IMPLEMENTATIONS[k][1], us,
                        us * 1e3 / forest.size(), us / flat));
            }
            s.append(String.format(Locale.ROOT, "%n2 workers over 1 (level system): %.2fx faster.%n",
                    median(perTick[1]) / median(perTick[2])));
            s.append(String.format(Locale.ROOT, "2 workers over 1 (slot space): %.2fx faster. Slot space over the "
                    + "level system by id: %.2fx faster on 1 worker, %.2fx on 2.%n",
                    median(perTick[5]) / median(perTick[6]), median(perTick[1]) / median(perTick[5]),
                    median(perTick[2]) / median(perTick[6])));
            LevelPropagation two = (LevelPropagation) impls.get(2);
            s.append("\nBatching chosen on 2 workers, level system:\n\n```\n").append(two.batching())
                    .append("```\n\nBatching chosen on 2 workers, slot space:\n\n```\n")
                    .append(((SlotPropagation) impls.get(6)).batching()).append("```\n\n");
        } finally {
            for (Propagation p : impls) {
                p.close();
            }
        }
    }

    // ---------------------------------------------------------------- layout

    private static void layout(StringBuilder s, Forest forest, int rounds, boolean quick) {
        int passes = quick ? 5 : 200;
        int reparents = passes / 5 * 2 + 2; // even: there and back again
        int moves = Math.min(1000, forest.size() / 2);
        int[][] plan = forest.reparentPlan(moves);
        long before = usedHeapAfterGc();
        TransformWorld pairs = new TransformWorld(forest);
        long between = usedHeapAfterGc(); // after the first world, before the second
        long pairsHeap = between - before;
        FragmentingWorld frag = new FragmentingWorld(forest);
        long fragHeap = usedHeapAfterGc() - between;
        double[][] pass = new double[2][rounds];
        double[][] move = new double[2][rounds];
        double check = 0;
        for (int r = 0; r < rounds + 1; r++) { // round 0 warms up
            for (int k = 0; k < 2; k++) {
                long start = System.nanoTime();
                for (int i = 0; i < passes; i++) {
                    check += k == 0 ? pairs.childPass() : frag.childPass();
                }
                double passUs = (System.nanoTime() - start) / 1e3 / passes;
                start = System.nanoTime();
                for (int i = 0; i < reparents; i++) {
                    if (k == 0) {
                        pairs.reparent(plan, i);
                    } else {
                        frag.reparent(plan, i);
                    }
                }
                double moveUs = (System.nanoTime() - start) / 1e3 / reparents;
                if (r > 0) {
                    pass[k][r - 1] = passUs;
                    move[k][r - 1] = moveUs;
                }
            }
        }
        if (Double.isNaN(check)) {
            throw new IllegalStateException("no pass ran");
        }
        long rebuild = rebuildNanos(pairs, quick ? 5 : 50);
        long[] a = layoutOf(pairs.world);
        long[] b = layoutOf(frag.world);
        s.append("### Pairs without fragmentation (Orrery) vs one archetype per parent (emulated)\n\n")
                .append("Same forest; the fragmenting side gives each parent's children their own archetype (a "
                        + "distinct combination of ").append(frag.tagCount).append(" tags per parent). Query pass: one "
                        + "read over every child's local and world x (median of ").append(rounds).append(" rounds of ")
                .append(passes).append(" passes). Reparent: ").append(moves).append(" children to a root in another "
                        + "tree (relations().add on the exclusive ChildOf, a marker write; vs world.moveTo to the new "
                        + "parent's archetype and a parent-column write). Heap: used heap after GC, before and after "
                        + "building the world. Column bytes: every chunk's row capacity times its row width (entity "
                        + "id and fields).\n\n")
                .append("| | Orrery pairs (non-fragmenting) | fragmenting (emulated) | fragmenting / Orrery |\n")
                .append("| --- | ---: | ---: | ---: |\n");
        row(s, "query pass over all children, us", median(pass[0]), median(pass[1]));
        row(s, "reparent " + moves + " children, us", median(move[0]), median(move[1]));
        row(s, "archetypes (with rows)", a[1], b[1]);
        row(s, "chunks", a[2], b[2]);
        row(s, "column bytes, MB", a[3] / 1048576.0, b[3] / 1048576.0);
        row(s, "heap of the world, MB", pairsHeap / 1048576.0, fragHeap / 1048576.0);
        s.append(String.format(Locale.ROOT, "%nThe non-fragmenting side pays instead when the pairs change: the "
                + "next walk rebuilds the Hierarchy order, %.0f us for %d entities (median of %d rebuilds).%n",
                rebuild / 1e3, forest.size(), quick ? 5 : 50));
    }

    private static void row(StringBuilder s, String what, double ours, double frag) {
        String fmt = ours >= 100 || frag >= 100 ? "%.0f" : "%.1f";
        s.append(String.format(Locale.ROOT, "| %s | " + fmt + " | " + fmt + " | %.2fx |%n", what, ours, frag,
                frag / ours));
    }

    /** Median time of a Hierarchy rebuild after one pair changed, in ns. */
    private static long rebuildNanos(TransformWorld t, int n) {
        long[] times = new long[n];
        int[][] plan = t.forest.reparentPlan(1);
        for (int i = 0; i < n; i++) {
            t.reparent(plan, i);
            long start = System.nanoTime();
            t.world.relations().hierarchy(t.childOf);
            times[i] = System.nanoTime() - start;
        }
        Arrays.sort(times);
        return times[n / 2];
    }

    /** {all archetypes, archetypes with rows, chunks, column bytes} of {@code world}. */
    static long[] layoutOf(World world) {
        long[] out = new long[4];
        var archetypes = EcsInternals.storage(world).archetypes();
        out[0] = archetypes.count();
        for (int id = 0; id < archetypes.count(); id++) {
            Archetype a = archetypes.get(id);
            if (a.size() > 0) {
                out[1]++;
            }
            long width = Long.BYTES;
            for (Component<?> c : a.components()) {
                ComponentType<?> type = c.type();
                for (int f = 0; f < type.fieldCount(); f++) {
                    width += type.fieldType(f).bytes();
                }
            }
            for (int c = 0; c < a.chunkCount(); c++) {
                Chunk chunk = a.chunk(c);
                out[2]++;
                out[3] += chunk.capacity() * width;
            }
        }
        return out;
    }

    private static long usedHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            best = Math.min(best, rt.totalMemory() - rt.freeMemory());
        }
        return best;
    }

    private static double median(double[] xs) {
        double[] c = xs.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }
}
