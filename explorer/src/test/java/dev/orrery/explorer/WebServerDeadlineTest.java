package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The answer deadline runs from the answer's first byte, as {@link WebServer#RESPONSE_DEADLINE_MILLIS}
 * says: a handler that takes longer than it to compute its answer (a timeline replaying far
 * back, which waits up to {@link PastWorlds#WAIT_MILLIS} and then answers 503 "retry") still
 * gets its answer to the client; the deadline once ran from the request, so such a client got
 * an empty reply.
 */
class WebServerDeadlineTest {
    @Test
    void shouldDeliverAnAnswerThatTookLongerThanTheAnswerDeadlineToCompute() throws Exception {
        long deadline = 1_500; // long enough for a small answer's bytes on a loaded machine
        Streams streams = new Streams(new Streams.Source() {
            @Override
            public String event() {
                return "{}";
            }

            @Override
            public void second() {
            }
        });
        WebServer server = new WebServer((request, exchange) -> {
            try {
                Thread.sleep(deadline * 2); // computing the answer: no byte sent yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.send(503, "application/json", Json.error("still on its way; retry in a moment"), Map.of());
        }, streams, deadline);
        server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        try (Socket s = new Socket()) {
            s.connect(server.address(), 10_000);
            s.setSoTimeout(30_000);
            s.getOutputStream().write(("GET /api/past/entity?tick=1&id=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String answer = all.toString(StandardCharsets.UTF_8);
            assertEquals(503, Client.status(answer), "an answer, not an empty reply: '" + answer + "'");
            assertTrue(answer.contains("retry in a moment"), answer);
        } finally {
            server.stop();
        }
    }
}
