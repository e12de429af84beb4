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
 * Peer workload 1: create {@code entities} entities one at a time, each with its own
 * Position and Velocity, into a fresh empty world (made before the shot, not timed; the
 * library's storage grows inside the shot, as it does for a user). One shot is one pass over
 * all entities; every entity is checked after each shot, outside the timed code. 10 warm-up
 * and 20 measured shots on a fixed, pre-touched 4 GiB heap, a full collection before each:
 * with a smaller heap the peers that allocate an object per entity pay for collections that
 * depend on the heap's size, not on their own work.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar PeerCreateBenchmark -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 20)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class PeerCreateBenchmark extends PeerBenchmarkState {
    /** Which world (see {@link PeerWorld#of}). */
    @Param({PeerWorld.ORRERY, PeerWorld.ORRERY_SHAPE, PeerWorld.ORRERY_ROW, PeerWorld.ORRERY_BULK, PeerWorld.DOMINION,
        PeerWorld.ARTEMIS, PeerWorld.FLAT})
    public String library;

    /** Picks the library. */
    @Setup(Level.Trial)
    public void open() {
        world = PeerWorld.of(library);
    }

    /**
     * A fresh, empty world before each shot, and one full collection, so the shot does not
     * pay for collecting the previous shot's world (JMH's own {@code -gc true} would do the
     * same, but repeats collections until the heap settles: about 0.7 s an iteration here).
     */
    @Setup(Level.Iteration)
    public void emptyWorld() {
        world.reset(entities);
        System.gc();
    }

    /** Creates every entity one by one. */
    @Benchmark
    public void create() {
        world.create(entities);
    }
}
