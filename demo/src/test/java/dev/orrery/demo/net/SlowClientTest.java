package dev.orrery.demo.net;

import static dev.orrery.demo.net.FakeSimulation.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Clients that do not read: they must cost themselves pushes or their connection, and
 * never stall the server, the other clients or the thread that pushes. Socket buffers
 * are made small so the limits are reached after kilobytes rather than megabytes.
 */
class SlowClientTest {
    private static final int SMALL_BUFFER = 4096;
    private static final String SUMMARY = "agents " + "x".repeat(1000);

    private final FakeSimulation sim = new FakeSimulation();
    private CommandServer server;

    private CommandServer start(Duration stuckLimit) throws IOException {
        server = sim.start(ServerConfig.defaults().withOutboundLimitBytes(2 * ServerConfig.MAX_OUTBOUND_LINE_BYTES)
                .withSocketSendBufferBytes(SMALL_BUFFER).withStuckLimit(stuckLimit)
                .withClientRate(1_000_000, 10_000)); // back-pressure is under test here, not the share of the input
        return server;
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close();
        sim.close();
    }

    @Test
    void shouldKeepServingAFastClientWhileASlowOneNeverReads() throws Exception {
        start(Duration.ofMinutes(1));
        try (TestClient slow = new TestClient(server.port(), SMALL_BUFFER); TestClient fast = new TestClient(server.port())) {
            slow.hello("slow");
            long fastId = fast.hello("fast");
            int ticks = 0;
            while (server.counters().statesDropped() < 20) {
                assertTrue(ticks < 20_000, "pushes to a client that never reads were never dropped");
                ticks++;
                assertTrue(server.broadcastState(ticks, 1000, SUMMARY), "the pushing thread was refused");
                fast.send("SPAWN 1");
                assertEquals("OK " + (ticks + 1), fast.readReply());
            }
            assertEquals(ticks, sim.received(fastId).size());
            assertEquals(2, server.counters().connectionsOpen());
            assertEquals(0, server.counters().slowDisconnects());
            assertEquals(0, server.counters().repliesDropped());

            // The slow client wakes up: it gets pushes in order with a gap, and the newest one last.
            long last = 0;
            boolean gap = false;
            while (last != ticks) {
                String line = slow.read();
                assertTrue(line.startsWith("STATE "), line);
                long tick = Long.parseLong(line.split(" ")[1]);
                assertTrue(tick > last, "pushes out of order: " + tick + " after " + last);
                gap |= tick > last + 1;
                last = tick;
            }
            assertTrue(gap, "the slow client missed no push, so nothing was dropped for it");
        }
    }

    @Test
    void shouldDisconnectAClientStuckBeyondTheLimit() throws Exception {
        start(Duration.ofMillis(300));
        try (TestClient stuck = new TestClient(server.port(), SMALL_BUFFER); TestClient fast = new TestClient(server.port())) {
            stuck.hello("stuck");
            fast.hello("fast");
            long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            int ticks = 0;
            while (server.counters().slowDisconnects() == 0) {
                assertTrue(System.nanoTime() < giveUp, "a client stuck for long was never disconnected");
                server.broadcastState(++ticks, 1000, SUMMARY);
                fast.send("SPAWN 1"); // the fast client reads its pushes and replies as it goes
                assertEquals("OK " + (ticks + 1), fast.readReply());
                Thread.sleep(1);
            }
            // The disconnect is counted just before the connection leaves connectionsOpen (the
            // counters are read one by one, ServerCounters says so): wait for the close itself.
            await("the stuck connection to leave connectionsOpen", () -> server.counters().connectionsOpen() == 1);
            assertEquals(1, server.counters().slowDisconnects());
            assertTrue(stuck.closedByServer());
            fast.send("SPAWN 1");
            assertEquals("OK " + (ticks + 2), fast.readReply());
        }
    }

    @Test
    void shouldStopReadingAClientThatSendsWithoutReadingAndLoseNoReply() throws Exception {
        start(Duration.ofMinutes(1));
        int n = 5_000;
        try (TestClient greedy = new TestClient(server.port(), SMALL_BUFFER)) {
            greedy.hello("greedy");
            byte[] burst = "SPAWN 1\n".repeat(n).getBytes(StandardCharsets.US_ASCII);
            // Written on another thread: once the server stops reading, this write blocks.
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    greedy.sendRaw(burst);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            await("the server to pause reading the greedy client", () -> server.counters().readsPaused() > 0);
            assertTrue(sim.receivedCount() < n, "the server read everything while the client read nothing");
            for (int i = 0; i < n; i++) {
                assertEquals("OK " + (i + 2), greedy.readReply());
            }
            writer.get();
        }
        assertEquals(n, sim.receivedCount());
        assertEquals(0, server.counters().repliesDropped());
        assertEquals(0, server.counters().slowDisconnects());
    }
}
