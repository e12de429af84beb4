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
 * Peer workload 2: add an {@code Extra} to each of {@code entities} entities one at a time,
 * then remove it from each one at a time. The world (every entity with Position and
 * Velocity) is built once per trial, outside the timed code; a shot leaves it as it found
 * it, and every entity is checked after each shot (values intact, no {@code Extra} left).
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar PeerAddRemoveBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 20)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class PeerAddRemoveBenchmark extends PeerBenchmarkState {
    /** Which world (see {@link PeerWorld#of}); the flat baseline has no structural changes. */
    @Param({PeerWorld.ORRERY, PeerWorld.ORRERY_SPARSE, PeerWorld.DOMINION, PeerWorld.ARTEMIS})
    public String library;

    /** Builds the world once. */
    @Setup(Level.Trial)
    public void open() {
        populate(library);
    }

    /** Adds Extra to every entity, then removes it from every entity, one at a time. */
    @Benchmark
    public void addRemove() {
        world.addExtra();
        world.removeExtra();
    }
}
