package dev.orrery.bench.scaling;

import dev.orrery.bench.fixture.EcsSuite;
import dev.orrery.bench.fixture.PlainParallelLoop;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
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
 * The suite's heavy_compute (1000 entities, each 4x4 matrix inverted 100 times per tick)
 * and parallel_light_compute (10 000 entities, one inversion each), parallel within one
 * system. {@code orrery} is one tick of the schedule on {@code workers} threads;
 * {@code plainParallel} is the same kernel over 16 + 3 flat arrays, cut into one equal
 * range per thread by {@link PlainParallelLoop} with the same thread count. The ratio of
 * the two, in one run, is what the executor costs; each against its own {@code workers=1}
 * is the speed-up.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar ParallelComputeBenchmark -f 1 -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ParallelComputeBenchmark {
    /** {@code heavy_compute} or {@code parallel_light_compute}. */
    @Param({"heavy_compute", "parallel_light_compute"})
    public String workload;

    /** Threads in all, the caller included. */
    @Param({"1", "2"})
    public int workers;

    private ScheduleExecutor executor;
    private PlainParallelLoop loop;
    private PlainParallelLoop.RangeBody plainBody;
    private int entities;

    /** Builds the world, the schedule, its executor and the flat arrays. */
    @Setup
    public void setUp() {
        boolean heavy = workload.equals("heavy_compute");
        entities = heavy ? EcsSuite.HEAVY_ENTITIES : EcsSuite.LIGHT_ENTITIES;
        int inversions = heavy ? EcsSuite.HEAVY_INVERSIONS : 1;
        Schedule schedule = EcsSuite.computeSchedule(EcsSuite.computeWorld(entities), inversions, workers);
        executor = schedule.executor(workers);
        plainBody = EcsSuite.plainCompute(entities, inversions);
        loop = new PlainParallelLoop(workers);
    }

    /** Stops the threads. */
    @TearDown
    public void tearDown() {
        executor.close();
        loop.close();
    }

    /** One tick through Orrery's executor. */
    @Benchmark
    public void orrery() {
        executor.run();
    }

    /** The same work as a plain parallel loop over flat arrays. */
    @Benchmark
    public void plainParallel() {
        loop.run(plainBody, entities);
    }
}
