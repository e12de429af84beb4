package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An explorer over a world on a {@code WorldHost}: attached inside {@code call} it serves the
 * world from the pool's safe points; attached from another thread it is refused before it
 * starts a server, so nothing is left listening.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HostedExplorerTest {
    @Test
    void anExplorerAttachesToAHostedWorldInsideCallAndIsRefusedFromAnotherThread() throws Exception {
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            Simulation sim = HostedWorlds.drifting();
            HostedWorld w = host.add("explored", sim, 100);
            int http = countThreads("orrery-explorer-accept");
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> Explorer.attach(sim, ExplorerOptions.loopback(0)));
            assertTrue(refused.getMessage().contains("world 'explored'") && refused.getMessage().contains("call("),
                    refused.getMessage());
            assertEquals(http, countThreads("orrery-explorer-accept"), "a refused attach started no server");

            Explorer explorer = w.call(s -> {
                try {
                    return Explorer.attach(s, ExplorerOptions.loopback(0));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(30, TimeUnit.SECONDS);
            HttpResponse<String> r = new Client(explorer).getTicking("/api/query?q=Pos");
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("Pos"), r.body());
            w.call(s -> {
                explorer.close(); // on the tick thread, as attach
                return null;
            }).get(30, TimeUnit.SECONDS);
        }
    }

    private static int countThreads(String prefix) {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix) && t.isAlive()) {
                n++;
            }
        }
        return n;
    }
}
