package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which thread may close an explorer over a hosted world, as {@link Explorer#close()} says:
 * while a host holds the world, only its tick thread inside {@code call}; a close from another
 * thread is refused naming the fix and leaves the explorer whole, so the close made inside
 * {@code call} afterwards still frees the port and the threads. Once the world has left its
 * host, the thread that took it back closes the explorer without {@code bindTickThread()}
 * (no tick runs, and {@code remove().join()} or {@code done().join()} ordered the last one
 * before it), and the hook is gone: the world's next tick records nothing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostedExplorerCloseTest {
    private static Explorer attach(HostedWorld w) throws Exception {
        return w.call(s -> {
            try {
                return Explorer.attach(s, ExplorerOptions.loopback(0));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aCloseOffTheTickThreadWhileHostedIsRefusedNamingCallAndLeavesTheExplorerWhole() throws Exception {
        Set<String> before = HostedWorlds.threadNames();
        int port;
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            HostedWorld w = host.add("explored", HostedWorlds.drifting(), 200);
            Explorer explorer = attach(w);
            port = explorer.port();
            IllegalStateException refused = assertThrows(IllegalStateException.class, explorer::close);
            String m = refused.getMessage();
            assertTrue(m.startsWith("Explorer.close() called on thread '" + Thread.currentThread().getName() + "'")
                    && m.contains("world 'explored'") && m.contains("call(") && m.contains("remove().join()"), m);
            assertEquals(200, new Client(explorer).getTicking("/api/query?q=Pos").statusCode(),
                    "the refused close left the explorer serving");
            w.call(s -> {
                explorer.close(); // on the tick thread: the close that counts
                return null;
            }).get(30, TimeUnit.SECONDS);
        }
        assertEquals(Set.of(), HostedWorlds.awaitLeftOver(before), "threads left behind");
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)); // free again
        }
    }

    @Test
    void anAttachOffTheTickThreadWhileHostedIsRefusedNamingItAndTheFixWithNothingStarted() throws Exception {
        Set<String> before = HostedWorlds.threadNames();
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            Simulation sim = HostedWorlds.drifting();
            HostedWorld w = host.add("explored", sim, 200);
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> Explorer.attach(sim, ExplorerOptions.loopback(0)));
            String m = refused.getMessage();
            // the call made, not the Simulation.world() the explorer reads inside it
            assertTrue(m.startsWith("Explorer.attach() called on thread '" + Thread.currentThread().getName() + "'"), m);
            assertTrue(m.contains("world 'explored'") && m.contains("call(") && m.contains("remove().join()"), m);
            Explorer explorer = attach(w); // the way the message names works
            assertEquals(200, new Client(explorer).getTicking("/api/summary").statusCode());
            w.call(s -> {
                explorer.close();
                return null;
            }).get(30, TimeUnit.SECONDS);
        }
        assertEquals(Set.of(), HostedWorlds.awaitLeftOver(before), "threads left behind");
    }

    @Test
    void theThreadThatTakesTheWorldBackClosesTheExplorerWithoutBindingItself() throws Exception {
        Set<String> before = HostedWorlds.threadNames();
        int[] ports = new int[2];
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            HostedWorld removed = host.add("removed", HostedWorlds.drifting(), 200);
            HostedWorld finished = host.add("finished", HostedWorlds.drifting(), 200, 400, Duration.ZERO);
            Explorer[] explorers = {attach(removed), attach(finished)};
            for (int i = 0; i < 2; i++) {
                ports[i] = explorers[i].port();
                assertEquals(200, new Client(explorers[i]).getTicking("/api/summary").statusCode());
            }
            Simulation[] back = {removed.remove().get(30, TimeUnit.SECONDS), finished.done().get(60, TimeUnit.SECONDS)};
            assertEquals(HostedWorld.State.FINISHED, finished.state());
            for (int i = 0; i < 2; i++) {
                explorers[i].close(); // no bindTickThread first: allowed once the world left its host
                long recorded = explorers[i].figures().recorded();
                back[i].bindTickThread(); // to tick it here
                back[i].tick();
                assertEquals(recorded, explorers[i].figures().recorded(), "the closed explorer's hook is gone");
                back[i].close();
            }
        }
        assertEquals(Set.of(), HostedWorlds.awaitLeftOver(before), "threads left behind");
        for (int port : ports) {
            try (ServerSocket again = new ServerSocket()) {
                again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)); // free again
            }
        }
    }
}
