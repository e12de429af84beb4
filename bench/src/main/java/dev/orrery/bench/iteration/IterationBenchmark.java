package dev.orrery.bench.iteration;

import dev.orrery.bench.fixture.Position;
import dev.orrery.bench.fixture.Velocity;
import dev.orrery.ecs.ChunkConsumer;
import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.EntityConsumer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.internal.EcsInternals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * The iteration ceiling: {@code pos += vel} over {@code entities} entities, once through an
 * Orrery query's chunk views and once over six flat {@code float[]} arrays, the hand-written
 * loop the design brief names as the reference. Both run in one JMH run, so the ratio
 * {@code chunks / flatArrays} is measured under the same machine load.
 *
 * <p>{@code flatBlocks} is the control: the same flat data cut into blocks of one chunk's
 * row count, walked with the same loop. It separates what chunking itself costs (each
 * block restarts six short memory streams) from what Orrery adds on top (the query walk and
 * the chunk view's checks), so {@code chunks / flatBlocks} is Orrery's own overhead.
 * {@code chunkArrays} is the second control: the chunks' own arrays, collected once, walked
 * with that same loop, so {@code chunks / chunkArrays} is the code (query walk, view, the
 * kernel as the JIT compiles it) and {@code chunkArrays / flatBlocks} the memory layout
 * (the arrays' placement among each chunk's other arrays).
 *
 * <p>One operation is one pass over every entity. The per-entity {@link Query#forEach}
 * variant shows what the cold path costs; systems use {@link Query#forEachChunk}.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar IterationBenchmark -f 1 -wi 5 -i 5 -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class IterationBenchmark {
    /**
     * The world's chunk byte budget: 256 KiB is the default (8192 rows of Position and
     * Velocity); 16 KiB gives 512 rows, to show how the chunk length sets the ratio.
     */
    @Param({"16384", "262144"})
    public int chunkBytes;

    /** Number of entities (and of elements in each flat array). */
    @Param("1000000")
    public int entities;

    private Query moving;
    private Field px;
    private Field py;
    private Field pz;
    private Field vx;
    private Field vy;
    private Field vz;
    // Built once, so the measured call allocates no lambda, as a system's body would be.
    private final ChunkConsumer integrateChunk = this::integrate;
    private final EntityConsumer integrateEntity = this::integrate;

    private float[] fx;
    private float[] fy;
    private float[] fz;
    private float[] fvx;
    private float[] fvy;
    private float[] fvz;
    private float[][][] blocks;
    private float[][][] chunkBlocks;
    private int[] chunkSizes;

    /** Spawns the entities and fills the flat arrays with the same values. */
    @Setup(Level.Trial)
    public void setUp() {
        World world = new World(chunkBytes);
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        world.entity().with(pos, new Position(0, 0, 0)).with(vel, new Velocity(0, 0, 0)).spawnMany(entities);
        moving = world.query().with(pos, vel).build();
        px = pos.field("x");
        py = pos.field("y");
        pz = pos.field("z");
        vx = vel.field("x");
        vy = vel.field("y");
        vz = vel.field("z");
        fx = new float[entities];
        fy = new float[entities];
        fz = new float[entities];
        fvx = new float[entities];
        fvy = new float[entities];
        fvz = new float[entities];
        int[] i = {0};
        moving.forEachChunk(c -> {
            float[] a = c.writeFloats(vx);
            float[] b = c.writeFloats(vy);
            float[] d = c.writeFloats(vz);
            for (int r = 0, n = c.size(); r < n; r++, i[0]++) {
                a[r] = fvx[i[0]] = velocity(i[0], 1);
                b[r] = fvy[i[0]] = velocity(i[0], 2);
                d[r] = fvz[i[0]] = velocity(i[0], 3);
            }
        });
        if (i[0] != entities) {
            throw new IllegalStateException("query saw " + i[0] + " entities, expected " + entities);
        }
        List<float[][]> own = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        moving.forEachChunk(c -> {
            own.add(new float[][] {
                c.readFloats(px), c.readFloats(py), c.readFloats(pz), c.readFloats(vx), c.readFloats(vy), c.readFloats(vz)});
            sizes.add(c.size());
        });
        chunkBlocks = own.toArray(new float[0][][]);
        chunkSizes = sizes.stream().mapToInt(Integer::intValue).toArray();
        int rows = EcsInternals.archetypes(moving).get(0).chunkCapacity();
        blocks = new float[(entities + rows - 1) / rows][6][];
        for (int b = 0; b < blocks.length; b++) {
            int from = b * rows;
            int to = Math.min(entities, from + rows);
            float[][] src = {fx, fy, fz, fvx, fvy, fvz};
            for (int f = 0; f < 6; f++) {
                blocks[b][f] = Arrays.copyOfRange(src[f], from, to);
            }
        }
    }

    // Small, varied, never denormal: the loop must not hit slow floating-point paths.
    private static float velocity(int i, int axis) {
        return ((i * 31 + axis * 7) % 97) * 0.001f + 0.001f;
    }

    /** The reference: a hand-written loop over six flat arrays. */
    @Benchmark
    public void flatArrays() {
        float[] x = fx;
        float[] y = fy;
        float[] z = fz;
        float[] a = fvx;
        float[] b = fvy;
        float[] c = fvz;
        for (int i = 0, n = x.length; i < n; i++) {
            x[i] += a[i];
            y[i] += b[i];
            z[i] += c[i];
        }
    }

    /** The control: the flat data in blocks of one chunk's row count, the same loop per block. */
    @Benchmark
    public void flatBlocks() {
        float[][][] bs = blocks;
        for (int k = 0; k < bs.length; k++) {
            float[][] b = bs[k];
            add(b[0], b[1], b[2], b[3], b[4], b[5], b[0].length);
        }
    }

    /** The second control: the chunks' own arrays, collected once, the same loop per chunk. */
    @Benchmark
    public void chunkArrays() {
        float[][][] bs = chunkBlocks;
        int[] n = chunkSizes;
        for (int k = 0; k < bs.length; k++) {
            float[][] b = bs[k];
            add(b[0], b[1], b[2], b[3], b[4], b[5], n[k]);
        }
    }

    private static void add(float[] x, float[] y, float[] z, float[] a, float[] b, float[] c, int n) {
        for (int i = 0; i < n; i++) {
            x[i] += a[i];
            y[i] += b[i];
            z[i] += c[i];
        }
    }

    /** Orrery's hot path: one body call per chunk, a plain loop over the chunk's arrays. */
    @Benchmark
    public void chunks() {
        moving.forEachChunk(integrateChunk);
    }

    /** The cold path: one body call per entity, fetching the arrays each time. */
    @Benchmark
    public void perEntity() {
        moving.forEach(integrateEntity);
    }

    private void integrate(ChunkView c) {
        float[] x = c.writeFloats(px);
        float[] y = c.writeFloats(py);
        float[] z = c.writeFloats(pz);
        float[] a = c.readFloats(vx);
        float[] b = c.readFloats(vy);
        float[] d = c.readFloats(vz);
        for (int i = 0, n = c.size(); i < n; i++) {
            x[i] += a[i];
            y[i] += b[i];
            z[i] += d[i];
        }
    }

    private void integrate(ChunkView c, int row) {
        c.writeFloats(px)[row] += c.readFloats(vx)[row];
        c.writeFloats(py)[row] += c.readFloats(vy)[row];
        c.writeFloats(pz)[row] += c.readFloats(vz)[row];
    }
}
