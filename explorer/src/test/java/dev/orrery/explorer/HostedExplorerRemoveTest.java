package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Explorer x WorldHost, the world's whole stay: attached inside {@code call} to a world that
 * shares a two-thread pool with a neighbour (so its ticks hop between pool threads), every
 * page is read at the world's safe points and no end-of-tick hook trips a thread check (the
 * world stays hosted, not failed); then the world is removed, the removing thread binds
 * itself as the tick thread as {@code HostedWorld} says, closes the explorer, and no explorer
 * thread or port is left, while the simulation ticks on without the hook.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostedExplorerRemoveTest {
    @Test
    void shouldServeAHostedWorldAcrossPoolThreadsAndLeaveNothingAfterRemove() throws Exception {
        Set<String> before = HostedWorlds.threadNames();
        int port;
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            HostedWorld neighbour = host.add("neighbour", HostedWorlds.drifting(), 200);
            Simulation sim = HostedWorlds.drifting();
            HostedWorld w = host.add("explored", sim, 200);
            Explorer explorer = w.call(s -> {
                try {
                    return Explorer.attach(s, ExplorerOptions.loopback(0));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(30, TimeUnit.SECONDS);
            port = explorer.port();
            Client client = new Client(explorer);
            long startTick = sim.currentTick();
            for (String path : new String[] {"/api/summary", "/api/graph", "/api/systems", "/api/archetypes", "/api/query?q=Pos",
                    "/api/resources", "/api/named", "/api/search?q=Pos"}) {
                assertEquals(200, client.getTicking(path).statusCode(), path);
            }
            long until = System.nanoTime() + 30_000_000_000L;
            while (sim.currentTick() < startTick + 40 && System.nanoTime() < until) {
                assertEquals(200, client.getTicking("/api/query?size=5&q=Pos").statusCode()); // observed: jobs timed
            }
            assertTrue(sim.currentTick() >= startTick + 40, "the explored world ticked while read");
            assertEquals(Optional.empty(), w.failure(), "no tick failed (a thread check in the hook)");
            assertEquals(Optional.empty(), neighbour.failure(), "the neighbour ticked on");

            Simulation back = w.remove().get(30, TimeUnit.SECONDS);
            assertEquals(HostedWorld.State.REMOVED, w.state());
            back.bindTickThread(); // as HostedWorld says: the thread reading done() may use it after this
            explorer.close();
            long tick = back.currentTick();
            back.tick(); // ticks on this thread, no hook left
            assertEquals(tick + 1, back.currentTick());
            back.close();
        }
        assertEquals(Set.of(), HostedWorlds.awaitLeftOver(before), "threads left behind");
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)); // free again
        }
    }
}
