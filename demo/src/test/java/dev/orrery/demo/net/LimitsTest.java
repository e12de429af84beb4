package dev.orrery.demo.net;

import static dev.orrery.demo.net.FakeSimulation.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server's quotas on connections and spawns, and its deadlines for silent clients. */
class LimitsTest {
    private final FakeSimulation sim = new FakeSimulation();
    private CommandServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        sim.close();
    }

    @Test
    void shouldRefuseSpawnsPastTheConnectionsBudgetAndNeverAckThem() throws Exception {
        server = sim.start(ServerConfig.defaults().withSpawnBudget(30_000).withClientRate(1_000_000, 10_000));
        try (TestClient greedy = new TestClient(server.port())) {
            long id = greedy.hello("greedy");
            StringBuilder burst = new StringBuilder();
            for (int i = 0; i < 2_000; i++) {
                burst.append("SPAWN 10000\n");
            }
            greedy.sendRaw(burst.toString().getBytes(StandardCharsets.US_ASCII));
            int ok = 0;
            for (int i = 0; i < 2_000; i++) {
                String reply = greedy.readReply();
                if (reply.equals("OK " + (i + 2))) {
                    ok++;
                } else {
                    assertTrue(reply.startsWith("ERR " + (i + 2) + " QUOTA this connection has spawned 30000 agents "
                            + "and its budget is 30000"), reply);
                }
            }
            assertEquals(3, ok);
            assertEquals(3, sim.received(id).size(), "every OK reached the sink, nothing else did");
        }
        assertEquals(1_997, server.counters().messagesRefused());
    }

    @Test
    void shouldCloseConnectionsThatSayNoHelloInTimeAndFreeTheirSlots() throws Exception {
        // The fifth connection must arrive while the four silent ones are still open: the HELLO
        // timeout, counted from each one's accept, is the time the test has to open them all and
        // the fifth. 300 ms left little room on a loaded machine (the first silent one timed out,
        // the fifth was served and then timed out itself); 2 s does, at the cost of waiting it out.
        server = sim.start(ServerConfig.defaults().withMaxConnections(4).withHelloTimeout(Duration.ofSeconds(2)));
        List<TestClient> silent = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                silent.add(new TestClient(server.port()));
            }
            await("the four silent connections to be served", () -> server.counters().connectionsOpen() == 4);
            try (TestClient fifth = new TestClient(server.port())) {
                String refused = fifth.read();
                assertTrue(refused != null && refused.startsWith("ERR 0 FULL"), refused);
            }
            for (TestClient s : silent) {
                String line = s.read();
                assertTrue(line != null && line.startsWith("ERR 0 TIMEOUT no HELLO within 2 s"), line);
                assertTrue(s.closedByServer());
            }
            await("the slots to be freed", () -> server.counters().connectionsOpen() == 0);
            assertEquals(4, server.counters().timeoutDisconnects());
            try (TestClient late = new TestClient(server.port())) {
                late.hello("late"); // a slot is free again
            }
        } finally {
            for (TestClient s : silent) {
                s.close();
            }
        }
    }

    @Test
    void shouldCloseAnIdleClientButKeepOneThatSendsBlankLines() throws Exception {
        server = sim.start(ServerConfig.defaults().withIdleTimeout(Duration.ofMillis(500)));
        try (TestClient idle = new TestClient(server.port()); TestClient alive = new TestClient(server.port())) {
            idle.hello("idle");
            alive.hello("alive");
            long until = System.nanoTime() + Duration.ofMillis(1_500).toNanos();
            while (System.nanoTime() < until) {
                alive.send(""); // a blank line: ignored, but it is traffic
                Thread.sleep(100);
            }
            String line = idle.readReply();
            assertTrue(line != null && line.startsWith("ERR 0 TIMEOUT nothing received for 500 ms"), line);
            assertTrue(idle.closedByServer());
            alive.send("SPAWN 1");
            assertEquals("OK 2", alive.readReply());
            assertEquals(1, server.counters().timeoutDisconnects());
        }
    }

    @Test
    void shouldLimitConnectionsPerAddress() throws Exception {
        server = sim.start(ServerConfig.defaults().withMaxConnectionsPerAddress(2));
        try (TestClient a = new TestClient(server.port()); TestClient b = new TestClient(server.port())) {
            a.hello("a");
            b.hello("b");
            try (TestClient c = new TestClient(server.port())) {
                String refused = c.read();
                assertTrue(refused.startsWith("ERR 0 FULL your address has 2 connections open"), refused);
            }
            assertEquals(1, server.counters().connectionsRefused());
            // Another loopback address is another client (Linux answers all of 127/8).
            try (Socket other = new Socket()) {
                try {
                    other.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
                } catch (IOException noSuchAddress) {
                    assumeTrue(false, "127.0.0.2 is not a local address here");
                }
                other.connect(new InetSocketAddress(ServerConfig.loopback(), server.port()), 5_000);
                other.setSoTimeout(10_000);
                other.getOutputStream().write("HELLO other\n".getBytes(StandardCharsets.US_ASCII));
                BufferedReader in = new BufferedReader(new InputStreamReader(other.getInputStream(),
                        StandardCharsets.US_ASCII));
                assertTrue(in.readLine().startsWith("OK 1 "));
            }
        }
        await("the connections to close", () -> server.counters().connectionsOpen() == 0);
        try (TestClient again = new TestClient(server.port())) {
            again.hello("again"); // the address's count went back down
        }
    }
}
