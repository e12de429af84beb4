package dev.orrery.bench.structural;

import dev.orrery.bench.fixture.EcsSuite;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
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
 * The suite's add_remove: 10 000 entities holding A; one operation adds B to every one and
 * then removes it again (20 000 archetype moves), leaving the world as it found it.
 * {@code perEntity} is the suite's form ({@code World.add}/{@code remove} per entity);
 * {@code bulk} moves whole archetypes ({@code addToAll}/{@code removeFromAll}).
 * {@code plainFlags} is the nearest plain-Java structure, a per-entity presence flag and a
 * float column, a floor that no archetype store (which moves every row) reaches.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar AddRemoveBenchmark -f 1
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class AddRemoveBenchmark {
    private World world;
    private Component<EcsSuite.Scalar> b;
    private EcsSuite.Scalar bValue;
    private long[] ids;
    private Query everyone;
    private boolean[] hasB;
    private float[] bColumn;

    /** Spawns the entities with A. */
    @Setup
    public void setUp() {
        world = new World();
        Component<EcsSuite.Scalar> a = world.component(EcsSuite.Scalar.class, "A");
        b = world.component(EcsSuite.Scalar.class, "B");
        bValue = new EcsSuite.Scalar(1);
        ids = world.entity().with(a, new EcsSuite.Scalar(0)).spawnMany(EcsSuite.ITER_ENTITIES);
        everyone = world.query().with(a).build();
        hasB = new boolean[EcsSuite.ITER_ENTITIES];
        bColumn = new float[EcsSuite.ITER_ENTITIES];
    }

    /** Adds B to each entity, then removes it from each: 20 000 single-entity moves. */
    @Benchmark
    public void perEntity() {
        World w = world;
        long[] e = ids;
        for (long id : e) {
            w.add(id, b, bValue);
        }
        for (long id : e) {
            w.remove(id, b);
        }
    }

    /** The same moves, one archetype at a time. */
    @Benchmark
    public int bulk() {
        return world.addToAll(everyone, b) + world.removeFromAll(everyone, b);
    }

    /** The plain floor: set a flag and a value per entity, then clear the flag. */
    @Benchmark
    public void plainFlags() {
        boolean[] f = hasB;
        float[] v = bColumn;
        for (int i = 0; i < f.length; i++) {
            f[i] = true;
            v[i] = 1;
        }
        for (int i = 0; i < f.length; i++) {
            f[i] = false;
        }
    }
}
