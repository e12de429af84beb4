package dev.orrery.demo.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LoadClientTest {
    private FakeSimulation sim;
    private CommandServer server;

    @BeforeEach
    void start() throws IOException {
        sim = new FakeSimulation();
        server = sim.start(ServerConfig.defaults().withMaxConnections(8));
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close();
        sim.close();
    }

    private LoadClient.Options options() {
        return LoadClient.Options.defaults("127.0.0.1", server.port()).withDuration(Duration.ofSeconds(20));
    }

    @Test
    void shouldGetEveryCommandAckedAtAGivenRate() throws IOException {
        LoadClient.Report r = new LoadClient(options().withConnections(4).withRate(5_000).withMaxCommands(1_000)).run();
        assertEquals(4, r.connections());
        assertEquals(0, r.refused());
        assertEquals(1_000, r.sent());
        assertEquals(1_000, r.acked());
        assertEquals(0, r.errorCount());
        assertEquals(0, r.unanswered());
        assertEquals(1_000, sim.receivedCount());
        assertEquals(1_000 + 4, server.counters().messagesOk());
        assertTrue(r.repliesPerSecond() > 0);
        assertTrue(r.summaryLine().startsWith("connections=4 refused=0 sent=1000 acked=1000 errors=0 unanswered=0"),
                r.summaryLine());
    }

    @Test
    void shouldCountSimulationAnswersAndErrorsByCodeWhenUnthrottled() throws IOException {
        LoadClient.Report r = new LoadClient(options().withConnections(2).withRate(0).withMaxCommands(300)
                .withCommands(List.of("GET 7 Health hp", "SPAWN 2", "GET 404 Health hp"))).run();
        assertEquals(300, r.sent());
        assertEquals(200, r.acked());
        assertEquals(Map.of("NOT_FOUND", 100L), r.errors());
        assertEquals(0, r.unanswered());
    }

    @Test
    void shouldCountConnectionsRefusedAtTheServersLimit() throws IOException {
        LoadClient.Report r = new LoadClient(options().withConnections(10).withRate(0).withMaxCommands(80)).run();
        assertEquals(8, r.connections());
        assertEquals(2, r.refused());
        assertEquals(80, r.acked());
        assertEquals(2, server.counters().connectionsRefused());
    }

    @Test
    void shouldFailClearlyWhenNothingListens() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, ServerConfig.loopback())) {
            port = s.getLocalPort();
        }
        LoadClient client = new LoadClient(LoadClient.Options.defaults("127.0.0.1", port).withConnections(1));
        IOException e = assertThrows(IOException.class, client::run);
        assertTrue(e.getMessage().contains("is the server running there?"), e.getMessage());
    }

    @Test
    void shouldRefuseUnboundedOrInvalidOptions() {
        LoadClient.Options o = options();
        assertThrows(IllegalArgumentException.class, () -> o.withDuration(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> o.withDuration(Duration.ofHours(2)));
        assertThrows(IllegalArgumentException.class, () -> o.withMaxCommands(0));
        assertThrows(IllegalArgumentException.class, () -> o.withConnections(0));
        assertThrows(IllegalArgumentException.class, () -> o.withRate(-1));
        assertThrows(IllegalArgumentException.class, () -> o.withCommands(List.of("SPAWN 1\nQUIT")));
    }
}
