package dev.orrery.bench;

import dev.orrery.ecs.World;
import dev.orrery.ecs.command.CommandBuffer;
import dev.orrery.ecs.command.CommandPlayback;
import dev.orrery.ecs.command.PlaybackReport;
import dev.orrery.ecs.component.Component;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Command buffer throughput: how fast one thread records commands (target at least 50 M
 * commands/s), and how fast playback applies structural changes with per-entity batching
 * (target at least 10 M changes/s). Scores are operations per second, one operation being
 * one command.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar CommandBufferBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CommandBufferBenchmark {
    static final int N = 100_000;

    /** A value component with two fields. */
    public record Health(int hp, float armor) {
    }

    /** A tag. */
    public record Stunned() {
    }

    /** One thread's buffer, recording over a fixed set of entity ids. */
    @State(Scope.Thread)
    public static class Recording {
        final World world = new World();
        final Component<Health> health = world.component(Health.class);
        final Component<Stunned> stunned = world.component(Stunned.class);
        final CommandBuffer buffer = new CommandBuffer(0);
        final Health value = new Health(10, 0.5f);
        long[] ids;

        /** Spawns the entities the commands name. */
        @Setup
        public void setUp() {
            ids = world.entity().spawnMany(N);
        }
    }

    /** Records N commands (add with a two-field value, or add a tag), then clears. */
    @Benchmark
    @OperationsPerInvocation(N)
    public int record(Recording s) {
        CommandBuffer b = s.buffer;
        long[] ids = s.ids;
        b.clear();
        b.beginChunk(1, 0);
        for (int i = 0; i < N; i += 2) {
            b.add(ids[i], s.health, s.value);
            b.add(ids[i + 1], s.stunned);
        }
        return b.commandCount();
    }

    /** A world of N entities and a buffer recorded before each playback. */
    @State(Scope.Thread)
    public static class Applying {
        final World world = new World();
        final Component<Health> health = world.component(Health.class);
        final Component<Stunned> stunned = world.component(Stunned.class);
        final CommandBuffer buffer = new CommandBuffer(0);
        final CommandPlayback playback = new CommandPlayback();
        final Health value = new Health(10, 0.5f);
        long[] ids;
        boolean adding = true;

        /** Spawns the entities. */
        @Setup(Level.Trial)
        public void setUp() {
            ids = world.entity().spawnMany(N);
        }

        /** Records N/2 entities x 2 changes: add both columns, or remove both (alternating). */
        @Setup(Level.Invocation)
        public void record() {
            buffer.clear();
            for (int i = 0; i < N; i += 2) {
                long e = ids[i];
                if (adding) {
                    buffer.add(e, health, value);
                    buffer.add(e, stunned);
                } else {
                    buffer.remove(e, health);
                    buffer.remove(e, stunned);
                }
            }
            adding = !adding;
        }
    }

    /** Plays back N structural changes (N/2 entities, two changes each, batched into one move). */
    @Benchmark
    @OperationsPerInvocation(N)
    public PlaybackReport playback(Applying s) {
        return s.playback.apply(s.world, s.buffer);
    }
}
