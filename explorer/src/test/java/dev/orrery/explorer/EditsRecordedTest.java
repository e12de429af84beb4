package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Range;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Explorer edits x RunRecorder: an edit made on the page of a recorded run, through a sink
 * that publishes to {@code recorder.inputs()} as the explorer chapter shows, is journaled, so a
 * replay of the recording applies (and refuses) it at the same tick and ends with the live
 * run's state hash. The explorer itself writes nothing a replay could miss.
 */
class EditsRecordedTest {
    record Health(@Range(min = 0, max = 100) int hp) {
    }

    static final int SET_HP = 9;

    /** Publishes each edit as a SET_HP input to {@code inputs}, settles it when applied. */
    static final class Sink implements EditSink {
        final AtomicReference<InputPipeline> inputs = new AtomicReference<>();
        final Map<Long, Edit> waiting = new ConcurrentHashMap<>();

        @Override
        public String submit(Edit edit) {
            byte[] p = ByteBuffer.allocate(20).putLong(edit.entity()).putInt(Integer.parseInt(edit.value()))
                    .putLong(edit.id()).array();
            waiting.put(edit.id(), edit);
            return inputs.get().tryPublish(0, SET_HP, p, 0, p.length) ? null : "busy: retry";
        }

        @Override
        public String readOnly(String component, String field) {
            return component.equals("Health") ? null : "only Health.hp";
        }

        void settle(long id, long tick, String why) {
            Edit e = waiting.remove(id); // none in a replay
            if (e != null && why == null) {
                e.applied(tick);
            } else if (e != null) {
                e.refused(why);
            }
        }
    }

    private static Simulation build(World world, Sink sink, boolean populate) {
        Component<Health> health = world.component(Health.class);
        for (int i = 0; populate && i < 20; i++) {
            world.spawn(new Health(50));
        }
        return Simulation.builder(world).seed(7).workers(2).hashEvery(1).systems(s -> s
                .system("apply edits").exclusive((w, job) -> {
                    InputBatch in = job.resource(Simulation.INPUTS);
                    long tick = job.resource(Simulation.CLOCK).tick();
                    for (int k = 0; k < in.size(); k++) {
                        if (in.type(k) != SET_HP) {
                            continue;
                        }
                        String why = null;
                        try {
                            w.setProperty(in.payloadLong(k, 0), "Health", "hp", in.payloadInt(k, 8));
                        } catch (IllegalArgumentException refused) {
                            why = refused.getMessage();
                        }
                        sink.settle(in.payloadLong(k, 12), tick, why);
                    }
                }))
                .build();
    }

    @Test
    void shouldReplayTheEditsOfARecordedRunToTheLiveHash(@TempDir Path dir) throws Exception {
        World world = new World();
        Sink sink = new Sink();
        Simulation sim = build(world, sink, true);
        long[] units = new long[3];
        int[] at = {0};
        world.query().with(world.component(Health.class)).build().forEach((chunk, row) -> {
            if (at[0] < 3) {
                units[at[0]++] = chunk.entity(row);
            }
        });
        long liveHash;
        Component<Health> health = world.component(Health.class);
        RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder());
        AtomicReference<Exception> closing = new AtomicReference<>();
        {
            sink.inputs.set(rec.inputs());
            Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withEdits(sink)
                    .withRequestTimeout(java.time.Duration.ofSeconds(10)));
            Client c = new Client(explorer);
            Thread ticker = new Thread(() -> {
                try {
                    sim.run(0, 200, null);
                } finally {
                    try {
                        rec.close(); // on the tick thread, which drains and closes the recorder's pipeline
                    } catch (Exception e) {
                        closing.set(e);
                    }
                }
            }, "edits-recorded-tick");
            ticker.setDaemon(true);
            ticker.start();
            try {
                c.getTicking("/api/entity?id=" + units[0]); // a safe point has passed
                assertEquals(202, c.edit("entity=" + units[0] + "&component=Health&field=hp&value=42").statusCode());
                assertEquals(202, c.edit("entity=" + units[1] + "&component=Health&field=hp&value=-5").statusCode());
                assertEquals(202, c.edit("entity=" + units[2] + "&component=Health&field=hp&value=7").statusCode());
                long until = System.nanoTime() + 60_000_000_000L;
                while (!sink.waiting.isEmpty() && System.nanoTime() < until) {
                    Thread.sleep(20);
                }
                assertTrue(sink.waiting.isEmpty(), "every edit settled: " + sink.waiting.keySet());
                String edits = c.get("/api/edits").body();
                assertTrue(edits.contains("\"value\":\"42\",\"status\":\"applied\""), edits);
                assertTrue(edits.contains("\"value\":\"-5\",\"status\":\"refused\""), edits);
                Thread.sleep(50); // a few more ticks after the edits
            } finally {
                sim.stop();
                ticker.join(60_000);
                explorer.close();
            }
        }
        assertEquals(null, closing.get(), "the recorder closed");
        assertEquals(42, world.get(units[0], health).hp());
        assertEquals(50, world.get(units[1], health).hp());
        assertEquals(7, world.get(units[2], health).hp());
        liveHash = world.stateHash();
        long liveTicks = sim.currentTick();
        sim.close();

        World again = new World();
        try (Simulation fresh = build(again, new Sink(), false)) {
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertEquals(liveTicks, fresh.currentTick(), "every recorded tick replayed");
            assertEquals(liveHash, again.stateHash(), "the replay applies the page's edits as the live run did");
            assertEquals(liveHash, r.finalHash());
            assertEquals(42, again.get(units[0], again.component(Health.class)).hp());
        }
    }
}
