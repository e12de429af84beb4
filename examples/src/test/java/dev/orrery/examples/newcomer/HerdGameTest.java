package dev.orrery.examples.newcomer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.EntityRef;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RandomCursor;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.States;
import dev.orrery.testkit.DeterminismCheck;
import dev.orrery.testkit.InputScript;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small herd-and-predator game written as a newcomer would, from the README, the book and the
 * examples only: sheep wander, grow and breed lambs (each lamb {@code ChildOf} its mother until
 * weaned), the player calls wolves in and starts the hunt through inputs, wolves pick a prey
 * (an {@code @EntityRef}), chase it in a fixed-step physics phase, eat it or starve, and a
 * season state machine ends the game when the flock is gone. The test proves it deterministic
 * with the test kit (every worker count, job and tie order, snapshot, record and replay), then
 * records a run, replays it and checks a few facts of the game.
 */
class HerdGameTest {
    record Position(float x, float y) {}
    record Velocity(float dx, float dy) {}
    record Sheep(int age) {}
    record Wolf(int hunger, @EntityRef long prey) {}

    enum Season { CALM, HUNT, OVER }

    static final int PLAYER = 7;
    static final int CALL_WOLF = 1;
    static final int START_HUNT = 2;
    static final int WANDER = CounterRandom.stream("wander");
    static final int BREED = CounterRandom.stream("breed");
    static final float FIELD = 100;

    static final ResourceKey<States<Season>> SEASON = States.key("season", Season.class);
    static final ResourceKey<FixedTimestep> PHYSICS = ResourceKey.of("physics", FixedTimestep.class);
    static final ResourceKey<LongSum> EATEN_NOW = ResourceKey.of("eaten now", LongSum.class);
    static final ResourceKey<LongSum> BORN_NOW = ResourceKey.of("born now", LongSum.class);
    static final ResourceKey<LongSum> STARVED_NOW = ResourceKey.of("starved now", LongSum.class);
    static final ResourceKey<Tally> TALLY = ResourceKey.of("tally", Tally.class);

    /** The game's score and census: state kept across ticks, so it has a codec. */
    static final class Tally {
        long eaten;
        long born;
        long starved;
        long wolvesCalled;
        int sheep;
        int wolves;
        long overAt = -1;
    }

    static final ResourceCodec<Tally> TALLY_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Tally t, DataOutput out) throws IOException {
            out.writeLong(t.eaten);
            out.writeLong(t.born);
            out.writeLong(t.starved);
            out.writeLong(t.wolvesCalled);
            out.writeInt(t.sheep);
            out.writeInt(t.wolves);
            out.writeLong(t.overAt);
        }

        @Override
        public Tally read(DataInput in) throws IOException {
            Tally t = new Tally();
            t.eaten = in.readLong();
            t.born = in.readLong();
            t.starved = in.readLong();
            t.wolvesCalled = in.readLong();
            t.sheep = in.readInt();
            t.wolves = in.readInt();
            t.overAt = in.readLong();
            return t;
        }
    };

    /** The player: three wolves called in at set places, and the hunt started at tick 20. */
    static final InputScript PLAYER_SCRIPT = (tick, send) -> {
        if (tick == 3) send.input(PLAYER, CALL_WOLF, xy(10, 10));
        if (tick == 9) send.input(PLAYER, CALL_WOLF, xy(90, 50));
        if (tick == 20) send.input(PLAYER, START_HUNT, new byte[0]);
        if (tick == 60) send.input(PLAYER, CALL_WOLF, xy(50, 90));
    };

    static byte[] xy(float x, float y) {
        return ByteBuffer.allocate(8).putFloat(x).putFloat(y).array();
    }

    static float wrap(float v) {
        return v < 0 ? v + FIELD : v >= FIELD ? v - FIELD : v;
    }

    /** The whole game on {@code workers} threads; {@code populate} false leaves the world empty. */
    static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Sheep> sheep = world.component(Sheep.class);
        Component<Wolf> wolf = world.component(Wolf.class);
        Relation childOf = world.relations().childOf();
        Field px = pos.field("x"), py = pos.field("y"), vx = vel.field("dx"), vy = vel.field("dy");
        Field age = sheep.field("age"), hunger = wolf.field("hunger"), prey = wolf.field("prey");
        Field mother = childOf.target();

        Shape sheepShape = world.shape(pos, vel, sheep);
        Shape wolfShape = world.shape(pos, vel, wolf);
        for (int i = 0; populate && i < 48; i++) {
            sheepShape.spawn(new Position((i * 37) % 100, (i * 61) % 100), new Velocity(0, 0), new Sheep(i % 40));
        }
        Query movers = world.query().with(pos, vel).build();
        Query flock = world.query().with(pos, vel, sheep).build();
        Query pack = world.query().with(pos, vel, wolf).build();
        Query lambs = world.query().with(sheep, childOf.column()).build();
        Phase physics = Phase.named("Physics");

        return Simulation.builder(world).workers(workers).seed(2026)
                .resource(PHYSICS, new FixedTimestep(20_000_000, 16_666_667, 4))   // 20 ms steps
                .resource(SEASON, new States<>(Season.class, Season.CALM))
                .resource(EATEN_NOW, new LongSum())
                .resource(BORN_NOW, new LongSum())
                .resource(STARVED_NOW, new LongSum())
                .resource(TALLY, new Tally(), TALLY_CODEC)
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, physics, Phase.UPDATE, Phase.POST_UPDATE)
                            .fixedTimestep(physics, PHYSICS);

                    // Inputs once a tick, never in the fixed-step phase.
                    s.system("orders").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.INPUTS)
                            .writesResource(SEASON, TALLY).spawns(pos, vel, wolf)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                CommandBuffer cmd = job.commands();
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.client(k) != PLAYER) continue;
                                    if (in.type(k) == CALL_WOLF) {
                                        long w = cmd.spawn(wolfShape);
                                        cmd.setFloat(w, px, in.payloadFloat(k, 0));
                                        cmd.setFloat(w, py, in.payloadFloat(k, 4));
                                        job.resourceForWrite(TALLY).wolvesCalled++;
                                    } else if (in.type(k) == START_HUNT) {
                                        job.resourceForWrite(SEASON).request(Season.HUNT);
                                    }
                                }
                            });

                    s.system("integrate").inPhase(physics).query(movers).reads(vel).writes(pos)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] x = c.writeFloats(px), y = c.writeFloats(py);
                                float[] dx = c.readFloats(vx), dy = c.readFloats(vy);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    x[i] = wrap(x[i] + dx[i] * 0.02f);
                                    y[i] = wrap(y[i] + dy[i] * 0.02f);
                                }
                            });

                    s.system("wander").query(flock).writes(vel)
                            .readsResource(Simulation.RANDOM, Simulation.CLOCK).forEachChunk(job -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                RandomCursor rng = job.resource(Simulation.RANDOM).cursor();
                                ChunkView c = job.chunk();
                                long[] ids = c.entities();
                                float[] dx = c.writeFloats(vx), dy = c.writeFloats(vy);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    rng.reset(tick, ids[i], WANDER);
                                    dx[i] = Math.max(-3, Math.min(3, dx[i] + rng.nextFloat() - 0.5f));
                                    dy[i] = Math.max(-3, Math.min(3, dy[i] + rng.nextFloat() - 0.5f));
                                }
                            });

                    s.system("grow").query(flock).writes(sheep).forEachChunk(job -> {
                        int[] a = job.chunk().writeInts(age);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) a[i]++;
                    });

                    s.system("breed").query(flock).reads(pos, sheep)
                            .spawns(pos, vel, sheep).adds(childOf.column()).reducesResource(BORN_NOW)
                            .readsResource(Simulation.RANDOM, Simulation.CLOCK, TALLY)
                            .runIf(RunCondition.inState(SEASON, Season.OVER).negate())
                            .forEachChunk(job -> {
                                if (job.resource(TALLY).sheep >= 120) return;
                                long tick = job.resource(Simulation.CLOCK).tick();
                                RandomCursor rng = job.resource(Simulation.RANDOM).cursor();
                                ChunkView c = job.chunk();
                                long[] ids = c.entities();
                                int[] a = c.readInts(age);
                                float[] x = c.readFloats(px), y = c.readFloats(py);
                                CommandBuffer cmd = job.commands();
                                int born = 0;
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (a[i] < 30 || rng.reset(tick, ids[i], BREED).nextInt(100) >= 3) continue;
                                    long lamb = cmd.spawn(sheepShape);
                                    cmd.setFloat(lamb, px, x[i]);
                                    cmd.setFloat(lamb, py, y[i]);
                                    cmd.addPair(lamb, childOf, ids[i]);       // the lamb follows its mother's fate
                                    born++;
                                }
                                job.add(BORN_NOW, born);
                            });

                    s.system("wean").query(lambs).reads(sheep, childOf.column()).removes(childOf.column())
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                long[] ids = c.entities();
                                int[] a = c.readInts(age);
                                long[] mothers = c.readLongs(mother);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (a[i] >= 20) job.commands().removePair(ids[i], childOf, mothers[i]);
                                }
                            });

                    // Each hungry wolf without a live prey takes the nearest sheep no other wolf has.
                    s.system("pick prey").after("grow").runIf(RunCondition.inState(SEASON, Season.HUNT))
                            .exclusive((w, job) -> {
                                List<long[]> targets = new ArrayList<>();
                                List<float[]> places = new ArrayList<>();
                                flock.forEachChunk(c -> {
                                    targets.add(c.entities().clone());
                                    float[] xy = new float[c.size() * 2];
                                    for (int i = 0; i < c.size(); i++) {
                                        xy[2 * i] = c.readFloats(px)[i];
                                        xy[2 * i + 1] = c.readFloats(py)[i];
                                    }
                                    places.add(xy);
                                });
                                Set<Long> taken = new HashSet<>();            // look-ups only, never iterated
                                pack.forEachChunk(c -> {
                                    long[] p = c.readLongs(prey);
                                    for (int i = 0; i < c.size(); i++) if (w.isAlive(p[i])) taken.add(p[i]);
                                });
                                pack.forEachChunk(c -> {
                                    long[] p = c.writeLongs(prey);
                                    float[] x = c.readFloats(px), y = c.readFloats(py);
                                    for (int i = 0; i < c.size(); i++) {
                                        if (w.isAlive(p[i])) continue;
                                        long best = 0;
                                        float bestD = Float.MAX_VALUE;
                                        for (int k = 0; k < targets.size(); k++) {
                                            long[] t = targets.get(k);
                                            float[] xy = places.get(k);
                                            for (int j = 0; j < t.length && j < xy.length / 2; j++) {
                                                float ddx = xy[2 * j] - x[i], ddy = xy[2 * j + 1] - y[i];
                                                float d = ddx * ddx + ddy * ddy;
                                                if (d < bestD && !taken.contains(t[j])) {
                                                    bestD = d;
                                                    best = t[j];
                                                }
                                            }
                                        }
                                        p[i] = best;
                                        if (best != 0) taken.add(best);
                                    }
                                });
                            });

                    s.system("chase").after("pick prey").query(pack).reads(pos).writes(vel, wolf)
                            .despawns().reducesResource(EATEN_NOW, STARVED_NOW)
                            .runIf(RunCondition.inState(SEASON, Season.HUNT))
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                long[] ids = c.entities();
                                float[] x = c.readFloats(px), y = c.readFloats(py);
                                float[] dx = c.writeFloats(vx), dy = c.writeFloats(vy);
                                int[] h = c.writeInts(hunger);
                                long[] p = c.writeLongs(prey);
                                CommandBuffer cmd = job.commands();
                                int eaten = 0, starved = 0;
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (++h[i] > 90) {
                                        cmd.despawn(ids[i]);
                                        starved++;
                                        continue;
                                    }
                                    if (p[i] == 0) continue;
                                    float ddx = job.getFloat(p[i], px) - x[i], ddy = job.getFloat(p[i], py) - y[i];
                                    float d = (float) Math.sqrt(ddx * ddx + ddy * ddy);
                                    if (d < 2) {
                                        cmd.despawn(p[i]);                  // its unweaned lambs go too
                                        p[i] = 0;
                                        h[i] = 0;
                                        eaten++;
                                        dx[i] = 0;
                                        dy[i] = 0;
                                    } else {
                                        dx[i] = ddx / d * 40;
                                        dy[i] = ddy / d * 40;
                                    }
                                }
                                job.add(EATEN_NOW, eaten);
                                job.add(STARVED_NOW, starved);
                            });

                    s.system("census").inPhase(Phase.POST_UPDATE).exclusive((w, job) -> {
                        Tally t = job.resourceForWrite(TALLY);
                        t.sheep = flock.count();
                        t.wolves = pack.count();
                        t.eaten += job.resource(EATEN_NOW).total();
                        t.born += job.resource(BORN_NOW).total();
                        t.starved += job.resource(STARVED_NOW).total();
                        job.resourceForWrite(EATEN_NOW).reset();
                        job.resourceForWrite(BORN_NOW).reset();
                        job.resourceForWrite(STARVED_NOW).reset();
                        States<Season> season = job.resourceForWrite(SEASON);
                        if (season.current() == Season.HUNT && (t.sheep == 0 || t.wolves == 0)) {
                            season.request(Season.OVER);
                            t.overAt = job.resource(Simulation.CLOCK).tick();
                        }
                    });
                })
                .build();
    }

    @Test
    void theHerdGameIsDeterministicOnEveryWorkerCountAndThroughRecordAndReplay() {
        List<String> runs = DeterminismCheck.of(HerdGameTest::build)
                .ticks(200)
                .workers(1, 2, 4)
                .inputs(PLAYER_SCRIPT)
                .run();
        // the kit's verdict: every run it made matched the reference, these among them
        assertTrue(runs.containsAll(List.of("1 worker, jobs in reverse order", "1 worker, unordered systems in reverse order",
                "4 workers, batch 1", "restored from the snapshot of tick 100 on 4 workers",
                "the recording replayed on 1 worker", "the recording replayed on 4 workers")), "the kit's runs: " + runs);
    }

    @Test
    void aRecordedHuntReplaysToTheSameHashAndTheGameDidWhatItSays(@TempDir Path dir) throws Exception {
        Path recording = dir.resolve("hunt");
        long recordedHash;
        Tally recorded;
        try (Simulation sim = build(2, true)) {
            try (RunRecorder recorder = RunRecorder.start(sim, recording, InputPipeline.builder())) {
                InputPipeline inputs = recorder.inputs();
                for (long tick = 0; tick < 400; tick++) {
                    PLAYER_SCRIPT.inputs(tick, (client, type, payload) ->
                            assertTrue(inputs.tryPublish(client, type, payload, 0, payload.length)));
                    sim.tick();
                    if (tick == 25) {
                        assertEquals(Season.HUNT, sim.resources().get(SEASON).current(),
                                "the hunt asked for at tick 20 has started");
                    }
                }
            }
            recordedHash = sim.world().stateHash();
            recorded = sim.resources().get(TALLY);
            World world = sim.world();
            Relation childOf = world.relations().childOf();
            long[] pairs = world.relations().pairs(childOf);          // (holder, target, seq) triples
            for (int k = 0; k < pairs.length; k += 3) {
                // every lamb still tied to a mother has a live one: eating a mother took her lambs
                assertTrue(world.isAlive(pairs[k + 1]), "a lamb's mother is alive");
                assertEquals(pairs[k + 1], world.relations().parent(pairs[k]));
            }
        }
        assertEquals(3, recorded.wolvesCalled, "the player called three wolves");
        assertTrue(recorded.born > 0, "lambs were born: " + recorded.born);
        assertTrue(recorded.eaten > 0, "wolves ate sheep: " + recorded.eaten);
        assertEquals(recorded.wolves + recorded.starved, 3, "each wolf is alive or starved");
        assertTrue(recorded.sheep > 0 && recorded.overAt == -1, "the flock outbred three wolves: " + recorded.sheep);

        try (Simulation replay = build(1, false)) {
            RunReplayer.Result result = RunReplayer.replay(recording, replay);
            assertEquals(400, result.ticks());
            assertEquals(recordedHash, result.finalHash(), "the replay on 1 worker ends where the run on 2 did");
            assertEquals(recorded.eaten, replay.resources().get(TALLY).eaten);
            assertTrue(result.closedCleanly());
        }
    }
}
