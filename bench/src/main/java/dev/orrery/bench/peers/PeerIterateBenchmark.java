package dev.orrery.bench.peers;

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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Peer workload 3: {@code p += v * dt} over {@code entities} entities, one operation per
 * pass. The world is built once per trial, outside the timed code; every entity is checked
 * after each iteration (its position is exactly the start plus the number of passes times
 * {@code v * dt}, which float arithmetic gives exactly here, see {@link PeerWorld}).
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar PeerIterateBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch"})
public class PeerIterateBenchmark extends PeerBenchmarkState {
    /** Which world (see {@link PeerWorld#of}). */
    @Param({PeerWorld.ORRERY, PeerWorld.DOMINION, PeerWorld.ARTEMIS, PeerWorld.FLAT})
    public String library;

    /** Builds the world once. */
    @Setup(Level.Trial)
    public void open() {
        populate(library);
    }

    /** One pass of {@code p += v * dt} over every entity. */
    @Benchmark
    public void move() {
        world.move();
    }
}
