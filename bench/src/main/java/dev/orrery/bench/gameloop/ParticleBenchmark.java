package dev.orrery.bench.gameloop;

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
 * One tick of the particle scenario (see {@link Particles}) per operation, for every
 * implementation at 10 000 and 100 000 particles. The loop is built once per trial, outside
 * the timed code; after each iteration the living count must still be the population (1% died
 * and as many respawned each tick), else the run fails. The exact state is compared across
 * implementations by the tests ({@code ParticleLoopTest}).
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar ParticleBenchmark -prof gc
 * java -cp bench/target/benchmarks.jar dev.orrery.bench.gameloop.ParticleReport   # the ratios
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ParticleBenchmark {
    /** Which implementation (see {@link ParticleLoop#of}). */
    @Param({ParticleLoop.ORRERY_1, ParticleLoop.ORRERY_2, ParticleLoop.ORRERY_FAST_1, ParticleLoop.ORRERY_FAST_2,
            ParticleLoop.ARTEMIS, ParticleLoop.DOMINION, ParticleLoop.FLAT})
    public String loop;

    /** Particles alive at every tick's end. */
    @Param({"10000", "100000"})
    public int particles;

    private ParticleLoop world;

    /** Builds the loop with its population. */
    @Setup(Level.Trial)
    public void open() {
        world = ParticleLoop.of(loop, particles, Particles.SEED);
    }

    /** One tick: move, damage, reap, respawn, count. */
    @Benchmark
    public int tick() {
        world.tick();
        return world.living();
    }

    /** Fails the run when the population drifted: a lost despawn or spawn. */
    @TearDown(Level.Iteration)
    public void check() {
        if (world.living() != particles) {
            throw new IllegalStateException(world.describe() + " counted " + world.living() + " living particles, "
                    + "expected " + particles + ": as many must respawn as die each tick");
        }
    }

    /** Stops the loop's workers. */
    @TearDown(Level.Trial)
    public void close() {
        world.close();
    }
}
