package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A resource with a codec that run conditions read, in a hosted world saved through
 * {@code hostedWorld.call(Simulation::snapshot)} and restored into a fresh simulation, alone
 * and hosted again: the conditions must see the restored value from the first tick on, so the
 * restored world's hashes and score are those the uninterrupted world had.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostedCodecConditionRestoreTest {
    record Hp(int hp) {
    }

    static final class Score {
        long points;
    }

    static final ResourceKey<Score> SCORE = ResourceKey.of("hostedScore", Score.class);

    static final ResourceCodec<Score> CODEC = new ResourceCodec<>() {
        @Override
        public void write(Score s, DataOutput out) throws IOException {
            out.writeLong(s.points);
        }

        @Override
        public Score read(DataInput in) throws IOException {
            Score s = new Score();
            s.points = in.readLong();
            return s;
        }
    };

    static final ResourceKey<LongSum> BOOSTED = ResourceKey.of("hostedBoosted", LongSum.class);

    static final ResourceCodec<LongSum> SUM_CODEC = new ResourceCodec<>() {
        @Override
        public void write(LongSum s, DataOutput out) throws IOException {
            out.writeLong(s.total());
        }

        @Override
        public LongSum read(DataInput in) throws IOException {
            return new LongSum(in.readLong());
        }
    };

    static Simulation build(boolean populate) {
        return build(populate, 1);
    }

    static Simulation build(boolean populate, int workers) {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        Field hpv = hp.field("hp");
        if (populate) {
            for (int i = 0; i < 50; i++) {
                world.spawn(new Hp(i));
            }
        }
        SimulationBuilder builder = Simulation.builder(world).seed(11).workers(workers)
                .resource(SCORE, new Score(), CODEC).resource(BOOSTED, new LongSum(), SUM_CODEC);
        return builder.systems(s -> s
                .system("score").readsResource(Simulation.CLOCK).writesResource(SCORE).forEachRange(() -> 1,
                        (job, from, to) -> job.resourceForWrite(SCORE).points += job.resource(Simulation.CLOCK).tick() % 4)
                .system("boost").after("score").runIf(RunCondition.resource(SCORE, sc -> sc.points % 3 == 0)
                        .describedAs("score a multiple of 3"))
                .query(world.query().with(hp).build()).writes(hp).reducesResource(BOOSTED).forEachChunk(job -> {
                    int[] h = job.chunk().writeInts(hpv);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        h[i] += 1;
                    }
                    job.add(BOOSTED, job.chunk().size());
                })
                .system("calm").after("boost").runIf(RunCondition.resource(BOOSTED, b -> b.total() % 2 == 1))
                .query(world.query().with(hp).build()).writes(hp).forEachChunk(job -> {
                    int[] h = job.chunk().writeInts(hpv);
                    for (int i = 0; i < job.chunk().size(); i += 2) {
                        h[i] -= 3;
                    }
                })
                .system("breed").after("score").runIf(RunCondition.resource(SCORE, sc -> sc.points % 5 == 1))
                .spawns(hp).readsResource(SCORE).forEachRange(() -> 1, (job, from, to) -> {
                    long e = job.commands().spawn();
                    job.commands().add(e, hp, new Hp((int) job.resource(SCORE).points));
                }))
                .build();
    }

    @Test
    void aSaveTakenThroughCallRestoresTheResourceTheConditionsRead() throws Exception {
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            HostedWorld w = host.add("scored", build(true), 200);
            Object[] got = w.call(sim -> new Object[] {sim.snapshot(), sim.currentTick(), sim.world().stateHash(),
                    sim.resources().get(SCORE).points}).get(20, TimeUnit.SECONDS);
            byte[] save = (byte[]) got[0];
            int savedAt = (int) (long) got[1];
            w.remove().get(20, TimeUnit.SECONDS).bindTickThread();
            int ticks = savedAt + 40;
            long[] hashes = new long[ticks + 1];
            long[] points = new long[ticks + 1];
            try (Simulation alone = build(true)) {
                hashes[0] = alone.world().stateHash();
                for (int t = 0; t < ticks; t++) {
                    alone.tick();
                    hashes[t + 1] = alone.world().stateHash();
                    points[t + 1] = alone.resources().get(SCORE).points;
                }
            }
            assertEquals(hashes[savedAt], (long) got[2], "the hosted world's hash at tick " + savedAt);
            assertEquals(points[savedAt], (long) got[3], "the hosted world's score at tick " + savedAt);

            Simulation loaded = build(false);
            loaded.restore(save);
            assertEquals(points[savedAt], loaded.resources().get(SCORE).points, "score after the restore");
            HostedWorld again = host.add("scored again", loaded, 0, ticks - savedAt, java.time.Duration.ZERO);
            Simulation back = again.done().get(20, TimeUnit.SECONDS);
            back.bindTickThread();
            assertEquals(ticks, back.currentTick());
            assertEquals(points[ticks], back.resources().get(SCORE).points, "score after the hosted restored run");
            assertEquals(hashes[ticks], back.world().stateHash(), "hash after the hosted restored run");
            back.close();

            try (Simulation restored = build(false, 2)) {
                restored.restore(save);
                for (int t = savedAt; t < ticks; t++) {
                    restored.tick();
                    assertEquals(points[t + 1], restored.resources().get(SCORE).points, "score after tick " + t);
                    assertEquals(hashes[t + 1], restored.world().stateHash(), "hash after tick " + t);
                }
            }
        }
    }
}
