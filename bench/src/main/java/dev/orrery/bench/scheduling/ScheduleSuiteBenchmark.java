package dev.orrery.bench.scheduling;

import dev.orrery.bench.fixture.EcsSuite;
import dev.orrery.ecs.World;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * The suite's schedule: three systems over four archetypes of 10 000 entities each
 * ({@link EcsSuite#scheduleOf}): {@code ab} swaps A and B, {@code cd} swaps C and D,
 * {@code ce} swaps C and E; {@code ab} runs beside the other two, {@code ce} after
 * {@code cd}. {@code orrery} is one tick through {@code dev.orrery.scheduler.Schedule}'s
 * executor on {@code workers} threads, jobs of at least {@code minBatchRows} rows;
 * {@code flatArrays} is the same swaps over flat arrays, one thread (at 10 000 floats per
 * archetype the work is memory-bound and short: this is a test of scheduling overhead).
 * Run with {@code -prof gc}: a tick allocates nothing.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar ScheduleSuiteBenchmark -f 1 -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ScheduleSuiteBenchmark {
    /** The scheduled world and its executor, per thread count and batch size. */
    @State(Scope.Benchmark)
    public static class Scheduled {
        /** Threads in all, the caller included. */
        @Param({"1", "2"})
        public int workers;

        /** Smallest job in rows: 16 384 (the default) runs each system inline, 4096 splits them. */
        @Param({"16384", "4096"})
        public int minBatchRows;

        ScheduleExecutor executor;

        /** Builds the world, the schedule and its executor. */
        @Setup
        public void setUp() {
            World world = EcsSuite.scheduleWorld();
            executor = EcsSuite.scheduleOf(world, minBatchRows).executor(workers);
        }

        /** Stops the workers. */
        @TearDown
        public void tearDown() {
            executor.close();
        }
    }

    private float[][] ab;
    private float[][] cde;

    /** Fills the flat arrays as the world is filled. */
    @Setup
    public void setUp() {
        int n = EcsSuite.SCHEDULE_ENTITIES;
        ab = new float[][] {new float[4 * n], new float[4 * n]};
        Arrays.fill(ab[1], 1);
        cde = new float[][] {new float[3 * n], new float[n], new float[n]};
        Arrays.fill(cde[1], 1);
        Arrays.fill(cde[2], 1);
    }

    /** One tick through the scheduler. */
    @Benchmark
    public void orrery(Scheduled s) {
        s.executor.run();
    }

    /** The same swaps over flat arrays: A/B over all 40 000, C/D over 10 000, C/E over the next 10 000. */
    @Benchmark
    public void flatArrays() {
        int n = EcsSuite.SCHEDULE_ENTITIES;
        EcsSuite.swap(ab[0], ab[1], 4 * n);
        float[] c = cde[0];
        float[] d = cde[1];
        float[] e = cde[2];
        for (int i = 0; i < n; i++) {
            float t = c[n + i];
            c[n + i] = d[i];
            d[i] = t;
        }
        for (int i = 0; i < n; i++) {
            float t = c[2 * n + i];
            c[2 * n + i] = e[i];
            e[i] = t;
        }
    }
}
