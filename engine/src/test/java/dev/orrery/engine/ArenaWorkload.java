package dev.orrery.engine;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A small simulation for engine tests: agents that wander by counter-based randomness, take
 * damage, die (despawned through command buffers) and are spawned by inputs ("spawn N at
 * x,y") handled by an exclusive system. Built the same way for recording and replay.
 */
final class ArenaWorkload {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    record Hp(int hp) {
    }

    /** Input type: spawn {@code int n} agents at {@code float x, float y}. */
    static final int SPAWN = 1;
    /** Input type: damage every agent by {@code int amount}. */
    static final int DAMAGE = 2;

    /** A snapshotted resource: total damage dealt. */
    static final class Stats {
        long damage;
    }

    static final ResourceKey<Stats> STATS = ResourceKey.of("Stats", Stats.class);

    static final ResourceCodec<Stats> STATS_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Stats value, DataOutput out) throws IOException {
            out.writeLong(value.damage);
        }

        @Override
        public Stats read(DataInput in) throws IOException {
            Stats s = new Stats();
            s.damage = in.readLong();
            return s;
        }
    };

    /** Builds the simulation; {@code populate} spawns the starting agents (not for a restore target). */
    static Simulation build(long seed, int workers, boolean populate, int hashEvery) {
        return build(seed, workers, populate, hashEvery, -1);
    }

    /** As above; at tick {@code sabotageTick} the wander system misbehaves once (a stand-in for a non-deterministic bug). */
    static Simulation build(long seed, int workers, boolean populate, int hashEvery, long sabotageTick) {
        return builder(seed, workers, populate, hashEvery, sabotageTick).build();
    }

    /** The builder of a populated arena, for tests that set more options. */
    static SimulationBuilder builder(long seed, int workers) {
        return builder(seed, workers, true, 0, -1);
    }

    static SimulationBuilder builder(long seed, int workers, boolean populate, int hashEvery, long sabotageTick) {
        World world = new World(4096);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        Component<Hp> hp = world.component(Hp.class);
        if (populate) {
            world.entity().with(pos, new Pos(0, 0)).with(vel, new Vel(0, 0)).with(hp, new Hp(100)).spawnMany(3000);
        }
        Field px = pos.field("x");
        Field py = pos.field("y");
        Field vx = vel.field("x");
        Field vy = vel.field("y");
        Field hpv = hp.field("hp");
        SimulationBuilder builder = Simulation.builder(world).seed(seed).workers(workers).hashEvery(hashEvery)
                .resource(STATS, new Stats(), STATS_CODEC);
        Resources res = builder.resources();
        return builder
                .systems(s -> s
                        .system("inputs").inPhase(Phase.PRE_UPDATE).exclusive(w -> {
                            InputBatch in = res.get(Simulation.INPUTS);
                            Stats stats = res.get(STATS);
                            for (int i = 0; i < in.size(); i++) {
                                if (in.type(i) == SPAWN) {
                                    int n = in.payloadInt(i, 0);
                                    Pos p = new Pos(in.payloadFloat(i, 4), in.payloadFloat(i, 8));
                                    w.entity().with(pos, p).with(vel, new Vel(0, 0)).with(hp, new Hp(50)).spawnMany(n);
                                } else if (in.type(i) == DAMAGE) {
                                    int amount = in.payloadInt(i, 0);
                                    w.query().with(hp).build().forEachChunk(c -> {
                                        int[] h = c.writeInts(hpv);
                                        for (int r = 0; r < c.size(); r++) {
                                            h[r] -= amount;
                                        }
                                    });
                                    stats.damage += amount;
                                }
                            }
                        })
                        .system("wander").query(world.query().with(vel).build()).writes(vel)
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
                            if (t == sabotageTick && job.chunkOrdinal() == 0 && job.chunk().size() > 0) {
                                u[0] += 1f;
                            }
                        })
                        .system("move").query(world.query().with(pos, vel).build()).reads(vel).writes(pos)
                        .readsResource(Simulation.CLOCK)
                        .forEachChunk(job -> {
                            float dt = res.get(Simulation.CLOCK).dt();
                            float[] x = job.chunk().writeFloats(px);
                            float[] y = job.chunk().writeFloats(py);
                            float[] u = job.chunk().readFloats(vx);
                            float[] v = job.chunk().readFloats(vy);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                x[i] += u[i] * dt;
                                y[i] += v[i] * dt;
                            }
                        })
                        .system("reap").query(world.query().with(hp).build()).reads(hp).inPhase(Phase.POST_UPDATE)
                        .despawns()
                        .forEachChunk(job -> {
                            int[] h = job.chunk().readInts(hpv);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                if (h[i] <= 0) {
                                    job.commands().despawn(job.chunk().entity(i));
                                }
                            }
                        }));
    }

    private ArenaWorkload() {
    }
}
