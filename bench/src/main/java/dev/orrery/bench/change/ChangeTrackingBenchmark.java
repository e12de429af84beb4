package dev.orrery.bench.change;

import dev.orrery.bench.fixture.Position;
import dev.orrery.bench.fixture.Velocity;
import dev.orrery.ecs.ChunkConsumer;
import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
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
 * The gain of change tracking over {@code entities} entities of Position and Velocity in the
 * default 256 KiB chunks. (Its cost on plain iteration is IterationBenchmark's
 * {@code chunks / flatArrays} ratio, whose chunk views now stamp versions: compare it with the
 * build before change tracking.)
 *
 * <p>Each operation first writes a tenth of the entities ({@code writeTenth}
 * alone is the baseline to subtract), then reads Position and Velocity of either every
 * entity ({@code writeThenScanAll}) or only the chunks a {@code changed(pos)} filter passes
 * ({@code writeThenScanChanged}). {@code layout=clustered}: the changing tenth fills a tenth
 * of the chunks (movers grouped, as after a sort or in their own archetype);
 * {@code scattered}: every tenth row of every chunk, where chunk granularity passes every
 * chunk and gains nothing; {@code scatteredRows}: the same rows of a row-tracked Position
 * ({@code world.trackRowChanges(pos)}), written with {@code markRows} + {@code markChanged(pos, row)}
 * and read through {@code firstChanged}/{@code nextChanged}, so the changed scan visits only them.
 *
 * <pre>{@code
 * java -jar bench/target/benchmarks.jar ChangeTrackingBenchmark -f 1 -wi 3 -i 5
 * java -jar bench/target/benchmarks.jar ChangeTrackingBenchmark -p layout=scattered,scatteredRows -p work=dot,sqrt
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class ChangeTrackingBenchmark {
    /** Number of entities. */
    @Param("1000000")
    public int entities;

    /** Where the changing tenth sits: {@code clustered} (a tenth of the chunks) or {@code scattered} (every tenth row). */
    @Param({"clustered", "scattered", "scatteredRows"})
    public String layout;

    private Query all;
    private Query changed;
    private Query reader;
    /**
     * The read per row: {@code dot} (a multiply-add, memory bound) or {@code sqrt} (a square
     * root as well, about 2 ns per row: a reader that does some work per changed row).
     */
    @Param("dot")
    public String work;

    private boolean sqrt;
    private Component<Position> pos;
    private boolean rows;
    private boolean clustered;
    private Field px;
    private Field vx;
    private int tick;
    private int chunkNo;
    private double sink;
    private final ChunkConsumer writeChunk = this::writeTenth;
    private final ChunkConsumer readChunk = this::read;
    private final ChunkConsumer readChangedRows = this::readChangedRows;

    /** Builds the world, the queries and the flat arrays. */
    @Setup(Level.Trial)
    public void setUp() {
        World world = new World();
        pos = world.component(Position.class);
        rows = layout.equals("scatteredRows");
        clustered = layout.equals("clustered");
        sqrt = work.equals("sqrt");
        if (rows) {
            world.trackRowChanges(pos);
        }
        Component<Velocity> vel = world.component(Velocity.class);
        px = pos.field("x");
        vx = vel.field("x");
        world.entity().with(pos, new Position(0, 0, 0)).with(vel, new Velocity(1, 2, 3)).spawnMany(entities);
        all = world.query().with(pos, vel).build();
        reader = world.query().with(pos, vel).build();
        changed = world.query().with(vel).changed(pos).build();
        reader.forEachChunk(c -> { });
        changed.forEachChunk(c -> { });
    }

    /** Writes a tenth of the entities (the baseline the two scans add to). */
    @Benchmark
    public void writeTenth() {
        tick++;
        chunkNo = 0;
        reader.forEachChunk(writeChunk);
    }

    /** A tenth written, then every entity read. */
    @Benchmark
    public double writeThenScanAll() {
        writeTenth();
        sink = 0;
        all.forEachChunk(readChunk);
        return sink;
    }

    /** A tenth written, then only the chunks that changed read. */
    @Benchmark
    public double writeThenScanChanged() {
        writeTenth();
        sink = 0;
        changed.forEachChunk(rows ? readChangedRows : readChunk);
        return sink;
    }

    private void writeTenth(ChunkView c) {
        if (clustered) {
            if ((chunkNo++ + tick) % 10 != 0) { // whole chunks: a tenth of them, a new tenth each tick
                return;
            }
            float[] x = c.writeFloats(px);
            for (int i = 0, n = c.size(); i < n; i++) {
                x[i] += 1;
            }
            return;
        }
        if (rows) {
            c.markRows(pos);
        }
        float[] x = c.writeFloats(px);
        for (int i = tick % 10, n = c.size(); i < n; i += 10) {
            x[i] += 1;
            if (rows) {
                c.markChanged(pos, i);
            }
        }
    }

    private void readChangedRows(ChunkView c) {
        float[] x = c.readFloats(px);
        float[] u = c.readFloats(vx);
        double s = 0;
        for (int i = c.firstChanged(pos); i >= 0; i = c.nextChanged(i + 1)) {
            s += sqrt ? Math.sqrt(x[i] * x[i] + u[i] * u[i] + 1) : x[i] * u[i];
        }
        sink += s;
    }

    private void read(ChunkView c) {
        float[] x = c.readFloats(px);
        float[] u = c.readFloats(vx);
        double s = 0;
        for (int i = 0, n = c.size(); i < n; i++) {
            s += sqrt ? Math.sqrt(x[i] * x[i] + u[i] * u[i] + 1) : x[i] * u[i];
        }
        sink += s;
    }
}
