package dev.orrery.engine.host;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;
import java.util.function.Consumer;

/**
 * A small world for host tests: agents wander by counter-based randomness, age, die
 * (despawned through command buffers) and are replaced by an exclusive system, which also
 * spawns agents on a {@link #SPAWN} input. Its hash depends on every tick's order and seed.
 */
final class HostWorkload {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    record Hp(int hp) {
    }

    /** Input type: spawn {@code int n} agents. */
    static final int SPAWN = 1;

    private HostWorkload() {
    }

    /** A world of {@code agents} agents on {@code workers} workers; {@code extra} declares more systems (may be null). */
    static SimulationBuilder builder(long seed, int agents, int workers, Consumer<Schedule.Builder> extra) {
        return builder(seed, agents, workers, extra, true);
    }

    /** The same world with no agents yet, to restore a snapshot of a world of {@code agents} agents into. */
    static Simulation restoreTarget(long seed, int agents) {
        return builder(seed, agents, 1, null, false).build();
    }

    private static SimulationBuilder builder(long seed, int agents, int workers, Consumer<Schedule.Builder> extra,
            boolean populate) {
        World world = new World(4096);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        Component<Hp> hp = world.component(Hp.class);
        if (populate) {
            world.entity().with(pos, new Pos(0, 0)).with(vel, new Vel(0, 0)).with(hp, new Hp(20)).spawnMany(agents);
        }
        Field px = pos.field("x");
        Field vx = vel.field("x");
        Field vy = vel.field("y");
        Field hpv = hp.field("hp");
        SimulationBuilder builder = Simulation.builder(world).seed(seed).workers(workers);
        Resources res = builder.resources();
        return builder.systems(s -> {
            s.system("wander").query(world.query().with(vel).build()).writes(vel)
                    .readsResource(Simulation.CLOCK, Simulation.RANDOM)
                    .forEachChunk(job -> {
                        CounterRandom rnd = res.get(Simulation.RANDOM);
                        long t = res.get(Simulation.CLOCK).tick();
                        float[] u = job.chunk().writeFloats(vx);
                        float[] v = job.chunk().writeFloats(vy);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            u[i] = 0.9f * u[i] + (rnd.nextFloat(t, e, 0) - 0.5f);
                            v[i] = 0.9f * v[i] + (rnd.nextFloat(t, e, 1) - 0.5f);
                        }
                    })
                    .system("move").query(world.query().with(pos, vel).build()).reads(vel).writes(pos)
                    .forEachChunk(job -> {
                        float[] x = job.chunk().writeFloats(px);
                        float[] u = job.chunk().readFloats(vx);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            x[i] += u[i];
                        }
                    })
                    .system("age").query(world.query().with(hp).build()).writes(hp).despawns()
                    .readsResource(Simulation.CLOCK, Simulation.RANDOM)
                    .forEachChunk(job -> {
                        CounterRandom rnd = res.get(Simulation.RANDOM);
                        long t = res.get(Simulation.CLOCK).tick();
                        int[] h = job.chunk().writeInts(hpv);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            h[i] -= (int) (rnd.nextFloat(t, e, 2) * 3);
                            if (h[i] <= 0) {
                                job.commands().despawn(e);
                            }
                        }
                    })
                    .system("refill").inPhase(Phase.POST_UPDATE).exclusive(w -> {
                        InputBatch in = res.get(Simulation.INPUTS);
                        int more = Math.max(0, agents - w.entityCount()); // top up, plus what the inputs ask for
                        for (int i = 0; i < in.size(); i++) {
                            if (in.type(i) == SPAWN) {
                                more += in.payloadInt(i, 0);
                            }
                        }
                        if (more > 0) {
                            w.entity().with(pos, new Pos(more, 0)).with(vel, new Vel(0, 0)).with(hp, new Hp(20))
                                    .spawnMany(more);
                        }
                    });
            if (extra != null) {
                extra.accept(s);
            }
        });
    }

    /** A plain world of {@code agents} agents, one worker. */
    static Simulation build(long seed, int agents) {
        return builder(seed, agents, 1, null).build();
    }

    /** Declares a system that busy-waits {@code nanos} every tick (a heavy world). */
    static Consumer<Schedule.Builder> busy(long nanos) {
        return s -> s.system("busy").inPhase(Phase.POST_UPDATE).exclusive(w -> {
            long until = System.nanoTime() + nanos;
            while (System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
        });
    }

    /** Declares a system that throws at every tick {@code t} with {@code t % every == at}. */
    static Consumer<Schedule.Builder> failing(Resources res, long every, long at) {
        return s -> s.system("fragile").inPhase(Phase.POST_UPDATE).exclusive(w -> {
            if (res.get(Simulation.CLOCK).tick() % every == at) {
                throw new IllegalStateException("fragile fails at tick " + res.get(Simulation.CLOCK).tick());
            }
        });
    }
}
