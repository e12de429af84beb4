package dev.orrery.bench.structural;

import dev.orrery.bench.fixture.Health;
import dev.orrery.bench.fixture.Position;
import dev.orrery.bench.fixture.Velocity;
import dev.orrery.ecs.EntityBuilder;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Structural changes on {@value #N} entities: spawning them one by one and in bulk,
 * adding and removing a component, and despawning them.
 *
 * <p>Spawn and despawn change the world for good, so each is measured as one shot
 * ({@link Mode#SingleShotTime}, milliseconds per million entities) on a world prepared
 * before the shot, outside the timing: an empty world for the spawns, a world holding the
 * {@value #N} entities for despawn. Add-then-remove returns the world to the state it found
 * (every entity back in the {Position, Velocity} archetype, in id order), so it is measured
 * as {@link Mode#Throughput} over one world, one operation per move; the score is moves per
 * second, and the tear-down checks the world really came back.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar StructuralBenchmark -f 1
 * }</pre>
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g"})
public class StructuralBenchmark {
    /** Entities per operation. */
    public static final int N = 1_000_000;

    /** A fresh world with the two component columns registered and no entities. */
    @State(Scope.Thread)
    public static class EmptyWorld {
        World world;
        Component<Position> pos;
        Component<Velocity> vel;
        Position p;
        Velocity v;

        /** Builds a new world before each shot. */
        @Setup(Level.Iteration)
        public void setUp() {
            world = new World();
            pos = world.component(Position.class);
            vel = world.component(Velocity.class);
            p = new Position(1, 2, 3);
            v = new Velocity(0.1f, 0.2f, 0.3f);
        }
    }

    /** A fresh world holding {@value #N} entities with Position and Velocity. */
    @State(Scope.Thread)
    public static class FullWorld {
        World world;
        Component<Health> health;
        long[] ids;
        Query everyone;

        /** Builds the world before each shot (despawn) or each iteration (add/remove). */
        @Setup(Level.Iteration)
        public void setUp() {
            world = new World();
            Component<Position> pos = world.component(Position.class);
            Component<Velocity> vel = world.component(Velocity.class);
            health = world.component(Health.class);
            everyone = null;
            ids = world.entity().with(pos, new Position(1, 2, 3)).with(vel, new Velocity(0.1f, 0.2f, 0.3f))
                    .spawnMany(N);
        }

        /** Checks an add-then-remove pass left every entity where it started. */
        @TearDown(Level.Iteration)
        public void check() {
            if (world.entityCount() == 0) {
                return; // despawn ran
            }
            if (world.entityCount() != N || EcsInternals.archetypeOf(world, ids[0]).size() != N || world.has(ids[N - 1], health)) {
                throw new IllegalStateException("add/remove did not restore the world: " + world.entityCount()
                        + " entities, " + EcsInternals.archetypeOf(world, ids[0]));
            }
        }
    }

    /** One entity per call through {@code World.spawn(Object...)}: the convenient, slow way. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public void spawnOneByOne(EmptyWorld s, Blackhole bh) {
        World w = s.world;
        Position p = s.p;
        Velocity v = s.v;
        for (int i = 0; i < N; i++) {
            bh.consume(w.spawn(p, v));
        }
    }

    /** One entity per call through one reused {@link EntityBuilder} (its archetype is resolved once). */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public void spawnOneByOneBuilder(EmptyWorld s, Blackhole bh) {
        EntityBuilder b = s.world.entity().with(s.pos, s.p).with(s.vel, s.v);
        for (int i = 0; i < N; i++) {
            bh.consume(b.spawn());
        }
    }

    /** All entities in one {@link EntityBuilder#spawnMany} call. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public long[] spawnBulk(EmptyWorld s) {
        return s.world.entity().with(s.pos, s.p).with(s.vel, s.v).spawnMany(N);
    }

    /** Despawns every entity in id order (each removal moves the archetype's last row into the hole). */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public void despawn(FullWorld s) {
        World w = s.world;
        long[] ids = s.ids;
        for (int i = 0; i < N; i++) {
            w.despawn(ids[i]);
        }
    }

    /** Adds Health to every entity, then removes it from every entity: 2 N archetype moves. */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(2 * N)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public void addRemove(FullWorld s) {
        World w = s.world;
        Component<Health> h = s.health;
        long[] ids = s.ids;
        for (int i = 0; i < N; i++) {
            w.add(ids[i], h);
        }
        for (int i = 0; i < N; i++) {
            w.remove(ids[i], h);
        }
    }

    /**
     * The same 2 N moves through the bulk API ({@code World.addToAll} / {@code removeFromAll}
     * over a query): whole archetypes move in blocks of rows instead of one entity at a time.
     */
    @Benchmark
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @OperationsPerInvocation(2 * N)
    @Warmup(iterations = 3, time = 2)
    @Measurement(iterations = 5, time = 2)
    public int addRemoveBulk(FullWorld s) {
        World w = s.world;
        if (s.everyone == null) {
            s.everyone = w.query().build();
        }
        return w.addToAll(s.everyone, s.health) + w.removeFromAll(s.everyone, s.health);
    }
}
