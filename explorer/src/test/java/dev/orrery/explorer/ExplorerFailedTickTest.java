package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import dev.orrery.scheduler.SystemFailedException;
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
 * A simulation whose run ended because a system threw under {@code FailurePolicy.STOP}: a read
 * that waits for a safe point is refused naming the failed tick, the system and the fix, not
 * as a simulation that may be stopped or slow; once the run goes on, reads answer again.
 */
class ExplorerFailedTickTest {
    record Pos(float x) {
    }

    @Test
    void shouldNameTheFailedTickWhenAReadWaitsOnARunThatASystemEnded() throws Exception {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        world.spawn(new Pos(1));
        AtomicBoolean broken = new AtomicBoolean(true);
        ExecutorService tickThread = Executors.newSingleThreadExecutor();
        try (Simulation sim = Simulation.builder(world).seed(1).systems(s -> s.system("sting")
                .query(world.query().with(pos).build()).reads(pos).readsResource(Simulation.CLOCK).forEachChunk(job -> {
                    if (broken.get() && job.resource(Simulation.CLOCK).tick() == 3) {
                        throw new IllegalStateException("the bee stung itself");
                    }
                })).build()) {
            Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0)
                    .withRequestTimeout(Duration.ofMillis(500)));
            try {
                Client c = new Client(explorer);
                ExecutionException ended = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                        () -> tickThread.submit(() -> sim.run(0, 0)).get(60, TimeUnit.SECONDS));
                assertInstanceOf(SystemFailedException.class, ended.getCause());

                HttpResponse<String> r = c.get("/api/archetypes");
                assertEquals(503, r.statusCode(), r.body());
                assertTrue(r.body().contains("tick 3 failed under FailurePolicy.STOP"), r.body());
                assertTrue(r.body().contains("system 'sting' failed"), r.body());
                assertTrue(r.body().contains("the bee stung itself"), r.body());
                assertTrue(r.body().contains("FailurePolicy.SKIP_TICK"), "the fix: " + r.body());
                HttpResponse<String> summary = c.get("/api/summary"); // its figures, without the world
                assertEquals(200, summary.statusCode(), summary.body());
                assertTrue(summary.body().contains("\"live\":false"), summary.body());
                assertTrue(summary.body().contains("tick 3 failed under FailurePolicy.STOP"), summary.body());

                broken.set(false); // fixed: the run goes on from tick 3
                tickThread.submit(() -> sim.run(5, 0)).get(60, TimeUnit.SECONDS);
                tickThread.submit(() -> sim.run(0, 100)); // ticks until stopped, so reads find safe points
                HttpResponse<String> again = c.getTicking("/api/summary");
                assertEquals(200, again.statusCode(), again.body());
                sim.stop();
            } finally {
                tickThread.shutdown();
                assertTrue(tickThread.awaitTermination(60, TimeUnit.SECONDS));
                explorer.close();
            }
        }
    }

    /**
     * The same failure on a {@code WorldHost}: the world leaves its host as FAILED, so it is on no
     * host, and the refusal said it was between hosts ('retry once it is on a host again'), as if it
     * had been removed to move. It names the failed tick and the failure, and the fix for a hosted world.
     */
    @Test
    void shouldNameTheFailedTickWhenAHostedWorldLeftItsHostAsFailed() throws Exception {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        world.spawn(new Pos(1));
        AtomicBoolean broken = new AtomicBoolean(false);
        Simulation sim = Simulation.builder(world).seed(1).systems(s -> s.system("sting")
                .query(world.query().with(pos).build()).reads(pos).forEachChunk(job -> {
                    if (broken.get()) {
                        throw new IllegalStateException("the bee stung itself");
                    }
                })).build();
        WorldHost host = WorldHost.builder().threads(1).build();
        Explorer explorer = null;
        try {
            HostedWorld w = host.add("hive", sim, 200);
            explorer = w.call(s -> {
                try {
                    return Explorer.attach(s, ExplorerOptions.loopback(0).withRequestTimeout(Duration.ofMillis(500)));
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            }).get(30, TimeUnit.SECONDS);
            Client c = new Client(explorer);
            assertEquals(200, c.getTicking("/api/summary").statusCode());
            broken.set(true); // its next tick throws: the world leaves the host as FAILED
            org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> w.done().get(30, TimeUnit.SECONDS));
            assertEquals(HostedWorld.State.FAILED, w.state());

            HttpResponse<String> r = c.get("/api/query?q=Pos"); // a read no answer shared before the failure holds
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(r.body().contains("failed under FailurePolicy.STOP"), r.body());
            assertTrue(r.body().contains("the bee stung itself"), r.body());
            assertTrue(r.body().contains("hive"), "names the world: " + r.body());
            assertTrue(!r.body().contains("between WorldHosts"), "it failed, it is not moving: " + r.body());
        } finally {
            host.close();
            if (explorer != null) {
                explorer.close();
            }
        }
    }
}
