package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.ReplayDivergenceException;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import dev.orrery.engine.internal.EngineInternals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A run that a failure outside its systems ended (a hash listener that threw, a replay's
 * divergence): the explorer said "the run is stopped (sim.stop() ended it, or its ticks were
 * done)", as if the program had paused it, because the engine kept no cause for such a stop.
 * A live view's 503 and the summary's {@code whyNotLive} now name the tick, what threw and the
 * fix, and never tell the reader to fix a system or to skip ticks whose system throws.
 */
class ExplorerStopCauseTest {
    record Pos(float x) {
    }

    private static Simulation build(World world) {
        Component<Pos> pos = world.component(Pos.class);
        world.spawn(new Pos(1));
        return Simulation.builder(world).seed(1).systems(s -> s.system("drift")
                .query(world.query().with(pos).build()).reads(pos).forEachChunk(job -> {
                })).build();
    }

    /** Asserts {@code why} blames no system: no "fix the system", no SKIP_TICK, not a stopped run. */
    private static void noSystemBlamed(String why) {
        assertFalse(why.contains("fix the system"), why);
        assertFalse(why.contains("SKIP_TICK"), why);
        assertFalse(why.contains("system '"), why);
        assertFalse(why.contains("the run is stopped"), "it did not stop on purpose: " + why);
        assertTrue(why.contains("No tick has run since"), why);
    }

    @Test
    void aHashListenerThatEndedTheRunIsNamed() throws Exception {
        ExecutorService tickThread = Executors.newSingleThreadExecutor();
        try (Simulation sim = build(new World())) {
            sim.hashListener((tick, hash, world) -> {
                if (tick == 3) {
                    throw new IllegalStateException("the ledger is full");
                }
            });
            Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0)
                    .withRequestTimeout(Duration.ofMillis(400)));
            try {
                Client c = new Client(explorer);
                ExecutionException ended = assertThrows(ExecutionException.class,
                        () -> tickThread.submit(() -> sim.run(0, 0)).get(60, TimeUnit.SECONDS));
                assertEquals("the ledger is full", ended.getCause().getMessage());

                HttpResponse<String> r = c.get("/api/archetypes");
                assertEquals(503, r.statusCode(), r.body());
                assertTrue(r.body().contains("tick 3 ran its systems and counts"), r.body());
                assertTrue(r.body().contains("the hash listener (Simulation.hashListener) threw"), r.body());
                assertTrue(r.body().contains("the ledger is full"), r.body());
                assertTrue(r.body().contains("Simulation.hashListener(null)"), "the fix: " + r.body());
                noSystemBlamed(r.body());
                HttpResponse<String> summary = c.get("/api/summary");
                assertEquals(200, summary.statusCode(), summary.body());
                assertTrue(summary.body().contains("\"live\":false"), summary.body());
                assertTrue(summary.body().contains("the hash listener (Simulation.hashListener) threw"), summary.body());
                noSystemBlamed(summary.body());
            } finally {
                tickThread.shutdown();
                assertTrue(tickThread.awaitTermination(60, TimeUnit.SECONDS));
                explorer.close();
            }
        }
    }

    @Test
    void aReplaysDivergenceThatEndedTheRunIsNamed() throws Exception {
        ExecutorService tickThread = Executors.newSingleThreadExecutor();
        InputBatch batch = new InputBatch();
        try (Simulation sim = build(new World())) {
            sim.inputs(new InputSource() { // a replay of its own that finds tick 2 differs
                @Override
                public InputBatch beginTick(long tick) {
                    batch.reset(tick);
                    return batch;
                }

                @Override
                public void recordHash(long tick, long stateHash) {
                    if (tick == 2) {
                        throw EngineInternals.replayDivergence("replay of journal j.bin diverged at tick 2: state "
                                + "hash 0x2 where the recording had 0x1", 2, 1, 2);
                    }
                }
            });
            Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0)
                    .withRequestTimeout(Duration.ofMillis(400)));
            try {
                Client c = new Client(explorer);
                ExecutionException ended = assertThrows(ExecutionException.class,
                        () -> tickThread.submit(() -> sim.run(0, 0)).get(60, TimeUnit.SECONDS));
                assertTrue(ended.getCause() instanceof ReplayDivergenceException, String.valueOf(ended.getCause()));

                HttpResponse<String> summary = c.get("/api/summary");
                assertEquals(200, summary.statusCode(), summary.body());
                String why = summary.body();
                assertTrue(why.contains("the replay diverged from its recording"), why);
                assertTrue(why.contains("diverged at tick 2: state hash 0x2 where the recording had 0x1"), why);
                noSystemBlamed(why);
            } finally {
                tickThread.shutdown();
                assertTrue(tickThread.awaitTermination(60, TimeUnit.SECONDS));
                explorer.close();
            }
        }
    }

    /** On a {@code WorldHost}: the world leaves as FAILED; the refusal names the hash listener, not a system. */
    @Test
    void aHostedWorldWhoseHashListenerThrewIsNamed() throws Exception {
        AtomicBoolean broken = new AtomicBoolean(false);
        Simulation sim = build(new World());
        sim.hashListener((tick, hash, world) -> {
            if (broken.get()) {
                throw new IllegalStateException("the ledger is full");
            }
        });
        WorldHost host = WorldHost.builder().threads(1).build();
        Explorer explorer = null;
        try {
            HostedWorld w = host.add("hive", sim, 200);
            explorer = w.call(s -> {
                try {
                    return Explorer.attach(s, ExplorerOptions.loopback(0).withRequestTimeout(Duration.ofMillis(400)));
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            }).get(30, TimeUnit.SECONDS);
            Client c = new Client(explorer);
            assertEquals(200, c.getTicking("/api/summary").statusCode());
            broken.set(true);
            assertThrows(ExecutionException.class, () -> w.done().get(30, TimeUnit.SECONDS));
            assertEquals(HostedWorld.State.FAILED, w.state());

            HttpResponse<String> r = c.get("/api/query?q=Pos");
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(r.body().contains("world 'hive' left its WorldHost as FAILED"), r.body());
            assertTrue(r.body().contains("the hash listener (Simulation.hashListener) threw"), r.body());
            assertTrue(r.body().contains("the ledger is full"), r.body());
            assertTrue(r.body().contains("add it to a host again"), "the hosted fix: " + r.body());
            noSystemBlamed(r.body());
        } finally {
            host.close();
            if (explorer != null) {
                explorer.close();
            }
        }
    }
}
