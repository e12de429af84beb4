package dev.orrery.testkit;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/**
 * A newcomer's game: colonists wander, eat what players feed them, get poisoned and cured, have
 * children (a command buffer spawn with a parent pair and an event), starve (a despawn), and a
 * census counts births and the colony's energy. A {@link Flaw} plants one classic
 * mistake. The kit's end-to-end case: many features at once, proven deterministic as
 * docs/determinism.md tells a user to.
 */
final class Colony {
    record Position(float x, float y) {}
    record Velocity(float x, float y) {}
    record Energy(int value) {}
    record Age(int ticks) {}
    record Poisoned(int dose) {}
    record Immune() {}
    record Birth(long parent) {}

    /** The census: state, so it has a codec. */
    static final class Stats {
        long births;
        float energy;
        final float[] perChunk = new float[1024];
    }

    /** The classic mistakes a user makes, each in the system or hook the test names. */
    enum Flaw { NONE, HASH_MAP_ORDER, NANO_TIME, UNSEEDED_RANDOM, SHARED_STATIC }

    static final int FEED = 3;
    static final ResourceKey<Stats> STATS = ResourceKey.of("stats", Stats.class);
    static final EventKey<Birth> BIRTHS = EventKey.of("births", Birth.class);
    static final int WANDER = CounterRandom.stream("wander");
    static final int POISON = CounterRandom.stream("poison");
    static int sharedBirths; // Flaw.SHARED_STATIC

    /** Players feed the colonists whose index is {@code tick % 64} and {@code (tick * 7) % 64}. */
    static final InputScript PLAYERS = (tick, send) -> {
        send.input(1, FEED, ByteBuffer.allocate(4).putInt((int) (tick % 64)).array());
        if (tick % 2 == 0) {
            send.input(2, FEED, ByteBuffer.allocate(4).putInt((int) ((tick * 7) % 64)).array());
        }
    };

    static final ResourceCodec<Stats> STATS_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Stats s, DataOutput out) throws IOException {
            out.writeLong(s.births);
            out.writeFloat(s.energy);
        }

        @Override
        public Stats read(DataInput in) throws IOException {
            Stats s = new Stats();
            s.births = in.readLong();
            s.energy = in.readFloat();
            return s;
        }
    };

    static final ResourceCodec<Birth> BIRTH_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Birth b, DataOutput out) throws IOException {
            out.writeLong(b.parent());
        }

        @Override
        public Birth read(DataInput in) throws IOException {
            return new Birth(in.readLong());
        }
    };

    private Colony() {
    }

    static SimulationFactory factory(Flaw flaw) {
        return (workers, populate) -> build(workers, populate, flaw);
    }

    static Simulation build(int workers, boolean populate, Flaw flaw) {
        World world = new World(1024);
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Energy> energy = world.component(Energy.class);
        Component<Age> age = world.component(Age.class);
        Component<Poisoned> poisoned = world.component(Poisoned.class);
        Component<Immune> immune = world.component(Immune.class, Storage.SPARSE);
        Relation childOf = world.relations().childOf();
        if (populate) {
            for (int i = 0; i < 400; i++) {
                world.spawn(new Position(i % 20, i / 20), new Velocity(0, 0), new Energy(60 + i % 50), new Age(0));
            }
        }
        Field px = pos.field("x"), py = pos.field("y"), vx = vel.field("x"), vy = vel.field("y");
        Field en = energy.field("value"), ticks = age.field("ticks");
        // the hook: a cured colonist becomes immune
        world.observe(poisoned).onRemove((w, e, commands) -> {
            if (w.isAlive(e)) {
                commands.add(e, immune);
            }
        });
        Random unseeded = new Random();
        Map<Object, Integer> dens = new HashMap<>();
        for (int i = 0; i < 16; i++) {
            dens.put(new Object(), i);
        }
        var fed = world.query().with(energy).build();
        var walkers = world.query().with(pos, vel).build();
        var living = world.query().with(pos, energy, age).optional(poisoned).build();
        return Simulation.builder(world).seed(42).workers(workers)
                .resource(STATS, new Stats(), STATS_CODEC)
                .events(BIRTHS, BIRTH_CODEC)
                .systems(s -> {
                    s.system("feed").inPhase(Phase.PRE_UPDATE).query(fed).writes(energy)
                            .readsResource(Simulation.INPUTS).forEachChunk(job -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                ChunkView c = job.chunk();
                                int[] e = c.writeInts(en);
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.type(k) != FEED) {
                                        continue;
                                    }
                                    int who = in.payloadInt(k, 0);
                                    for (int i = 0, n = c.size(); i < n; i++) {
                                        if ((int) c.entity(i) % 64 == who) {
                                            e[i] += 15;
                                        }
                                    }
                                }
                            });
                    s.system("wander").query(walkers).writes(pos, vel)
                            .readsResource(Simulation.RANDOM, Simulation.CLOCK).forEachChunk(job -> {
                                CounterRandom r = job.resource(Simulation.RANDOM);
                                long t = job.resource(Simulation.CLOCK).tick();
                                ChunkView c = job.chunk();
                                float[] x = c.writeFloats(px), y = c.writeFloats(py);
                                float[] u = c.writeFloats(vx), v = c.writeFloats(vy);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    u[i] = 0.9f * u[i] + r.nextFloat(t, c.entity(i), WANDER) - 0.5f;
                                    v[i] = 0.9f * v[i] + r.nextFloat(t, c.entity(i), WANDER + 1) - 0.5f;
                                    if (flaw == Flaw.NANO_TIME && i == 0) {
                                        u[i] += (System.nanoTime() % 3) * 0.01f;
                                    }
                                    if (flaw == Flaw.UNSEEDED_RANDOM && i == 0) {
                                        u[i] += unseeded.nextFloat() * 0.01f;
                                    }
                                    x[i] += u[i];
                                    y[i] += v[i];
                                }
                            });
                    s.system("metabolism").after("wander").query(living).reads(pos, poisoned).writes(energy, age)
                            .spawns(pos, vel, energy, age).adds(childOf.column(), poisoned).removes(poisoned)
                            .despawns().writesEvents(BIRTHS).readsResource(Simulation.RANDOM, Simulation.CLOCK)
                            .forEachChunk(job -> {
                                CounterRandom r = job.resource(Simulation.RANDOM);
                                long t = job.resource(Simulation.CLOCK).tick();
                                ChunkView c = job.chunk();
                                CommandBuffer cmd = job.commands();
                                int[] e = c.writeInts(en), a = c.writeInts(ticks);
                                float[] x = c.readFloats(px), y = c.readFloats(py);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    long id = c.entity(i);
                                    a[i]++;
                                    e[i] -= 1;
                                    if (c.has(poisoned, i)) {
                                        e[i] -= c.get(poisoned, i).dose();
                                        if (r.nextInt(t, id, POISON, 10) == 0) {
                                            cmd.remove(id, poisoned);
                                        }
                                    } else if (r.nextInt(t, id, POISON + 1, 100) == 0) {
                                        cmd.add(id, poisoned, new Poisoned(2));
                                    }
                                    if (e[i] <= 0) {
                                        cmd.despawn(id);
                                    } else if (e[i] > 120) {
                                        e[i] -= 60;
                                        int bonus = 0;
                                        if (flaw == Flaw.SHARED_STATIC) {
                                            bonus = sharedBirths++ % 3;
                                        }
                                        long child = cmd.spawn();
                                        cmd.add(child, pos, new Position(x[i], y[i]));
                                        cmd.add(child, vel, new Velocity(0, 0));
                                        cmd.add(child, energy, new Energy(50 + bonus));
                                        cmd.add(child, age, new Age(0));
                                        cmd.addPair(child, childOf, id);
                                        job.send(BIRTHS, new Birth(id));
                                    }
                                }
                            });
                    s.system("census").inPhase(Phase.POST_UPDATE).readsEvents(BIRTHS).writesResource(STATS)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                EventReader<Birth> births = job.events(BIRTHS);
                                job.resourceForWrite(STATS).births += births.size();
                            });
                    s.system("weigh").inPhase(Phase.POST_UPDATE).query(fed).reads(energy).writesResource(STATS)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                int[] e = c.readInts(en);
                                float sum = 0;
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    sum += e[i] * 0.1f;
                                }
                                job.resourceForWrite(STATS).perChunk[job.chunkOrdinal()] = sum;
                            });
                    s.system("total").inPhase(Phase.POST_UPDATE).after("weigh").writesResource(STATS)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                Stats st = job.resourceForWrite(STATS);
                                float sum = 0;
                                for (int k = 0; k < st.perChunk.length; k++) { // chunk order, not worker order
                                    sum += st.perChunk[k];
                                    st.perChunk[k] = 0;
                                }
                                st.energy += sum;
                            });
                    s.system("dens").inPhase(Phase.POST_UPDATE).query(fed).writes(energy).forEachChunk(job -> {
                        if (flaw != Flaw.HASH_MAP_ORDER) {
                            return;
                        }
                        int[] e = job.chunk().writeInts(en);
                        int k = 0;
                        for (Map.Entry<Object, Integer> d : dens.entrySet()) { // the first den fed gets the most
                            if (k < job.chunk().size()) {
                                e[k++] += d.getValue() % 2;
                            }
                        }
                    });
                })
                .build();
    }
}
