package dev.orrery.bench.hierarchy;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The JMH form of {@link HierarchyReport}'s scenarios over the standard {@link Forest}
 * (100 000 entities): one propagation tick per implementation, and, per layout, a query pass
 * over every child and reparenting 1 000 children (there and back in alternate operations).
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar HierarchyBenchmark
 * java -jar bench/target/benchmarks.jar 'HierarchyBenchmark.propagate' -p impl=flat,level-2
 * }</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class HierarchyBenchmark {
    /** One propagation implementation over the standard forest. */
    @State(Scope.Benchmark)
    public static class Propagating {
        /** The propagation implementation (see {@link Propagation#of}). */
        @Param({Propagation.FLAT, Propagation.LEVEL_1, Propagation.LEVEL_2, Propagation.LEVEL_1_SORTED,
                Propagation.SERIAL, Propagation.SLOT_1, Propagation.SLOT_2})
        public String impl;

        Propagation propagation;

        /** Builds the forest and the implementation. */
        @Setup(Level.Trial)
        public void open() {
            propagation = Propagation.of(impl, Forest.standard());
        }

        /** Stops the implementation's workers. */
        @TearDown(Level.Trial)
        public void close() {
            propagation.close();
        }
    }

    /** Both layouts of the standard forest and the reparenting plan. */
    @State(Scope.Benchmark)
    public static class Layouts {
        TransformWorld pairs;
        FragmentingWorld fragmenting;
        int[][] plan;
        int round;

        /** Builds both layouts. */
        @Setup(Level.Trial)
        public void open() {
            Forest forest = Forest.standard();
            pairs = new TransformWorld(forest);
            fragmenting = new FragmentingWorld(forest);
            plan = forest.reparentPlan(1000);
        }
    }

    /** One propagation tick. */
    @Benchmark
    public void propagate(Propagating state) {
        state.propagation.tick();
    }

    /** A read pass over every child, Orrery's pairs (one archetype for all children). */
    @Benchmark
    public double childPassPairs(Layouts state) {
        return state.pairs.childPass();
    }

    /** The same pass, one archetype per parent's children. */
    @Benchmark
    public double childPassFragmenting(Layouts state) {
        return state.fragmenting.childPass();
    }

    /** Reparenting 1 000 children through the relation store (there, then back, in turn). */
    @Benchmark
    public void reparentPairs(Layouts state) {
        state.pairs.reparent(state.plan, state.round++);
    }

    /** Reparenting 1 000 children by archetype moves (there, then back, in turn). */
    @Benchmark
    public void reparentFragmenting(Layouts state) {
        state.fragmenting.reparent(state.plan, state.round++);
    }
}
