package dev.orrery.bench.scheduling;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.executor.ParallelExecutor;
import dev.orrery.scheduler.executor.SingleThreadedExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.List;
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
 * The scheduler's cost and scaling, one tick ({@code executor.run()}) per operation:
 *
 * <ul>
 *   <li>{@code emptySystems}: 50 systems whose queries match nothing: pure scheduling
 *       overhead per tick (Bevy publishes 24 us for its equivalent; the target is 10 us).
 *   <li>{@code compute}: one system doing 64 flops per entity over 1 M entities, at 1 and
 *       2 workers: the speed-up of going parallel on compute-bound work.
 *   <li>{@code manySmallSystems}: 100 systems over 10 000 entities in 10 independent
 *       write chains: dependency tracking and hand-off at scale.
 *   <li>{@code lightSystem}: {@code x += v} over 1 K to 1 M entities, single-threaded, and
 *       parallel with the default batch and with batches forced down to one chunk: where
 *       going parallel stops paying.
 * </ul>
 *
 * <p>Run with {@code -prof gc} to see the allocation per tick ({@code gc.alloc.rate.norm}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SchedulerBenchmark {
    /** A value component of four floats. */
    public record Vec4(float x, float y, float z, float w) {
    }

    /** A one-int value component, used under many instance names. */
    public record Counter(int value) {
    }

    /** A one-float value component. */
    public record Speed(float v) {
    }

    static ScheduleExecutor executor(Schedule schedule, int workers) {
        return workers == 1 ? new SingleThreadedExecutor(SchedulerInternals.plan(schedule))
                : new ParallelExecutor(SchedulerInternals.plan(schedule), workers);
    }

    /** 50 systems whose queries match no entity. */
    @State(Scope.Benchmark)
    public static class EmptySystems {
        @Param({"1", "2"})
        public int workers;
        ScheduleExecutor executor;

        @Setup
        public void setUp() {
            World world = new World();
            Component<Counter> unused = world.component(Counter.class);
            spawnMany(world, 1000);
            Schedule.Builder b = Schedule.builder(world);
            for (int i = 0; i < 50; i++) {
                b.system("empty" + i).query(world.query().with(unused).build()).reads(unused).forEachChunk(job -> {
                });
            }
            executor = executor(b.build(), workers);
        }

        @TearDown
        public void tearDown() {
            executor.close();
        }
    }

    /** Spawns {@code n} entities with no components (ids only), for the empty-systems world. */
    private static void spawnMany(World world, int n) {
        world.entity().spawnMany(n);
    }

    /** One system, 64 flops per entity, 1 M entities. */
    @State(Scope.Benchmark)
    public static class Compute {
        @Param({"1", "2"})
        public int workers;
        @Param({"1000000"})
        public int entities;
        ScheduleExecutor executor;

        @Setup
        public void setUp() {
            World world = new World();
            Component<Vec4> vec = world.component(Vec4.class);
            world.entity().with(vec, new Vec4(1, 2, 3, 4)).spawnMany(entities);
            Field fx = vec.field("x");
            Field fy = vec.field("y");
            Field fz = vec.field("z");
            Field fw = vec.field("w");
            Schedule schedule = Schedule.builder(world)
                    .system("compute").query(world.query().with(vec).build()).writes(vec)
                    .forEachChunk(job -> compute(job.chunk(), fx, fy, fz, fw))
                    .build();
            executor = executor(schedule, workers);
        }

        @TearDown
        public void tearDown() {
            executor.close();
        }
    }

    /**
     * The compute kernel, shared with {@code scaling.SchedulerScalingReport}: 8 rounds of 4
     * multiply-adds per entity, 64 flops; rounds outside, so the row loop vectorises.
     */
    public static void compute(ChunkView c, Field fx, Field fy, Field fz, Field fw) {
        float[] x = c.writeFloats(fx);
        float[] y = c.writeFloats(fy);
        float[] z = c.writeFloats(fz);
        float[] w = c.writeFloats(fw);
        int n = c.size();
        for (int round = 0; round < 8; round++) {
            for (int i = 0; i < n; i++) {
                float xi = x[i] * 0.5f + y[i];
                float yi = y[i] * 0.5f + z[i];
                float zi = z[i] * 0.5f + w[i];
                float wi = w[i] * 0.5f + xi;
                x[i] = xi;
                y[i] = yi;
                z[i] = zi;
                w[i] = wi;
            }
        }
    }

    /** 100 systems over 10 000 entities: 10 chains of 10 systems, each chain writing its own column. */
    @State(Scope.Benchmark)
    public static class ManySmallSystems {
        @Param({"1", "2"})
        public int workers;
        ScheduleExecutor executor;

        @Setup
        public void setUp() {
            World world = new World();
            List<Component<Counter>> cols = new ArrayList<>();
            var builder = world.entity();
            for (int i = 0; i < 10; i++) {
                cols.add(world.component(Counter.class, "K" + i));
                builder.with(cols.get(i), new Counter(i));
            }
            builder.spawnMany(10_000);
            Schedule.Builder b = Schedule.builder(world);
            for (int s = 0; s < 100; s++) {
                Component<Counter> col = cols.get(s % cols.size());
                Field f = col.field(0);
                b.system("small" + s).query(world.query().with(col).build()).writes(col).forEachChunk(job -> {
                    int[] v = job.chunk().writeInts(f);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        v[i] = v[i] * 3 + 1;
                    }
                });
            }
            executor = executor(b.build(), workers);
        }

        @TearDown
        public void tearDown() {
            executor.close();
        }
    }

    /** {@code x += v}: two loads, one add, one store per entity. */
    @State(Scope.Benchmark)
    public static class LightSystem {
        @Param({"1000", "10000", "100000", "1000000"})
        public int entities;
        /** {@code single}; {@code parallel} (2 workers, default batch); {@code split} (2 workers, batch of 1 row). */
        @Param({"single", "parallel", "split"})
        public String mode;
        ScheduleExecutor executor;

        @Setup(Level.Trial)
        public void setUp() {
            World world = new World();
            Component<Vec4> pos = world.component(Vec4.class);
            Component<Speed> speed = world.component(Speed.class);
            world.entity().with(pos, new Vec4(0, 0, 0, 0)).with(speed, new Speed(1)).spawnMany(entities);
            Field px = pos.field("x");
            Field sv = speed.field("v");
            Schedule.Builder b = Schedule.builder(world);
            if (mode.equals("split")) {
                b.minBatchRows(1);
            }
            Schedule schedule = b.system("move").query(world.query().with(pos, speed).build()).reads(speed)
                    .writes(pos).forEachChunk(job -> {
                        float[] x = job.chunk().writeFloats(px);
                        float[] v = job.chunk().readFloats(sv);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            x[i] += v[i];
                        }
                    })
                    .build();
            executor = executor(schedule, mode.equals("single") ? 1 : 2);
        }

        @TearDown
        public void tearDown() {
            executor.close();
        }
    }

    /** One tick of 50 empty systems. */
    @Benchmark
    public void emptySystems(EmptySystems s) {
        s.executor.run();
    }

    /** One tick of the compute-bound system. */
    @Benchmark
    public void compute(Compute s) {
        s.executor.run();
    }

    /** One tick of 100 small systems. */
    @Benchmark
    public void manySmallSystems(ManySmallSystems s) {
        s.executor.run();
    }

    /** One tick of the light per-entity system. */
    @Benchmark
    public void lightSystem(LightSystem s) {
        s.executor.run();
    }
}
