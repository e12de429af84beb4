package dev.orrery.bench.peers;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the three peer benchmarks share: the entity count, the world under test, the check of
 * every entity after each iteration (outside the timed code; a wrong value throws and, with
 * JMH's fail-on-error as {@link PeerReport} sets it, fails the run) and the release of the
 * world after the trial. Each subclass declares its own {@code library} values.
 *
 * <p><b>Threading:</b> JMH's benchmark thread only ({@code Scope.Benchmark}, one thread).
 */
@State(Scope.Benchmark)
public abstract class PeerBenchmarkState {
    /** Entities per world. */
    @Param("1000000")
    public int entities;

    /** The world under test, made by the subclass's trial setup. */
    protected PeerWorld world;

    /** A world of the named library holding {@code entities} checked entities (trial setup). */
    protected final void populate(String library) {
        world = PeerWorld.of(library);
        world.reset(entities);
        world.create(entities);
        world.check();
    }

    /** Every entity holds exactly its values; throws (failing the run) otherwise. */
    @TearDown(Level.Iteration)
    public void check() {
        world.check();
    }

    /** Drops the world, so the next trial's heap starts clean. */
    @TearDown(Level.Trial)
    public void close() {
        world.close();
    }
}
