package dev.orrery.bench.host;

import dev.orrery.bench.fixture.Position;
import dev.orrery.bench.fixture.Velocity;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import java.util.SplittableRandom;

/**
 * The small world the capacity report hosts by the thousand: entities with a position and a
 * velocity in a 100 x 100 box, and four systems a tick: {@code move} ({@code p += v * dt}),
 * {@code bounce} (a query over the same entities turning those outside the box back),
 * {@code count} (how many are near the centre, reduced into a {@link LongSum}) and
 * {@code report} (reads and resets the count). The state is hashed once a second, as a
 * recorded server would.
 */
final class CapacityWorld {
    /** Entities within {@link #NEAR_RADIUS} of the centre this tick. */
    static final ResourceKey<LongSum> NEAR = ResourceKey.of("near", LongSum.class);
    private static final float SIZE = 100;
    private static final float NEAR_RADIUS = 10;

    private CapacityWorld() {
    }

    /** A simulation of {@code entities} entities stepping at {@code hz}, with {@code workers} workers. */
    static Simulation build(long seed, int entities, int workers, double hz) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < entities; i++) {
            world.spawn(new Position((float) rnd.nextDouble(SIZE), (float) rnd.nextDouble(SIZE), 0),
                    new Velocity((float) rnd.nextDouble(-5, 5), (float) rnd.nextDouble(-5, 5), 0));
        }
        Field px = pos.field("x");
        Field py = pos.field("y");
        Field vx = vel.field("x");
        Field vy = vel.field("y");
        float dt = (float) (1 / hz);
        long[] lastNear = new long[1];
        var builder = Simulation.builder(world).seed(seed).workers(workers).stepSeconds(1 / hz)
                .hashEvery((int) Math.max(1, Math.round(hz))).resource(NEAR, new LongSum());
        Resources res = builder.resources();
        return builder.systems(s -> s
                .system("move").query(world.query().with(pos, vel).build()).reads(vel).writes(pos)
                .forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(px);
                    float[] y = job.chunk().writeFloats(py);
                    float[] u = job.chunk().readFloats(vx);
                    float[] v = job.chunk().readFloats(vy);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        x[i] += u[i] * dt;
                        y[i] += v[i] * dt;
                    }
                })
                .system("bounce").query(world.query().with(pos, vel).build()).reads(pos).writes(vel)
                .forEachChunk(job -> {
                    float[] x = job.chunk().readFloats(px);
                    float[] y = job.chunk().readFloats(py);
                    float[] u = job.chunk().writeFloats(vx);
                    float[] v = job.chunk().writeFloats(vy);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        if ((x[i] < 0 && u[i] < 0) || (x[i] > SIZE && u[i] > 0)) {
                            u[i] = -u[i];
                        }
                        if ((y[i] < 0 && v[i] < 0) || (y[i] > SIZE && v[i] > 0)) {
                            v[i] = -v[i];
                        }
                    }
                })
                .system("count").query(world.query().with(pos).build()).reads(pos).reducesResource(NEAR)
                .forEachChunk(job -> {
                    float[] x = job.chunk().readFloats(px);
                    float[] y = job.chunk().readFloats(py);
                    int near = 0;
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        float dx = x[i] - SIZE / 2;
                        float dy = y[i] - SIZE / 2;
                        if (dx * dx + dy * dy < NEAR_RADIUS * NEAR_RADIUS) {
                            near++;
                        }
                    }
                    job.add(NEAR, near);
                })
                .system("report").inPhase(Phase.POST_UPDATE).writesResource(NEAR)
                .forEachRange(() -> 1, (job, from, to) -> {
                    LongSum near = job.resourceForWrite(NEAR);
                    lastNear[0] = near.total();
                    near.reset();
                }))
                .build();
    }
}
