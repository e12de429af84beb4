package dev.orrery.demo.net;

import static dev.orrery.demo.net.FakeSimulation.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CommandServerTest {
    private FakeSimulation sim;
    private CommandServer server;

    @BeforeEach
    void start() throws IOException {
        sim = new FakeSimulation();
        server = sim.start(ServerConfig.defaults().withMaxConnections(3));
    }

    @AfterEach
    void stop() throws InterruptedException {
        server.close();
        sim.close();
    }

    @Test
    void shouldListenOnAnEphemeralLoopbackPort() {
        assertTrue(server.port() > 0);
        assertEquals("127.0.0.1", server.address().getAddress().getHostAddress());
        assertTrue(server.isRunning());
    }

    @Test
    void shouldFailInTheCallerWhenThePortIsTaken() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, ServerConfig.loopback())) {
            IOException e = assertThrows(IOException.class,
                    () -> CommandServer.start(ServerConfig.defaults().withPort(taken.getLocalPort()), c -> true));
            assertTrue(e.getMessage().contains(String.valueOf(taken.getLocalPort())), e.getMessage());
        }
    }

    @Test
    void shouldAnswerHelloWithDistinctClientIds() throws IOException {
        try (TestClient a = new TestClient(server.port()); TestClient b = new TestClient(server.port())) {
            long idA = a.hello("alice");
            long idB = b.hello("bob");
            assertTrue(idA > 0 && idB > 0 && idA != idB);
        }
    }

    @Test
    void shouldAckCommandsAndDeliverThemInOrderPerClient() throws Exception {
        try (TestClient a = new TestClient(server.port()); TestClient b = new TestClient(server.port())) {
            long idA = a.hello("alice");
            long idB = b.hello("bob");
            for (int i = 0; i < 20; i++) {
                a.send("MOVE " + i + " -" + i + ".5 " + i);
                b.send("SPAWN " + (i + 1));
            }
            for (int i = 0; i < 20; i++) {
                assertEquals("OK " + (i + 2), a.readReply());
                assertEquals("OK " + (i + 2), b.readReply());
            }
            List<ClientCommand> fromA = sim.received(idA);
            List<ClientCommand> fromB = sim.received(idB);
            assertEquals(20, fromA.size());
            assertEquals(20, fromB.size());
            for (int i = 0; i < 20; i++) {
                assertEquals(new ClientCommand.MoveSquad(idA, i + 2, i, -(i + 0.5f), i), fromA.get(i));
                assertEquals(new ClientCommand.SpawnWave(idB, i + 2, i + 1), fromB.get(i));
            }
        }
        assertEquals(42, server.counters().messagesOk());
    }

    @Test
    void shouldCarrySimulationAnswersToGetAndSet() throws IOException {
        try (TestClient a = new TestClient(server.port())) {
            a.hello("alice");
            a.send("GET 12 Fog density");
            assertEquals("OK 2 1.5", a.readReply());
            a.send("SET 12 Fog density 0.25");
            assertEquals("OK 3", a.readReply());
            a.send("GET 404 Fog density");
            String err = a.readReply();
            assertTrue(err.startsWith("ERR 4 NOT_FOUND entity 404"), err);
        }
    }

    @Test
    void shouldRejectMalformedLinesCountThemAndKeepServing() throws Exception {
        try (TestClient a = new TestClient(server.port()); TestClient b = new TestClient(server.port())) {
            a.hello("alice");
            b.hello("bob");
            a.send("MOVE 1 two 3");
            assertTrue(a.readReply().startsWith("ERR 2 MALFORMED coordinates 'two' '3'"));
            a.send("DANCE");
            assertTrue(a.readReply().startsWith("ERR 3 UNKNOWN unknown command 'DANCE'"));
            a.sendRaw(new byte[] {'S', 'P', (byte) 0xff, '\n'});
            assertTrue(a.readReply().startsWith("ERR 4 MALFORMED byte 0xff"));
            a.send("HELLO again");
            assertTrue(a.readReply().startsWith("ERR 5 PROTOCOL this connection already said HELLO as 'alice'"));
            a.send("   ");
            a.send("SPAWN 2");
            assertEquals("OK 6", a.readReply(), "a blank line gets no number");
            b.send("SPAWN 3");
            assertEquals("OK 2", b.readReply());
        }
        assertEquals(4, server.counters().messagesMalformed());
        assertEquals(4, server.counters().messagesOk());
    }

    @Test
    void shouldRejectAnOversizedLineAndReadTheNextOne() throws IOException {
        int max = ServerConfig.DEFAULT_MAX_LINE_BYTES;
        try (TestClient a = new TestClient(server.port())) {
            a.hello("alice");
            a.send("SPAWN 1 " + "x".repeat(5_000));
            String err = a.readReply();
            assertTrue(err.startsWith("ERR 2 TOO_LONG the line is longer than " + max + " bytes"), err);
            a.send("MOVE 1 " + " ".repeat(max - 9) + "2 3"); // max + 1 bytes: just over
            assertTrue(a.readReply().startsWith("ERR 3 TOO_LONG"));
            String exact = "MOVE 1 " + " ".repeat(max - 10) + "2 3"; // exactly max bytes, then CR LF
            assertEquals(max, exact.length());
            a.sendRaw((exact + "\r\n").getBytes(StandardCharsets.US_ASCII));
            assertEquals("OK 4", a.readReply());
            a.send("SPAWN 1");
            assertEquals("OK 5", a.readReply());
        }
        assertEquals(2, server.counters().messagesOversized());
        assertEquals(0, server.counters().messagesMalformed());
    }

    @Test
    void shouldSurviveRandomBytesAndAnAbruptReset() throws Exception {
        byte[] noise = new byte[100_000];
        new java.util.Random(42).nextBytes(noise);
        try (TestClient good = new TestClient(server.port())) {
            good.hello("good");
            try (TestClient fuzz = new TestClient(server.port())) {
                fuzz.hello("fuzz");
                fuzz.sendRaw(noise);
                fuzz.send("");
                fuzz.send("SPAWN 1"); // after the noise's last line feed: still understood
                String reply;
                do {
                    reply = fuzz.readReply();
                } while (reply.startsWith("ERR "));
                assertTrue(reply.matches("OK \\d+"), reply);
                fuzz.sendRaw(noise); // then leaves without reading the replies to this
            }
            good.send("SPAWN 1");
            assertEquals("OK 2", good.readReply());
        }
        assertTrue(server.isRunning());
        assertTrue(server.counters().messagesMalformed() > 100);
        assertEquals(0, server.counters().internalErrors());
    }

    @Test
    void shouldRequireHelloBeforeCommands() throws IOException {
        try (TestClient a = new TestClient(server.port())) {
            a.send("SPAWN 1");
            String err = a.readReply();
            assertTrue(err.startsWith("ERR 1 PROTOCOL send HELLO <name> first"), err);
            assertEquals(0, sim.receivedCount());
            a.send("HELLO alice");
            assertEquals("OK 2 1", a.readReply(), "HELLO after a refused command still works; ids start at 1");
        }
    }

    @Test
    void shouldReplyBusyWhenTheSinkRefusesAndServeAgainAfter() throws IOException {
        try (TestClient a = new TestClient(server.port())) {
            long id = a.hello("alice");
            sim.refuseEverything(true);
            a.send("SPAWN 5");
            String err = a.readReply();
            assertTrue(err.startsWith("ERR 2 BUSY the simulation's input queue is full; send the request again later"),
                    err);
            a.send("GET 1 Fog density");
            assertTrue(a.readReply().startsWith("ERR 3 BUSY"));
            sim.refuseEverything(false);
            a.send("SPAWN 5");
            assertEquals("OK 4", a.readReply());
            assertEquals(List.of(new ClientCommand.SpawnWave(id, 4, 5)), sim.received(id));
        }
        assertEquals(2, server.counters().messagesBusy());
    }

    @Test
    void shouldAnswerInternalWhenTheSinkThrowsAndKeepServing() throws Exception {
        try (CommandServer broken = CommandServer.start(ServerConfig.defaults(), c -> {
            throw new IllegalStateException("ring closed");
        }); TestClient a = new TestClient(broken.port())) {
            a.hello("alice");
            a.send("SPAWN 1");
            assertTrue(a.readReply().startsWith("ERR 2 INTERNAL the simulation's input failed (IllegalStateException)"));
            a.send("SPAWN 1");
            assertTrue(a.readReply().startsWith("ERR 3 INTERNAL"));
            assertEquals(2, broken.counters().internalErrors());
            assertTrue(broken.isRunning());
        }
    }

    /**
     * A runtime failure between accepting a socket and registering its connection (standing in
     * for a bug there) closes that socket only and is counted; the server goes on serving.
     */
    @Test
    void shouldCloseOnlyTheSocketWhoseAcceptFailedAndKeepServing() throws Exception {
        AtomicBoolean failNext = new AtomicBoolean(true);
        server.acceptSeam = ch -> {
            if (failNext.getAndSet(false)) {
                throw new IllegalStateException("a bug between accept and registration");
            }
        };
        try (TestClient unlucky = new TestClient(server.port())) {
            assertTrue(unlucky.closedByServer(), "the socket whose accept failed is closed");
        }
        await("the failure to be counted", () -> server.counters().internalErrors() == 1);
        assertTrue(server.isRunning());
        try (TestClient next = new TestClient(server.port())) {
            assertTrue(next.hello("next") > 0);
            next.send("SPAWN 1");
            assertEquals("OK 2", next.readReply());
        }
        assertEquals(1, server.counters().internalErrors());
        assertEquals(1, server.counters().connectionsAccepted(), "the failed socket was never a connection");
    }

    @Test
    void shouldRefuseConnectionsOverTheLimitWithFull() throws Exception {
        try (TestClient a = new TestClient(server.port()); TestClient b = new TestClient(server.port());
                TestClient c = new TestClient(server.port())) {
            a.hello("a");
            b.hello("b");
            c.hello("c");
            try (TestClient d = new TestClient(server.port())) {
                String err = d.read();
                assertTrue(err.startsWith("ERR 0 FULL the server has 3 clients, its limit"), err);
                assertTrue(d.closedByServer());
            }
            a.send("SPAWN 1");
            assertEquals("OK 2", a.readReply());
            assertEquals(1, server.counters().connectionsRefused());
            assertEquals(3, server.counters().connectionsOpen());
        }
        await("the three clients' sockets to close", () -> server.counters().connectionsOpen() == 0);
        try (TestClient e = new TestClient(server.port())) {
            e.hello("e"); // there is room again
        }
        assertEquals(4, server.counters().connectionsAccepted());
    }

    @Test
    void shouldPushStateToGreetedClientsOnly() throws Exception {
        try (TestClient a = new TestClient(server.port()); TestClient quiet = new TestClient(server.port())) {
            a.hello("alice");
            assertTrue(server.broadcastState(7, 100_000, "teams=2 fps=60\r\nINJECTED"));
            assertEquals("STATE 7 100000 teams=2 fps=60??INJECTED", a.read());
            quiet.send("SPAWN 1"); // not greeted: it gets its error and no STATE before it
            assertTrue(quiet.read().startsWith("ERR 1 PROTOCOL"));
        }
    }

    @Test
    void shouldSayByeAndCloseOnQuit() throws Exception {
        try (TestClient a = new TestClient(server.port())) {
            a.hello("alice");
            a.send("QUIT");
            a.send("SPAWN 1"); // after QUIT: ignored
            assertEquals("OK 2 BYE", a.read());
            assertNull(a.read());
        }
        await("the connection to close", () -> server.counters().connectionsOpen() == 0);
        assertEquals(0, sim.receivedCount());
    }

    @Test
    void shouldCountRepliesToGoneClientsAsDropped() throws Exception {
        long id;
        try (TestClient a = new TestClient(server.port())) {
            id = a.hello("alice");
        }
        await("the connection to close", () -> server.counters().connectionsOpen() == 0);
        assertTrue(server.reply(id, 2, "late"));
        await("the late reply to be counted", () -> server.counters().repliesDropped() == 1);
    }

    @Test
    void shouldCloseIdempotentlyAndRefuseLaterHandOffs() throws Exception {
        TestClient a = new TestClient(server.port());
        long id = a.hello("alice");
        server.close();
        server.close();
        assertFalse(server.isRunning());
        assertTrue(a.closedByServer());
        assertFalse(server.reply(id, 2, "too late"));
        assertFalse(server.broadcastState(1, 1, ""));
        assertEquals(0, server.counters().connectionsOpen());
        a.close();
    }
}
