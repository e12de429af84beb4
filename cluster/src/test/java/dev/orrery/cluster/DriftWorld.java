package dev.orrery.cluster;

import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A small world for cluster tests: drifting particles moved by counter-based randomness; an
 * input ({@link #PUSH}: {@code int inputId, float x}) spawns a particle at x and adds its id
 * to a snapshotted resource, so both the world and a resource carry every input. The seed
 * comes from the world id, so different worlds differ.
 */
public final class DriftWorld implements WorldBlueprint {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    /** Input type: spawn one particle. */
    static final int PUSH = 7;

    /** Sum and count of the input ids applied. */
    static final class Tally {
        long sum;
        long count;
    }

    static final ResourceKey<Tally> TALLY = ResourceKey.of("Tally", Tally.class);

    private static final ResourceCodec<Tally> TALLY_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Tally value, DataOutput out) throws IOException {
            out.writeLong(value.sum);
            out.writeLong(value.count);
        }

        @Override
        public Tally read(DataInput in) throws IOException {
            Tally t = new Tally();
            t.sum = in.readLong();
            t.count = in.readLong();
            return t;
        }
    };

    private final int particles;
    private final int workers;

    DriftWorld(int particles) {
        this(particles, 1);
    }

    /**
     * A world of {@code particles} particles ticked on {@code workers} workers: above 1, each
     * simulation starts threads of its own ({@code orrery-worker-N}), which its close must stop.
     */
    DriftWorld(int particles, int workers) {
        this.particles = particles;
        this.workers = workers;
    }

    /** The payload of input {@code id}. */
    static byte[] push(int id) {
        return ByteBuffer.allocate(8).putInt(id).putFloat(id % 100).array();
    }

    /** The input id in a payload. */
    public static int inputId(byte[] payload) {
        return ByteBuffer.wrap(payload).getInt();
    }

    @Override
    public Simulation build(String worldId, boolean populate) {
        World world = new World(1024);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        if (populate) {
            world.entity().with(pos, new Pos(0, 0)).with(vel, new Vel(0, 0)).spawnMany(particles);
        }
        Field px = pos.field("x");
        Field py = pos.field("y");
        Field vx = vel.field("x");
        Field vy = vel.field("y");
        SimulationBuilder builder = Simulation.builder(world).seed(worldId.hashCode()).workers(workers).hashEvery(1)
                .resource(TALLY, new Tally(), TALLY_CODEC);
        Resources res = builder.resources();
        return builder.systems(s -> s
                .system("inputs").inPhase(Phase.PRE_UPDATE).exclusive(w -> {
                    InputBatch in = res.get(Simulation.INPUTS);
                    Tally tally = res.get(TALLY);
                    for (int i = 0; i < in.size(); i++) {
                        if (in.type(i) == PUSH) {
                            w.entity().with(pos, new Pos(in.payloadFloat(i, 4), 0)).with(vel, new Vel(0, 0)).spawn();
                            tally.sum += in.payloadInt(i, 0);
                            tally.count++;
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
                }))
                .build();
    }
}
