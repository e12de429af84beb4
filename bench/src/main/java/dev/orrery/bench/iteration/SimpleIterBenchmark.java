package dev.orrery.bench.iteration;

import dev.orrery.bench.fixture.EcsSuite;
import dev.orrery.bench.fixture.Position;
import dev.orrery.bench.fixture.Velocity;
import dev.orrery.ecs.ChunkConsumer;
import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Field;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The suite's simple_iter: {@code position += velocity} over 10 000 entities that hold
 * Transform, Position, Rotation and Velocity, single-threaded. {@code orrery} walks a query's
 * chunks; {@code flatArrays} is the hand-written loop over six flat arrays (the ceiling).
 * Run with {@code -prof gc}: {@code orrery} allocates nothing per pass.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar SimpleIterBenchmark -f 1 -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SimpleIterBenchmark {
    private Query moving;
    private Field px;
    private Field py;
    private Field pz;
    private Field vx;
    private Field vy;
    private Field vz;
    private final ChunkConsumer body = this::integrate;
    private float[][] flat;

    /** Spawns the entities and fills the flat arrays alike. */
    @Setup
    public void setUp() {
        World world = EcsSuite.simpleIterWorld();
        var pos = world.component(Position.class);
        var vel = world.component(Velocity.class);
        moving = world.query().with(pos, vel).build();
        px = pos.field("x");
        py = pos.field("y");
        pz = pos.field("z");
        vx = vel.field("x");
        vy = vel.field("y");
        vz = vel.field("z");
        flat = new float[6][EcsSuite.ITER_ENTITIES];
        Arrays.fill(flat[0], 1);
        Arrays.fill(flat[3], 1);
    }

    /** One pass through Orrery's query, one body call per chunk. */
    @Benchmark
    public void orrery() {
        moving.forEachChunk(body);
    }

    private void integrate(ChunkView c) {
        EcsSuite.integrate(c.writeFloats(px), c.writeFloats(py), c.writeFloats(pz),
                c.readFloats(vx), c.readFloats(vy), c.readFloats(vz), c.size());
    }

    /** The baseline: one plain loop over six flat arrays. */
    @Benchmark
    public void flatArrays() {
        float[][] f = flat;
        EcsSuite.integrate(f[0], f[1], f[2], f[3], f[4], f[5], f[0].length);
    }
}
