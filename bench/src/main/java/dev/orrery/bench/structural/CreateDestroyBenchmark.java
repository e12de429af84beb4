package dev.orrery.bench.structural;

import dev.orrery.bench.fixture.EcsSuite;
import dev.orrery.bench.fixture.Position;
import dev.orrery.bench.fixture.Velocity;
import dev.orrery.ecs.EntityBuilder;
import dev.orrery.ecs.World;
import java.util.ArrayList;
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
 * The suite's simple_insert, extended to a full cycle: spawn a batch of 10 000 entities with
 * Transform, Position, Rotation and Velocity, then despawn them all, so every operation
 * leaves the world as it found it (ids are reused first-in first-out, chunks stay allocated).
 * {@code orreryBulk} spawns through {@code spawnMany}; {@code orreryOneByOne} through one
 * reused builder per entity. {@code plainObjects} is the object-per-entity way: an
 * {@code ArrayList} of 10 000 small objects holding the four records, then cleared.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar CreateDestroyBenchmark -f 1 -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CreateDestroyBenchmark {
    /** One entity as a plain object: the four components by reference. */
    public record PlainEntity(EcsSuite.Transform t, Position p, EcsSuite.Rotation r, Velocity v) {
    }

    private World world;
    private EntityBuilder builder;
    private long[] oneByOne;
    private final ArrayList<PlainEntity> plain = new ArrayList<>(EcsSuite.ITER_ENTITIES);
    private final EcsSuite.Transform t = EcsSuite.Transform.identity();
    private final Position p = new Position(1, 0, 0);
    private final EcsSuite.Rotation r = new EcsSuite.Rotation(1, 0, 0);
    private final Velocity v = new Velocity(1, 0, 0);

    /** An empty world with the four columns registered and one builder. */
    @Setup
    public void setUp() {
        world = new World();
        builder = world.entity()
                .with(world.component(EcsSuite.Transform.class), t)
                .with(world.component(Position.class), p)
                .with(world.component(EcsSuite.Rotation.class), r)
                .with(world.component(Velocity.class), v);
        oneByOne = new long[EcsSuite.ITER_ENTITIES];
    }

    /** Spawns 10 000 in one call, then despawns each. */
    @Benchmark
    public int orreryBulk() {
        long[] ids = builder.spawnMany(EcsSuite.ITER_ENTITIES);
        World w = world;
        for (long id : ids) {
            w.despawn(id);
        }
        return ids.length;
    }

    /** Spawns 10 000 one by one through the same builder, then despawns each. */
    @Benchmark
    public void orreryOneByOne() {
        long[] ids = oneByOne;
        EntityBuilder b = builder;
        for (int i = 0; i < ids.length; i++) {
            ids[i] = b.spawn();
        }
        World w = world;
        for (long id : ids) {
            w.despawn(id);
        }
    }

    /** The plain-object way: 10 000 objects into a list, then cleared. */
    @Benchmark
    public int plainObjects() {
        ArrayList<PlainEntity> list = plain;
        for (int i = 0; i < EcsSuite.ITER_ENTITIES; i++) {
            list.add(new PlainEntity(t, p, r, v));
        }
        int n = list.size();
        list.clear();
        return n;
    }
}
