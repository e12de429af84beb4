package dev.orrery.examples.newcomer;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Schedule;
import dev.orrery.testkit.InputScript;
import dev.orrery.testkit.SimulationFactory;
import java.nio.ByteBuffer;

/**
 * A small vineyard, written by a newcomer from the README and the determinism chapter only, to
 * guard its behaviour with a golden recording: vines drink rain, age, ripen by how wet their
 * soil is, and are picked when ripe; the player plants a vine through an input every seventh
 * tick. {@link Version} holds the knobs the walkthrough turns: a constant that changes the
 * behaviour, the order in which two unordered systems are declared (which must not), and a
 * system's name.
 */
public final class VineyardGame implements SimulationFactory {
    record Vine(int age) {}
    record Soil(float water) {}
    record Grapes(float ripeness, int picked) {}

    /** The knobs: the game as first recorded is {@link #FIRST}. */
    record Version(float ripenRate, boolean ageDeclaredFirst, String ripenName) {
        static final Version FIRST = new Version(0.05f, false, "ripen");
    }

    static final int GARDENER = 3;
    static final int PLANT = 1;
    static final int RAIN = CounterRandom.stream("rain");

    /** The gardener plants a vine in row {@code tick % 5} every seventh tick. */
    static final InputScript GARDENER_SCRIPT = (tick, send) -> {
        if (tick % 7 == 0) {
            send.input(GARDENER, PLANT, ByteBuffer.allocate(4).putInt((int) (tick % 5)).array());
        }
    };

    /** The first version, for {@code CompareRecordings --game}. */
    public VineyardGame() {
    }

    @Override
    public Simulation create(int workers, boolean populate) {
        return build(workers, populate, Version.FIRST);
    }

    /** The vineyard on {@code workers} threads; {@code populate} false leaves the world empty. */
    static Simulation build(int workers, boolean populate, Version version) {
        World world = new World();
        Component<Vine> vine = world.component(Vine.class);
        Component<Soil> soil = world.component(Soil.class);
        Component<Grapes> grapes = world.component(Grapes.class);
        Field age = vine.field("age"), water = soil.field("water");
        Field ripeness = grapes.field("ripeness"), picked = grapes.field("picked");
        Shape sapling = world.shape(vine, soil, grapes);
        for (int i = 0; populate && i < 40; i++) {
            sapling.spawn(new Vine(i % 9), new Soil(0.1f * (i % 4)), new Grapes(0, 0));
        }
        Query vineyard = world.query().with(vine, soil, grapes).build();
        Query soils = world.query().with(soil).build();
        Query vines = world.query().with(vine).build();
        return Simulation.builder(world).workers(workers).seed(7)
                .systems(s -> {
                    s.system("plant").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.INPUTS)
                            .spawns(vine, soil, grapes).forEachRange(() -> 1, (job, from, to) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                CommandBuffer cmd = job.commands();
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.client(k) == GARDENER && in.type(k) == PLANT) {
                                        long t = cmd.spawn(sapling);
                                        cmd.set(t, vine, new Vine(-in.payloadInt(k, 0)));
                                    }
                                }
                            });
                    if (version.ageDeclaredFirst()) {
                        age(s, vines, age);
                        rain(s, soils, water);
                    } else {
                        rain(s, soils, water);
                        age(s, vines, age);
                    }
                    float rate = version.ripenRate();
                    s.system(version.ripenName()).query(vineyard).reads(vine, soil).writes(grapes)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                int[] a = c.readInts(age);
                                float[] w = c.readFloats(water), r = c.writeFloats(ripeness);
                                int[] p = c.writeInts(picked);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (a[i] < 3) continue;                  // too young to bear grapes
                                    r[i] += rate * (0.5f + w[i]);
                                    if (r[i] >= 1) {
                                        r[i] = 0;
                                        p[i]++;
                                    }
                                }
                            });
                })
                .build();
    }

    static void rain(Schedule.Builder s, Query soils, Field water) {
        s.system("rain").query(soils).writes(water.component())
                .readsResource(Simulation.RANDOM, Simulation.CLOCK).forEachChunk(job -> {
                    CounterRandom random = job.resource(Simulation.RANDOM);
                    long tick = job.resource(Simulation.CLOCK).tick();
                    ChunkView c = job.chunk();
                    long[] ids = c.entities();
                    float[] w = c.writeFloats(water);
                    for (int i = 0, n = c.size(); i < n; i++) {
                        w[i] = Math.min(1, w[i] * 0.9f + random.nextFloat(tick, ids[i], RAIN) * 0.2f);
                    }
                });
    }

    static void age(Schedule.Builder s, Query vines, Field age) {
        s.system("age").query(vines).writes(age.component()).forEachChunk(job -> {
            ChunkView c = job.chunk();
            int[] a = c.writeInts(age);
            for (int i = 0, n = c.size(); i < n; i++) {
                a[i]++;
            }
        });
    }
}
