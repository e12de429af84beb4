package dev.orrery.demo.net;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * One client floods MOVEs as fast as it can while a polite one sends a few a second: each
 * connection's share of the input keeps the shared queue open, so the polite client almost
 * never hears BUSY. The sink is a bounded queue drained at a fixed rate, as the engine's
 * ring is drained a bounded number of inputs per tick.
 */
class FairnessTest {
    private static final int QUEUE = 2_048;
    private static final int DRAIN_PER_TICK = 100;
    private static final int TICK_MS = 10;
    private static final int POLITE = 250;

    @Test
    void shouldKeepAPoliteClientsBusyRateAtOnePercentOrLessWhileAnotherFloods() throws Exception {
        ArrayBlockingQueue<ClientCommand> ring = new ArrayBlockingQueue<>(QUEUE);
        AtomicBoolean running = new AtomicBoolean(true);
        Thread ticker = new Thread(() -> {
            while (running.get()) {
                for (int i = 0; i < DRAIN_PER_TICK && ring.poll() != null; i++) {
                    // consumed by the "tick"
                }
                try {
                    Thread.sleep(TICK_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "fairness-tick");
        ticker.start();
        // 2 000 commands a second per connection, against a drain of 10 000 a second.
        ServerConfig config = ServerConfig.defaults().withClientRate(2_000, 200);
        int busy = 0;
        try (CommandServer server = CommandServer.start(config, ring::offer);
             TestClient flooder = new TestClient(server.port()); TestClient polite = new TestClient(server.port())) {
            flooder.hello("flooder");
            polite.hello("polite");
            Thread flood = new Thread(() -> {
                byte[] burst = "MOVE 1 2 3\n".repeat(1_000).getBytes(StandardCharsets.US_ASCII);
                try {
                    while (running.get()) {
                        flooder.sendRaw(burst);
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "flooder-writer");
            Thread drain = new Thread(() -> {
                try {
                    while (flooder.read() != null) {
                        // the flooder reads its replies, so the server keeps reading it
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "flooder-reader");
            flood.start();
            drain.start();
            Thread.sleep(200); // let the flood reach full speed
            for (int i = 0; i < POLITE; i++) {
                polite.send("MOVE 2 " + i + " 5");
                String reply = polite.readReply();
                if (reply.startsWith("ERR " + (i + 2) + " BUSY")) {
                    busy++;
                } else {
                    assertTrue(reply.equals("OK " + (i + 2)), reply);
                }
                Thread.sleep(4);
            }
            assertTrue(server.counters().messagesThrottled() > 0, "the flooder was never held to its share");
            running.set(false);
            flooder.close();
            flood.join(5_000);
            drain.join(5_000);
        } finally {
            running.set(false);
            ticker.join(5_000);
        }
        assertTrue(busy * 100 <= POLITE, "the polite client heard BUSY " + busy + " times in " + POLITE);
    }
}
