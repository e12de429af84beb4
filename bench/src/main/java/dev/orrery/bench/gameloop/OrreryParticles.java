package dev.orrery.bench.gameloop;

import dev.orrery.bench.fixture.Health;
import dev.orrery.bench.fixture.Position;
import dev.orrery.bench.fixture.Velocity;
import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;

/**
 * The particle scenario in Orrery, written as the root README teaches: components from
 * records, one {@link Query} shared by the four chunk systems, a {@link Schedule} of five
 * systems, command buffers for the despawns and spawns, and {@code executor.run()} per tick.
 *
 * <ul>
 *   <li><b>Update</b>: {@code move} (writes position, reads velocity) and {@code damage}
 *       (writes health) have no conflict and may run side by side; {@code reap} reads health,
 *       so the graph orders it after {@code damage}; it records a despawn per dead particle
 *       (declared: {@code .despawns()}) and adds the chunk's deaths to the {@code deaths}
 *       {@link LongSum} (declared: {@code .reducesResource(DEATHS)}); {@code respawn} is a
 *       range system over the death total (it reads {@code deaths}, so it runs after
 *       {@code reap}) and records one spawn per index (declared: {@code .spawns(pos, vel,
 *       health)}). It has no query, so {@code reap}'s despawns need no sync point before it.</li>
 *   <li>The end of Update is a sync point: the despawns, then the spawns, are applied in
 *       (system, chunk, sequence) order, whatever worker recorded them.</li>
 *   <li><b>PostUpdate</b>: {@code count} sums chunk sizes into the {@code living}
 *       {@link LongSum}. It must come after a sync point to see this tick's despawns and
 *       spawns; placed in Update, it would get an automatic sync point before it from the
 *       declared effects.</li>
 * </ul>
 *
 * <p>Two spawn paths: the README's ({@code spawn()} then {@code add(h, column, record)} per
 * component: three records a spawn) and, with {@code fast}, the garbage-free one
 * ({@code commands.spawn(shape)} then {@code setFloat(h, field, v)} per field: one command a
 * spawn, no records).
 *
 * <p><b>Threading:</b> driven by one thread; the systems' jobs run on the executor's
 * workers, each adding into its own slot of the two {@link LongSum}s.
 */
final class OrreryParticles extends ParticleLoop {
    private static final ResourceKey<LongSum> DEATHS = ResourceKey.of("deaths", LongSum.class);
    private static final ResourceKey<LongSum> LIVING = ResourceKey.of("living", LongSum.class);

    private final int workers;
    private final boolean fast;
    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Velocity> vel = world.component(Velocity.class);
    private final Component<Health> health = world.component(Health.class);
    private final Field px = pos.field("x"), py = pos.field("y"), pz = pos.field("z");
    private final Field vx = vel.field("x"), vy = vel.field("y"), vz = vel.field("z");
    private final Field hp = health.field("hp");
    private final LongSum deaths = new LongSum();
    private final LongSum living = new LongSum();
    private Shape particle;
    private ScheduleExecutor executor;

    OrreryParticles(long seed, int workers, boolean fast) {
        super(seed);
        this.workers = workers;
        this.fast = fast;
    }

    @Override
    public String describe() {
        return "Orrery, " + workers + " worker(s), respawn " + (fast ? "spawn(shape) + setFloat (no records)"
                : "add(h, column, record) (README)");
    }

    @Override
    protected void populate(int n) {
        for (int i = 0; i < n; i++) {
            world.spawn(position(Particles.INITIAL, i), velocity(Particles.INITIAL, i),
                    new Health(Particles.initialHealth(i)));
        }
        particle = world.shape(pos, vel, health);
        Query particles = world.query().with(pos, vel, health).build();
        Schedule schedule = Schedule.builder(world).resource(DEATHS, deaths).resource(LIVING, living)
                .system("move").query(particles).reads(vel).writes(pos).forEachChunk(this::move)
                .system("damage").query(particles).writes(health).forEachChunk(this::damage)
                .system("reap").query(particles).reads(health).reducesResource(DEATHS).despawns()
                        .forEachChunk(this::reap)
                .system("respawn").readsResource(DEATHS).spawns(pos, vel, health)
                        .forEachRange(() -> (int) deaths.total(), fast ? this::respawnFields : this::respawnRecords)
                .system("count").inPhase(Phase.POST_UPDATE).query(particles).reducesResource(LIVING)
                        .forEachChunk(this::count)
                .build();
        executor = schedule.executor(workers);
    }

    private void move(JobContext job) {
        ChunkView c = job.chunk();
        float[] x = c.writeFloats(px), y = c.writeFloats(py), z = c.writeFloats(pz);
        float[] dx = c.readFloats(vx), dy = c.readFloats(vy), dz = c.readFloats(vz);
        float dt = Particles.DT;
        for (int i = 0, n = c.size(); i < n; i++) {
            x[i] += dx[i] * dt;
            y[i] += dy[i] * dt;
            z[i] += dz[i] * dt;
        }
    }

    private void damage(JobContext job) {
        ChunkView c = job.chunk();
        float[] h = c.writeFloats(hp);
        for (int i = 0, n = c.size(); i < n; i++) {
            h[i] -= 1f;
        }
    }

    private void reap(JobContext job) {
        ChunkView c = job.chunk();
        float[] h = c.readFloats(hp);
        long[] ids = c.entities();
        CommandBuffer commands = job.commands();
        int died = 0;
        for (int i = 0, n = c.size(); i < n; i++) {
            if (h[i] <= 0f) {
                commands.despawn(ids[i]);
                died++;
            }
        }
        job.add(DEATHS, died);
    }

    private void respawnRecords(JobContext job, int from, int to) {
        CommandBuffer commands = job.commands();
        int t = tick;
        for (int k = from; k < to; k++) {
            long e = commands.spawn();
            commands.add(e, pos, position(t, k));
            commands.add(e, vel, velocity(t, k));
            commands.add(e, health, new Health(Particles.LIFETIME));
        }
    }

    private void respawnFields(JobContext job, int from, int to) {
        CommandBuffer commands = job.commands();
        int t = tick;
        long s = seed;
        Shape shape = particle;
        for (int k = from; k < to; k++) {
            long e = commands.spawn(shape);
            commands.setFloat(e, px, Particles.value(s, t, k, 0));
            commands.setFloat(e, py, Particles.value(s, t, k, 1));
            commands.setFloat(e, pz, Particles.value(s, t, k, 2));
            commands.setFloat(e, vx, Particles.value(s, t, k, 3));
            commands.setFloat(e, vy, Particles.value(s, t, k, 4));
            commands.setFloat(e, vz, Particles.value(s, t, k, 5));
            commands.setFloat(e, hp, Particles.LIFETIME);
        }
    }

    private void count(JobContext job) {
        job.add(LIVING, job.chunk().size());
    }

    private Position position(int t, int k) {
        return new Position(Particles.value(seed, t, k, 0), Particles.value(seed, t, k, 1),
                Particles.value(seed, t, k, 2));
    }

    private Velocity velocity(int t, int k) {
        return new Velocity(Particles.value(seed, t, k, 3), Particles.value(seed, t, k, 4),
                Particles.value(seed, t, k, 5));
    }

    @Override
    protected void step() {
        deaths.reset();
        living.reset();
        executor.run();
    }

    @Override
    public int living() {
        return (int) living.total();
    }

    @Override
    public long checksum() {
        long[] sum = {0};
        world.query().with(pos, vel, health).build().forEachChunk(c -> {
            float[] x = c.readFloats(px), y = c.readFloats(py), z = c.readFloats(pz);
            float[] dx = c.readFloats(vx), dy = c.readFloats(vy), dz = c.readFloats(vz);
            float[] h = c.readFloats(hp);
            for (int i = 0, n = c.size(); i < n; i++) {
                sum[0] += Particles.checksum(x[i], y[i], z[i], dx[i], dy[i], dz[i], h[i]);
            }
        });
        return sum[0];
    }

    /** The world's state hash (ids, rows and every field's bits), for comparing worker counts. */
    long stateHash() {
        return world.stateHash();
    }

    /** How the executor splits each system, one line each ({@code executor.batching()}); 1 worker: none. */
    String batching() {
        return executor.workerCount() > 1 ? BatchDecision.toText(executor.batching()) : "single-threaded: no split\n";
    }

    @Override
    public void close() {
        if (executor != null) {
            executor.close();
        }
    }
}
