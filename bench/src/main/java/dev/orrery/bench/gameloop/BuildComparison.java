package dev.orrery.bench.gameloop;

import dev.orrery.bench.fixture.CommandLine;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Compares two builds of Orrery on one particle loop inside one JVM: each build's
 * {@code benchmarks.jar} is loaded by its own class loader, and blocks of ticks alternate
 * between the two loops, so a noisy machine slows both alike. The figure to quote is the
 * median of the per-block ratios (new over old), with its interquartile range; a shared
 * machine's drift between separate JVM runs is often larger than the change being measured,
 * and this keeps it out of the ratio. Both loops must end with the same living count and
 * checksum: a change that alters the simulation is reported instead of timed.
 *
 * <pre>
 * git worktree add /tmp/old OLD_COMMIT &amp;&amp; (cd /tmp/old &amp;&amp; ./mvnw -B -q -DskipTests package -pl bench -am)
 * java -cp bench/target/benchmarks.jar dev.orrery.bench.gameloop.BuildComparison \
 *     --old /tmp/old/bench/target/benchmarks.jar --new bench/target/benchmarks.jar \
 *     [--loop orrery-fast-1] [--new-loop NAME] [--particles 10000] [--blocks 200] [--ticks 50]
 * </pre>
 *
 * <p>{@code --old} and {@code --new} also take a class path (entries separated by the
 * platform's path separator). {@code --loop} is one of {@link ParticleLoop}'s names;
 * {@code --new-loop} runs another loop on the new side ({@code --loop orrery-fast-1
 * --new-loop orrery-fast-2} with one jar twice compares worker counts in one JVM: the idle
 * side's workers park while the other side runs). A block is {@code --ticks} ticks of one
 * loop, after 3 000 warm-up ticks of each.
 *
 * <p><b>Threading:</b> a main; the loops run on the calling thread (and their executors'
 * workers).
 */
public final class BuildComparison {
    private static final int WARMUP_TICKS = 3_000;
    private static final List<String> LOOPS = List.of(ParticleLoop.ORRERY_1, ParticleLoop.ORRERY_2,
            ParticleLoop.ORRERY_FAST_1, ParticleLoop.ORRERY_FAST_2, ParticleLoop.ARTEMIS, ParticleLoop.DOMINION,
            ParticleLoop.FLAT);

    private BuildComparison() {
    }

    /**
     * Runs the comparison and prints one line.
     *
     * @param args see the class comment
     * @throws Exception when a jar cannot be loaded or a loop fails
     */
    public static void main(String[] args) throws Exception {
        CommandLine.main(BuildComparison.class, args, a -> {
            try {
                System.out.println(run(a));
            } catch (Exception | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t); // method handles declare Throwable; none other is thrown
            }
        });
    }

    static String run(String[] args) throws Throwable {
        URL[] oldJar = null;
        URL[] newJar = null;
        String loop = ParticleLoop.ORRERY_FAST_1;
        String newLoop = null;
        int particles = 10_000;
        int blocks = 200;
        int ticks = 50;
        CommandLine c = new CommandLine(args, BuildComparison.class, "--old JAR --new JAR [--loop orrery-fast-1] "
                + "[--new-loop NAME] [--particles 10000] [--blocks 200] [--ticks 50]",
                "Times one particle loop of two builds in one JVM, blocks of --ticks ticks alternating, and prints the "
                + "median new/old ratio over --blocks block pairs.\n--old and --new: a bench/target/benchmarks.jar (or "
                + "a class path); --new-loop runs another loop on the new side. Loops: " + LOOPS + ".");
        while (c.next()) {
            switch (c.option()) {
                case "--old" -> oldJar = jar(c);
                case "--new" -> newJar = jar(c);
                case "--loop" -> loop = loop(c);
                case "--new-loop" -> newLoop = loop(c);
                case "--particles" -> particles = c.intAtLeast(1, CommandLine.ENTITIES);
                case "--blocks" -> blocks = c.intAtLeast(1, CommandLine.REPEATS);
                case "--ticks" -> ticks = c.intAtLeast(1, CommandLine.TICKS);
                default -> throw c.unknown();
            }
        }
        if (oldJar == null || newJar == null) {
            throw CommandLine.refuse("give both builds: --old JAR --new JAR (each a bench/target/benchmarks.jar)");
        }
        String other = newLoop == null ? loop : newLoop;
        // try-with-resources: when the new build is refused (no ParticleLoop in it, a loop it cannot build), the old
        // one, already running its loop's worker threads in its own class loader, is closed too.
        try (Build oldBuild = new Build(oldJar, loop, particles); Build newBuild = new Build(newJar, other, particles)) {
            Build[] builds = {oldBuild, newBuild};
            for (int t = 0; t < WARMUP_TICKS; t += ticks) {
                builds[0].ticks(ticks);
                builds[1].ticks(ticks);
            }
            long[][] nanos = new long[2][blocks];
            for (int b = 0; b < blocks; b++) {
                for (int k = 0; k < 2; k++) {
                    int which = (b + k) % 2; // alternate which build goes first
                    nanos[which][b] = builds[which].ticks(ticks);
                }
            }
            long[] oldSum = builds[0].result();
            long[] newSum = builds[1].result();
            if (!Arrays.equals(oldSum, newSum)) {
                return String.format(Locale.ROOT, "the builds differ: old ends with %d living, checksum %x; new with %d, %x "
                        + "(the change alters the simulation; no timing given)", oldSum[0], oldSum[1], newSum[0], newSum[1]);
            }
            double[] ratio = new double[blocks];
            for (int b = 0; b < blocks; b++) {
                ratio[b] = (double) nanos[1][b] / nanos[0][b];
            }
            Arrays.sort(ratio);
            return String.format(Locale.ROOT, "%s, %d particles, %d blocks of %d ticks: old %.1f us/tick, new %.1f us/tick "
                    + "(medians); new/old per block pair: median %.3f, interquartile %.3f-%.3f; same living count and "
                    + "checksum", other.equals(loop) ? loop : loop + " (old) against " + other + " (new)", particles, blocks,
                    ticks, median(nanos[0]) / 1e3 / ticks,
                    median(nanos[1]) / 1e3 / ticks, ratio[blocks / 2], ratio[blocks / 4], ratio[3 * blocks / 4]);
        }
    }

    private static double median(long[] values) {
        long[] s = values.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** A build's class path: one jar, or entries separated by the platform's path separator (jars or folders). */
    private static URL[] jar(CommandLine c) throws IOException {
        String option = c.option();
        String[] entries = c.value().split(java.io.File.pathSeparator);
        URL[] urls = new URL[entries.length];
        for (int k = 0; k < entries.length; k++) {
            Path p = Path.of(entries[k]);
            if (!Files.exists(p)) {
                throw CommandLine.refuse(option + ": nothing at " + p + "; build the jar with "
                        + "./mvnw -B -q -DskipTests package -pl bench -am");
            }
            urls[k] = p.toUri().toURL();
        }
        return urls;
    }

    private static String loop(CommandLine c) {
        String option = c.option();
        String name = c.value();
        if (!LOOPS.contains(name)) {
            throw CommandLine.refuse(option + " takes one of " + LOOPS + ", not '" + name + "'");
        }
        return name;
    }

    /** One build's particle loop, loaded by its own class loader and driven through method handles. */
    private static final class Build implements AutoCloseable {
        private final URLClassLoader loader;
        private final Object loop;
        private final MethodHandle tick;
        private final MethodHandle living;
        private final MethodHandle checksum;

        Build(URL[] classPath, String name, int particles) throws Throwable {
            loader = new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader());
            Object built = null;
            try {
                Class<?> type;
                try {
                    type = loader.loadClass(ParticleLoop.class.getName());
                } catch (ClassNotFoundException e) {
                    throw CommandLine.refuse(Arrays.toString(classPath) + " holds no " + ParticleLoop.class.getName()
                            + "; give a bench/target/benchmarks.jar");
                }
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                built = lookup.findStatic(type, "of", MethodType.methodType(type, String.class, int.class, long.class))
                        .invoke(name, particles, Particles.SEED);
                tick = lookup.findVirtual(type, "tick", MethodType.methodType(void.class)).bindTo(built);
                living = lookup.findVirtual(type, "living", MethodType.methodType(int.class)).bindTo(built);
                checksum = lookup.findVirtual(type, "checksum", MethodType.methodType(long.class)).bindTo(built);
            } catch (Throwable failed) {
                // a half-built build: release its loop's workers and its class loader before passing the failure on
                try {
                    if (built instanceof AutoCloseable c) {
                        c.close();
                    }
                    loader.close();
                } catch (Exception closing) {
                    failed.addSuppressed(closing);
                }
                throw failed;
            }
            loop = built;
        }

        /** Runs {@code n} ticks; returns the nanoseconds they took. */
        long ticks(int n) throws Throwable {
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                tick.invokeExact();
            }
            return System.nanoTime() - start;
        }

        /** The living count and the checksum, read between ticks. */
        long[] result() throws Throwable {
            return new long[] {(int) living.invokeExact(), (long) checksum.invokeExact()};
        }

        @Override
        public void close() throws IOException {
            try {
                ((AutoCloseable) loop).close();
            } catch (Exception e) {
                throw new IOException("closing the particle loop of one build failed", e);
            } finally {
                loader.close();
            }
        }
    }
}
