package dev.orrery.testkit;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A small game written from docs/determinism.md and the README alone, as a newcomer would: bees
 * fly about at random ({@code fly}), gather nectar from flowers and deliver it to the hive as an
 * event, and die of age, each replaced by a new bee through the command buffer ({@code forage});
 * the hive weighs the nectar the bees carry, chunk by chunk ({@code weigh}), and stores what was
 * delivered ({@code store}), in a resource with a codec. A {@link Bug} plants one determinism
 * mistake in one system, for {@link HiveBugsTest}.
 */
final class Hive {
    record Position(float x, float y) {}
    record Nectar(float amount) {}
    record Age(int ticks) {}
    record Delivery(long bee, float amount) {}

    /** A flower a newcomer keeps outside the world: no equals or hashCode, so identity hashed. */
    static final class Flower {
        final float x;
        final float y;
        final float sweetness;

        Flower(float x, float y, float sweetness) {
            this.x = x;
            this.y = y;
            this.sweetness = sweetness;
        }
    }

    /** The hive's store: state, so it has a codec; {@code perChunk} is scratch, combined each tick. */
    static final class Store {
        float honey;
        long deliveries;
        float carried;
        final float[] perChunk = new float[256];
    }

    /** One planted mistake, in the system {@link #system} names. */
    enum Bug {
        NONE(null),
        /** (a) the first flower of a {@code HashSet} of identity-hashed objects feeds the bee. */
        IDENTITY_HASH_SET("forage"),
        /** (b) {@code Math.random()} for the wind. */
        MATH_RANDOM("fly"),
        /** (b) a {@code new Random()} without the world's seed. */
        NEW_RANDOM("fly"),
        /** (b) nectar gathered in proportion to the wall-clock time since the last job. */
        NANO_TIME("forage"),
        /** (c) each job adds its chunk's nectar to one shared float total as it finishes. */
        ATOMIC_FLOAT_SUM("weigh"),
        /** (c) each job queues its chunk's nectar, and the store drains the queue in arrival order. */
        QUEUE_DRAIN("weigh"),
        /** (e) a static memory of flowers visited, kept across runs in one JVM. */
        STATIC_MEMORY("forage"),
        /** (d) weigh reads the bees' positions from its chunk without declaring them. */
        UNDECLARED_COLUMN("weigh"),
        /** (d) store reads a bee's nectar by id through the world its lambda captured. */
        WORLD_BY_ID("store");

        final String system;

        Bug(String system) {
            this.system = system;
        }
    }

    static final ResourceKey<Store> STORE = ResourceKey.of("store", Store.class);
    static final EventKey<Delivery> DELIVERIES = EventKey.of("deliveries", Delivery.class);
    static final int WING = CounterRandom.stream("wing");
    static final int BIRTH = CounterRandom.stream("birth");
    static final int BEES = 300;
    /** Bug.STATIC_MEMORY: how many times any bee of any run has visited a flower. */
    static int visits;

    static final ResourceCodec<Store> STORE_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Store s, DataOutput out) throws IOException {
            out.writeFloat(s.honey);
            out.writeLong(s.deliveries);
            out.writeFloat(s.carried);
        }

        @Override
        public Store read(DataInput in) throws IOException {
            Store s = new Store();
            s.honey = in.readFloat();
            s.deliveries = in.readLong();
            s.carried = in.readFloat();
            return s;
        }
    };

    static final ResourceCodec<Delivery> DELIVERY_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Delivery d, DataOutput out) throws IOException {
            out.writeLong(d.bee());
            out.writeFloat(d.amount());
        }

        @Override
        public Delivery read(DataInput in) throws IOException {
            return new Delivery(in.readLong(), in.readFloat());
        }
    };

    private Hive() {
    }

    static SimulationFactory factory(Bug bug) {
        return (workers, populate) -> build(workers, populate, bug);
    }

    static Simulation build(int workers, boolean populate, Bug bug) {
        World world = new World(1024); // small chunks, so the bees fill several
        Component<Position> pos = world.component(Position.class);
        Component<Nectar> nectar = world.component(Nectar.class);
        Component<Age> age = world.component(Age.class);
        for (int i = 0; populate && i < BEES; i++) {
            world.spawn(new Position(i % 20, i / 20), new Nectar(0), new Age(i % 50));
        }
        Field px = pos.field("x"), py = pos.field("y"), amount = nectar.field("amount"), ticks = age.field("ticks");
        List<Flower> meadow = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            meadow.add(new Flower((i * 7) % 20, (i * 3) % 15, 1 + i * 0.37f));
        }
        Iterable<Flower> flowers = bug == Bug.IDENTITY_HASH_SET ? new HashSet<>(meadow) : meadow;
        AtomicReference<Float> carried = new AtomicReference<>(0f);
        ConcurrentLinkedQueue<Float> weighed = new ConcurrentLinkedQueue<>();
        long[] lastJob = {System.nanoTime()};
        var bees = world.query().with(pos, nectar, age).build();
        var loads = world.query().with(nectar).build();
        return Simulation.builder(world).seed(7).workers(workers)
                .resource(STORE, new Store(), STORE_CODEC)
                .events(DELIVERIES, DELIVERY_CODEC)
                .systems(s -> {
                    s.system("fly").query(bees).writes(pos).readsResource(Simulation.RANDOM, Simulation.CLOCK)
                            .forEachChunk(job -> {
                                CounterRandom r = job.resource(Simulation.RANDOM);
                                long t = job.resource(Simulation.CLOCK).tick();
                                Random unseeded = bug == Bug.NEW_RANDOM ? new Random() : null;
                                ChunkView c = job.chunk();
                                float[] x = c.writeFloats(px), y = c.writeFloats(py);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    float wind = bug == Bug.MATH_RANDOM ? (float) Math.random() * 0.1f
                                            : bug == Bug.NEW_RANDOM ? unseeded.nextFloat() * 0.1f : 0;
                                    x[i] += r.nextFloat(t, c.entity(i), WING) - 0.5f + wind;
                                    y[i] += r.nextFloat(t, c.entity(i), WING + 1) - 0.5f;
                                }
                            });
                    s.system("forage").after("fly").query(bees).reads(pos).writes(nectar, age)
                            .spawns(pos, nectar, age).despawns().writesEvents(DELIVERIES)
                            .readsResource(Simulation.RANDOM, Simulation.CLOCK).forEachChunk(job -> {
                                CounterRandom r = job.resource(Simulation.RANDOM);
                                long t = job.resource(Simulation.CLOCK).tick();
                                float speed = 1;
                                if (bug == Bug.NANO_TIME) {
                                    long now = System.nanoTime();
                                    speed = (now - lastJob[0]) % 1000 / 1000f; // "seconds" since the last job
                                    lastJob[0] = now;
                                }
                                ChunkView c = job.chunk();
                                float[] x = c.readFloats(px), y = c.readFloats(py);
                                float[] a = c.writeFloats(amount);
                                int[] g = c.writeInts(ticks);
                                CommandBuffer cmd = job.commands();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    for (Flower f : flowers) {
                                        if (Math.abs(f.x - x[i]) < 4 && Math.abs(f.y - y[i]) < 4) {
                                            a[i] += f.sweetness * speed;
                                            if (bug == Bug.STATIC_MEMORY && visits++ % 50 == 0) {
                                                a[i] += 1; // "every 50th visit is a lucky one"
                                            }
                                            break; // the first flower in reach feeds the bee
                                        }
                                    }
                                    if (a[i] >= 10) {
                                        job.send(DELIVERIES, new Delivery(c.entity(i), a[i]));
                                        a[i] = 0;
                                    }
                                    if (++g[i] > 60) {
                                        cmd.despawn(c.entity(i));
                                        long bee = cmd.spawn();
                                        float bx = r.nextInt(t, c.entity(i), BIRTH, 20);
                                        cmd.add(bee, pos, new Position(bx, 0));
                                        cmd.add(bee, nectar, new Nectar(0));
                                        cmd.add(bee, age, new Age(0));
                                    }
                                }
                            });
                    s.system("weigh").inPhase(Phase.POST_UPDATE).query(loads).reads(nectar).writesResource(STORE)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] a = c.readFloats(amount);
                                float sum = 0;
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    sum += a[i];
                                }
                                if (bug == Bug.UNDECLARED_COLUMN) {
                                    sum += c.readFloats(px)[0] > 10 ? 1 : 0; // "bees far out carry more"
                                }
                                if (bug == Bug.ATOMIC_FLOAT_SUM) {
                                    float mine = sum;
                                    carried.accumulateAndGet(mine, Float::sum); // in the order the jobs finish
                                } else if (bug == Bug.QUEUE_DRAIN) {
                                    weighed.add(sum);
                                } else {
                                    job.resourceForWrite(STORE).perChunk[job.chunkOrdinal()] = sum;
                                }
                            });
                    s.system("store").inPhase(Phase.POST_UPDATE).after("weigh").readsEvents(DELIVERIES)
                            .writesResource(STORE).forEachRange(() -> 1, (job, from, to) -> {
                                Store st = job.resourceForWrite(STORE);
                                EventReader<Delivery> in = job.events(DELIVERIES);
                                for (int k = 0; k < in.size(); k++) {
                                    st.honey += in.get(k).amount();
                                    st.deliveries++;
                                }
                                if (bug == Bug.WORLD_BY_ID && in.size() > 0) {
                                    st.honey += world.getFloat(in.get(0).bee(), amount);
                                }
                                float total = 0;
                                if (bug == Bug.ATOMIC_FLOAT_SUM) {
                                    total = carried.getAndSet(0f);
                                } else if (bug == Bug.QUEUE_DRAIN) {
                                    for (Float w = weighed.poll(); w != null; w = weighed.poll()) { // arrival order
                                        total += w;
                                    }
                                } else {
                                    for (int k = 0; k < st.perChunk.length; k++) { // chunk order, not worker order
                                        total += st.perChunk[k];
                                        st.perChunk[k] = 0;
                                    }
                                }
                                st.carried = total;
                            });
                })
                .build();
    }
}
