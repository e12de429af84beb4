package dev.orrery.testkit;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A small game for the kit's own tests: plants grow by water and wind, a gardener waters the
 * one an input names, and a "mistake" system can plant one of the classic determinism bugs.
 */
final class Garden {
    record Growth(float height) {
    }

    record Water(int level) {
    }

    record Wind(float gust) {
    }

    record Seed(float vigor) {
    }

    /** The classic mistakes, each in the system named {@link #MISTAKE}. */
    enum Mistake { NONE, HASH_MAP_ORDER, SHARED_RANDOM, WALL_CLOCK, UNDECLARED_CHANGE_TEST, UNSNAPSHOTTED_RESOURCE,
        /** A spawn whose value comes from a static counter: the difference is in the commands, not the world. */
        STATIC_COUNTER_SPAWN,
        /** As {@link #STATIC_COUNTER_SPAWN}, with a sync point before 'season': the commands are applied mid-tick. */
        STATIC_COUNTER_SPAWN_MID_TICK,
        /** An observer hook on the spawned Seed that reads a static counter (as one reading the wall clock would differ). */
        HOOK_SHARED_STATE,
        /** A score (a resource with a codec: state) from a static counter, never read back into the world. */
        SCORE_ONLY,
        /** Not a bug: a deliberate change of the rules, which a golden recording catches. */
        CHANGED_RULE,
        /** A float total (a resource with a codec) each job adds its part to, in the order the jobs run. */
        FLOAT_TOTAL_IN_JOB_ORDER,
        /** Jobs append their first entity to a shared list, then set a value from its place in the list. */
        LIST_IN_JOB_ORDER,
        /**
         * The score (a resource with a codec) changed through the object the factory put, captured in the
         * lambda, instead of {@code job.resourceForWrite(SCORE)}: a restore puts a new object, which nothing
         * changes then.
         */
        CAPTURED_RESOURCE }

    static final String MISTAKE = "mistake";
    static final int WATER = 1;
    static final ResourceKey<long[]> SEASON = ResourceKey.of("season", long[].class);
    static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);
    static final ResourceKey<float[]> TOTAL = ResourceKey.of("total", float[].class);
    static final ResourceCodec<float[]> TOTAL_CODEC = new ResourceCodec<>() {
        @Override
        public void write(float[] total, DataOutput out) throws IOException {
            out.writeFloat(total[0]);
        }

        @Override
        public float[] read(DataInput in) throws IOException {
            return new float[] {in.readFloat()};
        }
    };

    /** The players' score: state, carried by snapshots. */
    record Score(long[] points) {
        @Override
        public String toString() {
            return "Score[" + points[0] + "]";
        }
    }

    static final ResourceCodec<Score> SCORE_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Score s, DataOutput out) throws IOException {
            out.writeLong(s.points()[0]);
        }

        @Override
        public Score read(DataInput in) throws IOException {
            return new Score(new long[] {in.readLong()});
        }
    };
    private static final Random SHARED = new Random();
    private static int seedsSpawned; // Mistake.STATIC_COUNTER_SPAWN
    private static long scored; // Mistake.SCORE_ONLY
    private static int hookCalls; // Mistake.HOOK_SHARED_STATE

    /** Waters plant {@code tick % 50} on every third tick. */
    static final InputScript GARDENER = (tick, send) -> {
        if (tick % 3 == 0) {
            send.input(7, WATER, ByteBuffer.allocate(4).putInt((int) (tick % 50)).array());
        }
    };

    private Garden() {
    }

    static SimulationFactory factory(Mistake mistake) {
        return (workers, populate) -> build(workers, populate, mistake);
    }

    static Simulation build(int workers, boolean populate, Mistake mistake) {
        World world = new World(1024);
        Component<Growth> growth = world.component(Growth.class);
        Component<Water> water = world.component(Water.class);
        Component<Wind> wind = world.component(Wind.class);
        Component<Seed> seed = world.component(Seed.class);
        Field vigor = seed.field("vigor");
        world.observe(seed).onAdd((w, e, commands) -> {
            if (mistake == Mistake.HOOK_SHARED_STATE) {
                commands.setFloat(e, vigor, ++hookCalls);
            }
        });
        if (populate) {
            for (int i = 0; i < 3_000; i++) {
                world.spawn(new Growth(0), new Water(i % 5), new Wind(i % 11));
            }
        }
        Field height = growth.field("height");
        Field level = water.field("level");
        Field gust = wind.field("gust");
        var plants = world.query().with(growth, water, wind).build();
        var watered = world.query().with(water).build();
        Map<Object, Integer> beds = new HashMap<>();
        for (int i = 0; i < 32; i++) {
            beds.put(new Object(), i); // keys hashed by identity: the iteration order differs between worlds
        }
        List<Long> arrivals = new ArrayList<>(); // Mistake.LIST_IN_JOB_ORDER: one list per simulation, shared by its jobs
        Score score = new Score(new long[1]); // Mistake.CAPTURED_RESOURCE captures it
        return Simulation.builder(world).workers(workers).seed(11).resource(SEASON, new long[1])
                .resource(SCORE, score, SCORE_CODEC).resource(TOTAL, new float[1], TOTAL_CODEC)
                .systems(s -> {
                    Schedule.Builder b = s
                            .system("water").query(watered).writes(water).readsResource(Simulation.INPUTS)
                            .forEachChunk(job -> {
                                var inputs = job.resource(Simulation.INPUTS);
                                int[] l = job.chunk().writeInts(level);
                                for (int k = 0; k < inputs.size(); k++) {
                                    int plant = inputs.payloadInt(k, 0);
                                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                        if (job.chunk().entity(i) % 50 == plant) {
                                            l[i]++;
                                        }
                                    }
                                }
                            })
                            .system("grow").after("water").query(plants).reads(water, wind).writes(growth)
                            .readsResource(Simulation.CLOCK, Simulation.RANDOM)
                            .forEachChunk(job -> {
                                CounterRandom rnd = job.resource(Simulation.RANDOM);
                                long t = job.resource(Simulation.CLOCK).tick();
                                float[] h = job.chunk().writeFloats(height);
                                int[] l = job.chunk().readInts(level);
                                float[] g = job.chunk().readFloats(gust);
                                for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                    h[i] += l[i] * 0.01f + g[i] * rnd.nextFloat(t, job.chunk().entity(i), 1) * 0.001f;
                                }
                            });
                    b.system(MISTAKE).after("grow").query(plants).writes(wind).reads(growth).readsResource(SEASON)
                            .writesResource(SEASON, SCORE, TOTAL).spawns(seed)
                            .forEachChunk(job -> {
                                float[] g = job.chunk().writeFloats(gust);
                                if (job.chunkOrdinal() == 0 && (mistake == Mistake.STATIC_COUNTER_SPAWN
                                        || mistake == Mistake.STATIC_COUNTER_SPAWN_MID_TICK
                                        || mistake == Mistake.HOOK_SHARED_STATE)) {
                                    long e = job.commands().spawn();
                                    int n = mistake == Mistake.HOOK_SHARED_STATE ? 0 : seedsSpawned++;
                                    job.commands().add(e, seed, new Seed(n));
                                }
                                switch (mistake) {
                                    case HASH_MAP_ORDER -> {
                                        int k = 0;
                                        for (Map.Entry<Object, Integer> e : beds.entrySet()) {
                                            if (k < job.chunk().size()) {
                                                g[k++] += e.getValue() * 0.001f;
                                            }
                                        }
                                    }
                                    case SHARED_RANDOM -> g[0] += SHARED.nextInt(3);
                                    case WALL_CLOCK -> g[0] += System.nanoTime() % 3;
                                    case UNDECLARED_CHANGE_TEST -> {
                                        if (job.chunk().changed(water)) {
                                            g[0] += 1;
                                        }
                                    }
                                    case UNSNAPSHOTTED_RESOURCE -> g[0] += job.resource(SEASON)[0];
                                    case CHANGED_RULE -> g[0] += 0.5f;
                                    case SCORE_ONLY -> {
                                        if (job.chunkOrdinal() == 0) {
                                            job.resourceForWrite(SCORE).points()[0] += ++scored;
                                        }
                                    }
                                    // chunk 0's part is 1e8, the others' 1.5, under half an ulp of 1e8 (8): first,
                                    // 1e8 swallows each 1.5; last, the 1.5s add up before it
                                    case FLOAT_TOTAL_IN_JOB_ORDER -> job.resourceForWrite(TOTAL)[0] +=
                                            job.chunkOrdinal() == 0 ? 1e8f : 1.5f;
                                    case CAPTURED_RESOURCE -> {
                                        if (job.chunkOrdinal() == 0) {
                                            score.points()[0]++; // the mistake: not job.resourceForWrite(SCORE)
                                        }
                                    }
                                    case LIST_IN_JOB_ORDER -> {
                                        arrivals.add(job.chunk().entity(0));
                                        g[0] += arrivals.size(); // this job's place among the jobs that ran before it
                                    }
                                    default -> {
                                    }
                                }
                            });
                    Schedule.SystemBuilder season = b.system("season").after(MISTAKE);
                    if (mistake == Mistake.STATIC_COUNTER_SPAWN_MID_TICK) {
                        season.afterStructuralChanges();
                    }
                    season.writesResource(SEASON).forEachRange(() -> 1,
                                    (job, from, to) -> {
                                        job.resourceForWrite(SEASON)[0]++;
                                        arrivals.clear();
                                    });
                })
                .build();
    }
}
