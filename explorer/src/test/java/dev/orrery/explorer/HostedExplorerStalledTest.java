package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Explorer x a world that no safe point comes to: a read waiting for a world that is off any
 * {@code WorldHost} (removed from one, not yet added to another) is answered 503 saying that
 * the world is between hosts and to retry once it is on one again; a read of a simulation that
 * is closed (its host closed it, or its own thread did) is answered 503 at once, well under
 * the request time-out, saying that the simulation is closed and that the explorer should be
 * closed. Deadlines are generous: a loaded machine only makes the waits longer.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class HostedExplorerStalledTest {
    /** Long, so that an answer after it is told from one at once on any machine. */
    private static final Duration LONG_TIMEOUT = Duration.ofSeconds(20);

    @Test
    void aReadOfAWorldBetweenHostsSaysItIsBetweenHostsAndToRetry() throws Exception {
        Simulation sim = HostedWorlds.drifting();
        WorldHost first = WorldHost.builder().threads(1).build();
        WorldHost second = WorldHost.builder().threads(1).build();
        Explorer explorer = null;
        try {
            HostedWorld w = first.add("wanderer", sim, 200);
            explorer = attach(w, Duration.ofMillis(500));
            Client client = new Client(explorer);
            assertEquals(200, client.getTicking("/api/archetypes").statusCode());

            Simulation back = w.remove().get(30, TimeUnit.SECONDS);
            HttpResponse<String> r = client.get("/api/named?between=1");
            assertEquals(503, r.statusCode(), r.body());
            String summary = client.getOk("/api/summary?between=1"); // its figures, and why the world is not shown
            assertTrue(summary.contains("\"live\":false") && summary.contains("between WorldHosts"), summary);
            String body = r.body().toLowerCase(Locale.ROOT);
            assertTrue(body.contains("'wanderer'"), "names the world: " + r.body());
            assertTrue(body.contains("between") && body.contains("worldhost"), "says it is between hosts: " + r.body());
            assertTrue(body.contains("retry"), "says to retry: " + r.body());
            assertTrue(r.headers().firstValue("Retry-After").isPresent(), "a retry is worth it: " + r.headers());

            second.add("wanderer", back, 200);
            assertEquals(200, client.getTicking("/api/summary?on=second").statusCode(), "served again on the second host");
        } finally {
            first.close();
            second.close();
            if (explorer != null) {
                explorer.close(); // this thread closed the hosts: the world's tick thread now
            }
        }
    }

    @Test
    void aReadOfAWorldItsHostClosedSaysAtOnceThatItIsClosedAndToCloseTheExplorer() throws Exception {
        Simulation sim = HostedWorlds.drifting();
        WorldHost host = WorldHost.builder().threads(1).build();
        Explorer explorer = null;
        try {
            explorer = attach(host.add("closing", sim, 200), LONG_TIMEOUT);
            Client client = new Client(explorer);
            assertEquals(200, client.getTicking("/api/archetypes").statusCode());
            host.close(); // closes the world with it
            assertClosedAtOnce(client);
        } finally {
            host.close();
            if (explorer != null) {
                explorer.close();
            }
        }
    }

    @Test
    void aReadOfASimulationClosedByItsOwnThreadSaysAtOnceThatItIsClosed() throws Exception {
        Simulation sim = HostedWorlds.drifting();
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withRequestTimeout(LONG_TIMEOUT))) {
            sim.tick();
            sim.close();
            assertClosedAtOnce(new Client(explorer));
        }
    }

    /** A read never made before (no shared answer) is refused at once, saying the simulation is closed. */
    private static void assertClosedAtOnce(Client client) throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> r = client.get("/api/query?size=3&q=Pos&closed=" + start);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(503, r.statusCode(), r.body());
        String body = r.body().toLowerCase(Locale.ROOT);
        assertTrue(body.contains("closed"), "says the simulation is closed: " + r.body());
        assertTrue(body.contains("close the explorer"), "says what to do: " + r.body());
        assertTrue(tookMillis < LONG_TIMEOUT.toMillis() / 2, "answered at once, not after the " + LONG_TIMEOUT.toMillis()
                + " ms time-out: " + tookMillis + " ms");
    }

    private static Explorer attach(HostedWorld w, Duration timeout) throws Exception {
        return w.call(s -> {
            try {
                return Explorer.attach(s, ExplorerOptions.loopback(0).withRequestTimeout(timeout));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).get(30, TimeUnit.SECONDS);
    }
}
