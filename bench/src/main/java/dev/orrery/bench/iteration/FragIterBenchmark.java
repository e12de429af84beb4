package dev.orrery.bench.iteration;

import dev.orrery.bench.fixture.EcsSuite;
import dev.orrery.ecs.ChunkConsumer;
import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
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
 * The suite's frag_iter: 26 archetypes of 20 entities each (one of the components A..Z, all
 * one float, as named instances of {@link EcsSuite.Scalar}) that all share a Data
 * component; one pass doubles every Data. It measures the per-archetype cost of a query
 * (26 tiny chunks), not the per-entity one. {@code flatArrays} is 26 arrays of 20 floats
 * walked by a plain nested loop. Run with {@code -prof gc}: {@code orrery} allocates nothing.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar FragIterBenchmark -f 1 -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FragIterBenchmark {
    /** Archetypes, each marked by one of the letters. */
    public static final int ARCHETYPES = 26;
    /** Entities per archetype. */
    public static final int PER_ARCHETYPE = 20;

    private Query withData;
    private Field data;
    private final ChunkConsumer body = this::twice;
    private float[][] flat;

    /** Spawns 20 entities in each of the 26 archetypes {Letter, Data}. */
    @Setup
    public void setUp() {
        World world = new World();
        Component<EcsSuite.Scalar> d = world.component(EcsSuite.Scalar.class, "Data");
        for (int a = 0; a < ARCHETYPES; a++) {
            Component<EcsSuite.Scalar> letter = world.component(EcsSuite.Scalar.class, String.valueOf((char) ('A' + a)));
            world.entity().with(letter, new EcsSuite.Scalar(0)).with(d, new EcsSuite.Scalar(1)).spawnMany(PER_ARCHETYPE);
        }
        withData = world.query().with(d).build();
        data = d.field(0);
        flat = new float[ARCHETYPES][PER_ARCHETYPE];
        for (float[] f : flat) {
            Arrays.fill(f, 1);
        }
    }

    /** One pass through the query: 26 chunks of 20 rows. */
    @Benchmark
    public void orrery() {
        withData.forEachChunk(body);
    }

    private void twice(ChunkView c) {
        float[] v = c.writeFloats(data);
        for (int i = 0, n = c.size(); i < n; i++) {
            v[i] *= 2;
        }
    }

    /** The baseline: 26 flat arrays of 20 floats. */
    @Benchmark
    public void flatArrays() {
        for (float[] v : flat) {
            for (int i = 0; i < v.length; i++) {
                v[i] *= 2;
            }
        }
    }
}
