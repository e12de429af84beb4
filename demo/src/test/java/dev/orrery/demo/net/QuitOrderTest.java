package dev.orrery.demo.net;

import static dev.orrery.demo.net.FakeSimulation.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * A client that pipelines {@code GET}/{@code SET} lines and then {@code QUIT} (or ends its
 * input) gets every answer the simulation owes it, then {@code OK <n> BYE}, then the close.
 * Every test sends its lines in one write on a real socket and reads until the server closes,
 * with a generous timeout; nothing waits a fixed time.
 */
class QuitOrderTest {

    /**
     * A simulation that answers each GET/SET only once a condition holds (set by the test:
     * "the server has handled the QUIT"), so the answers are certainly still owed when the
     * QUIT is read. Entity 404 is not found; every other field reads as 1.5.
     */
    private static final class GatedSimulation implements ClientCommandSink, AutoCloseable {
        private final LinkedBlockingQueue<ClientCommand> owed = new LinkedBlockingQueue<>();
        private final Thread tickThread;
        private volatile ClientReplies replies = ClientReplies.discarding();
        private volatile BooleanSupplier gate = () -> true;
        private volatile boolean answering = true;
        private volatile boolean running = true;

        GatedSimulation() {
            tickThread = new Thread(this::answerLoop, "gated-tick");
            tickThread.setDaemon(true);
            tickThread.start();
        }

        CommandServer start(ServerConfig config) throws IOException {
            CommandServer server = CommandServer.start(config, this);
            replies = server;
            return server;
        }

        @Override
        public boolean offer(ClientCommand command) {
            if (command.type().answeredBySimulation()) {
                owed.add(command);
            }
            return true;
        }

        private void answerLoop() {
            while (running) {
                ClientCommand c = owed.peek();
                if (c == null || !answering || !gate.getAsBoolean()) {
                    Thread.onSpinWait();
                    Thread.yield();
                    continue;
                }
                owed.poll();
                long entity = c instanceof ClientCommand.GetProperty g ? g.entity()
                        : ((ClientCommand.SetProperty) c).entity();
                if (entity == 404) {
                    replies.replyError(c.clientId(), c.requestId(), ErrorCode.NOT_FOUND, "entity 404 does not exist");
                } else {
                    replies.reply(c.clientId(), c.requestId(), c.type() == CommandType.GET ? "1.5" : "");
                }
            }
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            tickThread.join();
        }
    }

    /** Sends {@code text} in one write, optionally ends its output, and reads every line until the server closes. */
    private static List<String> exchange(int port, String text, boolean endInput) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(60_000); // generous: a loaded machine may take a while; a lost close fails, not hangs
            s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            if (endInput) {
                s.shutdownOutput();
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            List<String> lines = new ArrayList<>();
            for (String line; (line = in.readLine()) != null; ) {
                if (!line.startsWith("STATE ")) {
                    lines.add(line);
                }
            }
            return lines;
        }
    }

    @Test
    void answersOwedWhenQuitIsReadComeBeforeByeAndNoneIsLost() throws Exception {
        try (GatedSimulation sim = new GatedSimulation()) {
            CommandServer server = sim.start(ServerConfig.defaults());
            try {
                // HELLO, three commands the sink takes, QUIT: five requests counted ok once QUIT is handled.
                sim.gate = () -> server.counters().messagesOk() >= 5;
                List<String> got = exchange(server.port(),
                        "HELLO pipe\nGET 7 Health hp\nSET 7 Health hp 3\nGET 404 Health hp\nQUIT\nSPAWN 1\n", false);
                assertEquals(5, got.size(), "every reply, then BYE, then the close; got " + got);
                assertTrue(got.get(0).startsWith("OK 1 "), got.toString());
                assertEquals(List.of("OK 2 1.5", "OK 3", "ERR 4 NOT_FOUND entity 404 does not exist", "OK 5 BYE"),
                        got.subList(1, 5));
                assertEquals(0, server.counters().repliesDropped());
            } finally {
                server.close();
            }
        }
    }

    @Test
    void manyPipelinedAnswersComeInOrderBeforeByeOnEveryConnection() throws Exception {
        try (FakeSimulation sim = new FakeSimulation()) {
            CommandServer server = sim.start(ServerConfig.defaults());
            try {
                for (int round = 0; round < 20; round++) {
                    StringBuilder text = new StringBuilder("HELLO round").append(round).append('\n');
                    List<String> expected = new ArrayList<>();
                    for (int i = 0; i < 40; i++) {
                        text.append(i % 2 == 0 ? "GET 7 Health hp\n" : "SET 7 Health hp 2\n");
                        expected.add(i % 2 == 0 ? "OK " + (i + 2) + " 1.5" : "OK " + (i + 2));
                    }
                    text.append("QUIT\n");
                    expected.add("OK 42 BYE");
                    List<String> got = exchange(server.port(), text.toString(), false);
                    assertEquals(expected, got.subList(1, got.size()), "round " + round);
                }
                assertEquals(0, server.counters().repliesDropped());
            } finally {
                server.close();
            }
        }
    }

    @Test
    void aClientThatEndsItsInputStillGetsTheAnswersItIsOwed() throws Exception {
        try (GatedSimulation sim = new GatedSimulation()) {
            CommandServer server = sim.start(ServerConfig.defaults());
            try {
                sim.answering = false;
                // HELLO and two GETs handled; the client's end of input is seen with them still owed.
                sim.gate = () -> server.counters().messagesOk() >= 3;
                List<String> got = new ArrayList<>();
                Thread reader = new Thread(() -> {
                    try {
                        got.addAll(exchange(server.port(), "HELLO half\nGET 7 Health hp\nGET 8 Health hp\n", true));
                    } catch (IOException e) {
                        got.add("failed: " + e);
                    }
                });
                reader.start();
                await("both GETs handled", () -> server.counters().messagesOk() >= 3);
                sim.answering = true;
                reader.join(120_000);
                assertEquals(3, got.size(), "HELLO's reply and both answers before the close; got " + got);
                assertEquals(List.of("OK 2 1.5", "OK 3 1.5"), got.subList(1, 3));
            } finally {
                server.close();
            }
        }
    }

    @Test
    void answersThatNeverComeHoldTheByeOnlyForTheStuckLimit() throws Exception {
        try (GatedSimulation sim = new GatedSimulation()) {
            CommandServer server = sim.start(ServerConfig.defaults().withStuckLimit(Duration.ofMillis(200)));
            try {
                sim.answering = false; // the simulation never answers (stopped, or its reply was dropped)
                List<String> got = exchange(server.port(), "HELLO lost\nGET 7 Health hp\nQUIT\n", false);
                assertEquals(2, got.size(), "HELLO's reply, then BYE once the wait gave up; got " + got);
                assertEquals("OK 3 BYE", got.get(1));
                await("the connection to close", () -> server.counters().connectionsOpen() == 0);
                assertEquals(0, server.counters().repliesDropped(), "an answer still to come is not counted yet");
                sim.answering = true; // the late answer goes nowhere: the client has gone
                await("the late answer to be counted as dropped", () -> server.counters().repliesDropped() == 1);
                assertTrue(server.isRunning());
            } finally {
                server.close();
            }
        }
    }
}
