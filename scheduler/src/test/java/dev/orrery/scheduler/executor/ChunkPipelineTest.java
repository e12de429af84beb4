package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Chunk pipelines: consecutive chunk systems over one query run in one job per chunk range,
 * each right after the one before on the same worker, with the graph order's result; systems
 * whose declarations forbid it are not fused; a by-id access that could see the pipeline's
 * timing is refused, naming the declaration that keeps the system out.
 */
class ChunkPipelineTest {
    record Pos(float x) {
    }

    record Vel(float v) {
    }

    record Hp(float hp) {
    }

    static final ResourceKey<LongSum> DEATHS = ResourceKey.of("deaths", LongSum.class);
    static final ResourceKey<long[]> TALLY = ResourceKey.of("tally", long[].class);

    /** move, damage, reap over one query: the particle loop's pipeline. */
    static final class Game {
        final World world = new World(1024);
        final Component<Pos> pos = world.component(Pos.class);
        final Component<Vel> vel = world.component(Vel.class);
        final Component<Hp> hp = world.component(Hp.class);
        final Field x = pos.field("x");
        final Field v = vel.field("v");
        final Field h = hp.field("hp");
        final Query all;
        final LongSum deaths = new LongSum();

        Game() {
            for (int i = 0; i < 20_000; i++) {
                world.spawn(new Pos(i), new Vel(i % 13 * 0.25f), new Hp(5 + i % 97));
            }
            all = world.query().with(pos, vel, hp).build();
        }

        Schedule.Builder pipeline(Consumer<Schedule.SystemBuilder> reapExtra) {
            Schedule.SystemBuilder reap = Schedule.builder(world).resource(DEATHS, deaths).minBatchRows(64)
                    .system("move").query(all).reads(vel).writes(pos).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        float[] px = c.writeFloats(x);
                        float[] pv = c.readFloats(v);
                        for (int i = 0; i < c.size(); i++) {
                            px[i] += pv[i];
                        }
                    })
                    .system("damage").query(all).reads(pos).writes(hp).forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        float[] ph = c.writeFloats(h);
                        float[] px = c.readFloats(x);
                        for (int i = 0; i < c.size(); i++) {
                            ph[i] -= px[i] % 3 == 0 ? 2 : 1;
                        }
                    })
                    .system("reap").query(all).reads(hp).reducesResource(DEATHS);
            reapExtra.accept(reap);
            return reap.forEachChunk(job -> {
                float[] ph = job.chunk().readFloats(h);
                int dead = 0;
                for (int i = 0; i < job.chunk().size(); i++) {
                    dead += ph[i] <= 0 ? 1 : 0;
                }
                job.add(DEATHS, dead);
            });
        }
    }

    private static long last(Game g) {
        long[] out = new long[1];
        g.all.forEachChunk(c -> out[0] = c.entity(c.size() - 1));
        return out[0];
    }

    private static Map<String, BatchDecision.Mode> modes(ScheduleExecutor e) {
        Map<String, BatchDecision.Mode> out = new HashMap<>();
        for (BatchDecision d : e.batching()) {
            out.put(d.system(), d.mode());
        }
        return out;
    }

    @Test
    void shouldFuseThePipelineAndGiveTheGraphOrdersResultOnEveryWorkerCount() {
        long[] reference = new long[30];
        long[] deathsRef = new long[30];
        Game one = new Game();
        try (ScheduleExecutor e = one.pipeline(b -> { }).build().executor(1)) {
            for (int t = 0; t < reference.length; t++) {
                one.deaths.reset();
                e.run();
                reference[t] = one.world.stateHash();
                deathsRef[t] = one.deaths.total();
            }
        }
        for (int workers : new int[] {2, 4}) {
            Game g = new Game();
            Map<Integer, String> names = new HashMap<>();
            List<long[]> ran = new ArrayList<>(); // worker, system, from, to, start, end
            Schedule schedule = g.pipeline(b -> { }).build();
            List<String> order = schedule.systemNames();
            for (int i = 0; i < order.size(); i++) {
                names.put(i, order.get(i));
            }
            try (ScheduleExecutor e = schedule.executor(workers)) {
                e.observe((worker, system, from, to, start, end) -> {
                    synchronized (ran) {
                        ran.add(new long[] {worker, system, from, to, start, end});
                    }
                });
                for (int t = 0; t < reference.length; t++) {
                    g.deaths.reset();
                    e.run();
                    assertEquals(reference[t], g.world.stateHash(), workers + " workers, tick " + t);
                    assertEquals(deathsRef[t], g.deaths.total(), workers + " workers, tick " + t);
                }
                Map<String, BatchDecision.Mode> m = modes(e);
                assertEquals(BatchDecision.Mode.FUSED, m.get("damage"), BatchDecision.toText(e.batching()));
                assertEquals(BatchDecision.Mode.FUSED, m.get("reap"), BatchDecision.toText(e.batching()));
                assertEquals(BatchDecision.Mode.EXPLICIT, m.get("move"), BatchDecision.toText(e.batching()));
            }
            // every job of reap ran on the worker that ran damage's job over the same chunks, right after it
            int splitRuns = 0;
            for (long[] j : ran) {
                if (!names.get((int) j[1]).equals("reap")) {
                    continue;
                }
                boolean after = false;
                for (long[] d : ran) {
                    after |= names.get((int) d[1]).equals("damage") && d[0] == j[0] && d[2] == j[2] && d[3] == j[3]
                            && d[5] <= j[4];
                }
                assertTrue(after, "reap's job over chunks " + j[2] + ".." + j[3] + " did not follow damage's on worker "
                        + j[0]);
                splitRuns++;
            }
            assertTrue(splitRuns > reference.length, "the pipeline was split into jobs: " + splitRuns);
        }
    }

    @Test
    void shouldNotFuseWhatTheDeclarationsForbid() {
        Game g = new Game();
        Query other = g.world.query().with(g.pos, g.hp).build();
        try (ScheduleExecutor e = Schedule.builder(g.world).resource(DEATHS, g.deaths).resource(TALLY, new long[1])
                .minBatchRows(64)
                .system("a").query(g.all).writes(g.pos).writesResource(TALLY).forEachChunk(job -> { })
                .system("reads what a writes").query(g.all).reads(g.vel).readsResource(TALLY).forEachChunk(job -> { })
                .system("other query").query(other).writes(g.hp).forEachChunk(job -> { })
                .system("b").query(g.all).writes(g.vel).runIf(dev.orrery.scheduler.RunCondition.of("always", r -> true)).forEachChunk(job -> { })
                .system("c").query(g.all).reads(g.vel).touchesOtherEntities().forEachChunk(job -> { })
                .build().executor(2)) {
            e.run();
            for (BatchDecision d : e.batching()) {
                assertTrue(d.mode() != BatchDecision.Mode.FUSED, BatchDecision.toText(e.batching()));
            }
        }
    }

    @Test
    void shouldRefuseAByIdReadOfAnotherChunkThatThePipelineWritesNamingTheDeclaration() {
        Game g = new Game();
        long far = last(g); // in the last chunk
        Consumer<Schedule.SystemBuilder> peek = b -> { };
        try (ScheduleExecutor e = g.pipeline(peek).system("peek").query(g.all).reads(g.hp).forEachChunk(job -> {
            if (job.chunkOrdinal() == 0) {
                job.getFloat(far, g.h); // damage writes hp: that chunk may be ahead of or behind this one
            }
        }).build().executor(2)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, e::run);
            assertEquals("peek", f.system());
            assertTrue(f.getCause().getMessage().contains("Declare .touchesOtherEntities() on 'peek'"),
                    f.getCause().getMessage());
            assertTrue(f.getCause().getMessage().contains("'move' -> 'damage' -> 'reap' -> 'peek'"),
                    f.getCause().getMessage());
        }
        Game h = new Game();
        long farH = last(h);
        float[] seen = new float[1];
        try (ScheduleExecutor e = h.pipeline(b -> { }).system("peek").query(h.all).reads(h.hp).touchesOtherEntities()
                .forEachChunk(job -> {
                    if (job.chunkOrdinal() == 0) {
                        seen[0] = job.getFloat(farH, h.h);
                    }
                }).build().executor(2)) {
            e.run();
            assertEquals(h.world.getFloat(farH, h.h), seen[0], "declared: it runs after the whole pipeline");
        }
    }

    @Test
    void shouldAllowAByIdReadOfAnEntityThePipelinesQueryDoesNotMatchAsUnfused() {
        float[] seen = new float[2];
        for (boolean fused : new boolean[] {false, true}) {
            Game g = new Game();
            long lone = g.world.spawn(new Pos(42)); // no Vel, no Hp: no system of the pipeline writes its Pos
            String old = System.getProperty(ChunkPipelines.PROPERTY);
            System.setProperty(ChunkPipelines.PROPERTY, Boolean.toString(fused));
            ParallelExecutor e;
            try {
                e = new ParallelExecutor(dev.orrery.scheduler.internal.SchedulerInternals.plan(g.pipeline(b -> { })
                        .system("peek").query(g.all).reads(g.pos).writes(g.vel).forEachChunk(job -> {
                            if (job.chunkOrdinal() == 3) {
                                seen[fused ? 1 : 0] = job.getFloat(lone, g.x);
                            }
                        }).build()), 2);
            } finally {
                if (old == null) {
                    System.clearProperty(ChunkPipelines.PROPERTY);
                } else {
                    System.setProperty(ChunkPipelines.PROPERTY, old);
                }
            }
            try (e) {
                e.run();
                assertEquals(fused, modes(e).get("peek") == BatchDecision.Mode.FUSED, BatchDecision.toText(e.batching()));
            }
        }
        assertEquals(42f, seen[0]);
        assertEquals(seen[0], seen[1], "fused, the read sees what it sees unfused");
    }
}
