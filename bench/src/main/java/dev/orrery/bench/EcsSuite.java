package dev.orrery.bench;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.query.ChunkView;
import dev.orrery.ecs.query.Query;
import dev.orrery.scheduler.Schedule;

/**
 * The shared pieces of the standard ECS workloads (the ones the community's ecs_bench_suite
 * runs against Bevy, Legion, specs and others): their components, their kernels, and the
 * worlds and schedules they run on. The JMH benchmarks ({@code SimpleIterBenchmark},
 * {@code FragIterBenchmark}, {@code ScheduleSuiteBenchmark}, {@code ParallelComputeBenchmark},
 * {@code AddRemoveBenchmark}, {@code CreateDestroyBenchmark}) and {@link ScalingReport}
 * build from here, so the report measures exactly what the suite measures.
 *
 * <p>Each kernel works on primitive arrays and a row range, so the Orrery system (a chunk's
 * arrays) and the plain-Java baseline (flat arrays) run the same arithmetic.
 */
public final class EcsSuite {
    /** Entities in simple_iter, add_remove and create/destroy, as in the suite. */
    public static final int ITER_ENTITIES = 10_000;
    /** Entities in heavy_compute, as in the suite. */
    public static final int HEAVY_ENTITIES = 1_000;
    /** Matrix inversions per entity per tick in heavy_compute. */
    public static final int HEAVY_INVERSIONS = 100;
    /** Entities in parallel_light_compute, as in the suite. */
    public static final int LIGHT_ENTITIES = 10_000;
    /** Entities per archetype in the schedule workload, as in the suite. */
    public static final int SCHEDULE_ENTITIES = 10_000;
    /**
     * The chunk byte budget of the compute worlds. A job is a run of whole chunks, so with
     * the default 256 KiB budget (2048 rows here) 1000 entities fit in one chunk, which is
     * one job on one thread; 16 KiB (128 rows of the 100-byte row here)
     * gives eight chunks, enough to balance two to four threads.
     */
    public static final int COMPUTE_CHUNK_BYTES = 16_384;

    private EcsSuite() {
    }

    /** A 4x4 float matrix, row-major ({@code mRC}): the suite's Transform, and heavy_compute's matrix. */
    public record Transform(float m00, float m01, float m02, float m03,
                            float m10, float m11, float m12, float m13,
                            float m20, float m21, float m22, float m23,
                            float m30, float m31, float m32, float m33) {
        /** The identity. */
        public static Transform identity() {
            return new Transform(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1);
        }

        /** A rotation by {@code angle} radians about the x axis (the suite starts from 1.2). */
        public static Transform rotationX(float angle) {
            float c = (float) Math.cos(angle);
            float s = (float) Math.sin(angle);
            return new Transform(1, 0, 0, 0, 0, c, -s, 0, 0, s, c, 0, 0, 0, 0, 1);
        }
    }

    /** An orientation as three angles: the suite's Rotation. */
    public record Rotation(float x, float y, float z) {
    }

    /** One float: the suite's A..E components of the schedule workload and frag_iter's Data. */
    public record Scalar(float v) {
    }

    /** The 16 field handles of a {@link Transform} column, in row-major order. */
    public static Field[] matrixFields(Component<Transform> t) {
        Field[] f = new Field[16];
        for (int i = 0; i < 16; i++) {
            f[i] = t.field(i);
        }
        return f;
    }

    // ---- simple_iter -------------------------------------------------------------------

    /** simple_iter's kernel: {@code pos += vel} over rows {@code [0, n)}. */
    public static void integrate(float[] x, float[] y, float[] z, float[] vx, float[] vy, float[] vz, int n) {
        for (int i = 0; i < n; i++) {
            x[i] += vx[i];
            y[i] += vy[i];
            z[i] += vz[i];
        }
    }

    /** simple_iter's world: {@link #ITER_ENTITIES} entities of Transform, Position, Rotation, Velocity. */
    public static World simpleIterWorld() {
        World world = new World();
        world.entity()
                .with(world.component(Transform.class), Transform.identity())
                .with(world.component(Position.class), new Position(1, 0, 0))
                .with(world.component(Rotation.class), new Rotation(1, 0, 0))
                .with(world.component(Velocity.class), new Velocity(1, 0, 0))
                .spawnMany(ITER_ENTITIES);
        return world;
    }

    // ---- heavy_compute and parallel_light_compute ----------------------------------------

    /**
     * heavy_compute's kernel, for rows {@code [from, to)}: inverts each row's matrix
     * {@code inversions} times, stores it, and transforms the position by it. The matrix
     * lives in 16 locals, so nothing is allocated; an even count gives back the matrix it
     * started from (up to rounding), so values stay bounded over any number of ticks.
     *
     * @param m the 16 matrix arrays, row-major
     */
    public static void invertAndTransform(float[][] m, float[] px, float[] py, float[] pz, int from, int to,
            int inversions) {
        float[] m00 = m[0], m01 = m[1], m02 = m[2], m03 = m[3];
        float[] m10 = m[4], m11 = m[5], m12 = m[6], m13 = m[7];
        float[] m20 = m[8], m21 = m[9], m22 = m[10], m23 = m[11];
        float[] m30 = m[12], m31 = m[13], m32 = m[14], m33 = m[15];
        for (int i = from; i < to; i++) {
            float a00 = m00[i], a01 = m01[i], a02 = m02[i], a03 = m03[i];
            float a10 = m10[i], a11 = m11[i], a12 = m12[i], a13 = m13[i];
            float a20 = m20[i], a21 = m21[i], a22 = m22[i], a23 = m23[i];
            float a30 = m30[i], a31 = m31[i], a32 = m32[i], a33 = m33[i];
            for (int k = 0; k < inversions; k++) {
                // 2x2 minors of the top two rows (s) and of the bottom two rows (c)
                float s0 = a00 * a11 - a10 * a01;
                float s1 = a00 * a12 - a10 * a02;
                float s2 = a00 * a13 - a10 * a03;
                float s3 = a01 * a12 - a11 * a02;
                float s4 = a01 * a13 - a11 * a03;
                float s5 = a02 * a13 - a12 * a03;
                float c0 = a20 * a31 - a30 * a21;
                float c1 = a20 * a32 - a30 * a22;
                float c2 = a20 * a33 - a30 * a23;
                float c3 = a21 * a32 - a31 * a22;
                float c4 = a21 * a33 - a31 * a23;
                float c5 = a22 * a33 - a32 * a23;
                float det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
                if (det == 0) {
                    break; // singular: the suite unwraps here; keep the matrix as it is
                }
                float r = 1f / det;
                float b00 = (a11 * c5 - a12 * c4 + a13 * c3) * r;
                float b01 = (-a01 * c5 + a02 * c4 - a03 * c3) * r;
                float b02 = (a31 * s5 - a32 * s4 + a33 * s3) * r;
                float b03 = (-a21 * s5 + a22 * s4 - a23 * s3) * r;
                float b10 = (-a10 * c5 + a12 * c2 - a13 * c1) * r;
                float b11 = (a00 * c5 - a02 * c2 + a03 * c1) * r;
                float b12 = (-a30 * s5 + a32 * s2 - a33 * s1) * r;
                float b13 = (a20 * s5 - a22 * s2 + a23 * s1) * r;
                float b20 = (a10 * c4 - a11 * c2 + a13 * c0) * r;
                float b21 = (-a00 * c4 + a01 * c2 - a03 * c0) * r;
                float b22 = (a30 * s4 - a31 * s2 + a33 * s0) * r;
                float b23 = (-a20 * s4 + a21 * s2 - a23 * s0) * r;
                float b30 = (-a10 * c3 + a11 * c1 - a12 * c0) * r;
                float b31 = (a00 * c3 - a01 * c1 + a02 * c0) * r;
                float b32 = (-a30 * s3 + a31 * s1 - a32 * s0) * r;
                float b33 = (a20 * s3 - a21 * s1 + a22 * s0) * r;
                a00 = b00; a01 = b01; a02 = b02; a03 = b03;
                a10 = b10; a11 = b11; a12 = b12; a13 = b13;
                a20 = b20; a21 = b21; a22 = b22; a23 = b23;
                a30 = b30; a31 = b31; a32 = b32; a33 = b33;
            }
            m00[i] = a00; m01[i] = a01; m02[i] = a02; m03[i] = a03;
            m10[i] = a10; m11[i] = a11; m12[i] = a12; m13[i] = a13;
            m20[i] = a20; m21[i] = a21; m22[i] = a22; m23[i] = a23;
            m30[i] = a30; m31[i] = a31; m32[i] = a32; m33[i] = a33;
            float x = px[i], y = py[i], z = pz[i];
            px[i] = a00 * x + a01 * y + a02 * z;
            py[i] = a10 * x + a11 * y + a12 * z;
            pz[i] = a20 * x + a21 * y + a22 * z;
        }
    }

    /** A compute world: {@code entities} entities of Transform (a rotation by 1.2 about x), Position, Rotation, Velocity. */
    public static World computeWorld(int entities) {
        World world = new World(COMPUTE_CHUNK_BYTES);
        world.entity()
                .with(world.component(Transform.class), Transform.rotationX(1.2f))
                .with(world.component(Position.class), new Position(1, 0, 0))
                .with(world.component(Rotation.class), new Rotation(1, 0, 0))
                .with(world.component(Velocity.class), new Velocity(1, 0, 0))
                .spawnMany(entities);
        return world;
    }

    /**
     * The compute system over {@link #computeWorld}: one system, jobs of at least one row
     * (so the executor splits it into up to {@code 4 x workers} jobs of whole chunks), each
     * worker's 16 matrix arrays gathered into a per-worker scratch row (no allocation).
     */
    public static Schedule computeSchedule(World world, int inversions, int maxWorkers) {
        Component<Transform> t = world.component(Transform.class);
        Component<Position> p = world.component(Position.class);
        Field[] mf = matrixFields(t);
        Field x = p.field("x");
        Field y = p.field("y");
        Field z = p.field("z");
        float[][][] scratch = new float[Math.max(1, maxWorkers)][16][];
        return Schedule.builder(world)
                .system("compute").query(world.query().with(t, p).build()).writes(t, p).minBatchRows(1)
                .forEachChunk(job -> {
                    ChunkView c = job.chunk();
                    float[][] m = scratch[job.workerId()];
                    for (int f = 0; f < 16; f++) {
                        m[f] = c.writeFloats(mf[f]);
                    }
                    invertAndTransform(m, c.writeFloats(x), c.writeFloats(y), c.writeFloats(z), 0, c.size(),
                            inversions);
                })
                .build();
    }

    /**
     * The plain-Java form of the compute workload: the same kernel over 16 + 3 flat arrays
     * of {@code entities} rows, filled as {@link #computeWorld} fills its columns, for
     * {@link PlainParallelLoop}.
     */
    public static PlainParallelLoop.RangeBody plainCompute(int entities, int inversions) {
        float[][] m = new float[16][entities];
        Transform r = Transform.rotationX(1.2f);
        float[] values = {r.m00(), r.m01(), r.m02(), r.m03(), r.m10(), r.m11(), r.m12(), r.m13(),
                r.m20(), r.m21(), r.m22(), r.m23(), r.m30(), r.m31(), r.m32(), r.m33()};
        for (int f = 0; f < 16; f++) {
            java.util.Arrays.fill(m[f], values[f]);
        }
        float[] px = new float[entities];
        java.util.Arrays.fill(px, 1);
        float[] py = new float[entities];
        float[] pz = new float[entities];
        return (thread, from, to) -> invertAndTransform(m, px, py, pz, from, to, inversions);
    }

    // ---- schedule ------------------------------------------------------------------------

    /**
     * The schedule workload's world: {@link #SCHEDULE_ENTITIES} entities in each of four
     * archetypes, {A,B}, {A,B,C}, {A,B,C,D}, {A,B,C,E}; every component one float.
     */
    public static World scheduleWorld() {
        World world = new World();
        Component<Scalar> a = world.component(Scalar.class, "A");
        Component<Scalar> b = world.component(Scalar.class, "B");
        Component<Scalar> c = world.component(Scalar.class, "C");
        Component<Scalar> d = world.component(Scalar.class, "D");
        Component<Scalar> e = world.component(Scalar.class, "E");
        Scalar zero = new Scalar(0);
        Scalar one = new Scalar(1);
        world.entity().with(a, zero).with(b, one).spawnMany(SCHEDULE_ENTITIES);
        world.entity().with(a, zero).with(b, one).with(c, zero).spawnMany(SCHEDULE_ENTITIES);
        world.entity().with(a, zero).with(b, one).with(c, zero).with(d, one).spawnMany(SCHEDULE_ENTITIES);
        world.entity().with(a, zero).with(b, one).with(c, zero).with(e, one).spawnMany(SCHEDULE_ENTITIES);
        return world;
    }

    /** Swaps two float arrays' first {@code n} values: the schedule workload's system body. */
    public static void swap(float[] a, float[] b, int n) {
        for (int i = 0; i < n; i++) {
            float t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
    }

    /**
     * The schedule workload's three systems: {@code ab} swaps A and B (all 40 000 entities),
     * {@code cd} swaps C and D, {@code ce} swaps C and E. {@code ab} is independent of the
     * other two and runs beside them; {@code ce} waits for {@code cd} (both write C).
     *
     * @param minBatchRows the smallest job, in rows (the default 16 384 runs these small systems inline)
     */
    public static Schedule scheduleOf(World world, int minBatchRows) {
        Component<Scalar> a = world.component(Scalar.class, "A");
        Component<Scalar> b = world.component(Scalar.class, "B");
        Component<Scalar> c = world.component(Scalar.class, "C");
        Component<Scalar> d = world.component(Scalar.class, "D");
        Component<Scalar> e = world.component(Scalar.class, "E");
        Field fa = a.field(0);
        Field fb = b.field(0);
        Field fc = c.field(0);
        Field fd = d.field(0);
        Field fe = e.field(0);
        return Schedule.builder(world).minBatchRows(minBatchRows)
                .system("ab").query(world.query().with(a, b).build()).writes(a, b)
                .forEachChunk(job -> swap(job.chunk().writeFloats(fa), job.chunk().writeFloats(fb), job.chunk().size()))
                .system("cd").query(world.query().with(c, d).build()).writes(c, d)
                .forEachChunk(job -> swap(job.chunk().writeFloats(fc), job.chunk().writeFloats(fd), job.chunk().size()))
                .system("ce").query(world.query().with(c, e).build()).writes(c, e)
                .forEachChunk(job -> swap(job.chunk().writeFloats(fc), job.chunk().writeFloats(fe), job.chunk().size()))
                .build();
    }

    // ---- the scheduler's 64-flops workload ------------------------------------------------

    /** The 64-flops system of {@link SchedulerBenchmark} over {@code entities} entities of {@code Vec4}. */
    public static Schedule flops64Schedule(int entities) {
        World world = new World();
        Component<SchedulerBenchmark.Vec4> vec = world.component(SchedulerBenchmark.Vec4.class);
        world.entity().with(vec, new SchedulerBenchmark.Vec4(1, 2, 3, 4)).spawnMany(entities);
        Field fx = vec.field("x");
        Field fy = vec.field("y");
        Field fz = vec.field("z");
        Field fw = vec.field("w");
        Query q = world.query().with(vec).build();
        return Schedule.builder(world)
                .system("flops64").query(q).writes(vec)
                .forEachChunk(job -> SchedulerBenchmark.compute(job.chunk(), fx, fy, fz, fw))
                .build();
    }

    /**
     * An empty-body system over {@code chunks} chunks of 64 rows each, split into jobs of
     * one chunk: what the executor itself costs per job (hand-off, binding, completion).
     */
    public static Schedule emptyJobsSchedule(int chunks) {
        World world = new World(256); // the smallest budget: 64 rows of one float per chunk
        Component<Scalar> s = world.component(Scalar.class);
        world.entity().with(s, new Scalar(0)).spawnMany(64 * chunks);
        return Schedule.builder(world)
                .system("empty").query(world.query().with(s).build()).writes(s).minBatchRows(1)
                .forEachChunk(job -> {
                })
                .build();
    }
}
