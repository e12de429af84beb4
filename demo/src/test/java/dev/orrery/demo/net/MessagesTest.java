package dev.orrery.demo.net;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Error messages of the demo's network tools: each names the thing that failed and says what
 * to check or change (a confusing message is a defect).
 */
class MessagesTest {
    private static final HostileLoad LOAD = new HostileLoad(
            new HostileLoad.Options("127.0.0.1", 4711, Duration.ofSeconds(1), 1, 1, 0, 1));

    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "message should contain '" + part + "': " + message);
        }
    }

    @Test
    void shouldNameTheServerAndWhatToCheckWhenHelloGetsNoReply() {
        // a server at its limit sends ERR 0 FULL and closes: request 1 is never answered
        BufferedReader closedAfterFull = new BufferedReader(new StringReader("ERR 0 FULL the server has 3 clients\n"));
        IOException e = assertThrows(IOException.class,
                () -> LOAD.hello(closedAfterFull, new ByteArrayOutputStream(), "polite0"));
        assertContains(e.getMessage(), "HELLO polite0 got no reply from 127.0.0.1:4711",
                "check that an orrery-demo server listens there (--port 4711)", "--max-connections",
                "run fewer --polite clients");
        assertFalse(e.getMessage().contains("null"), e.getMessage());
    }

    @Test
    void shouldQuoteTheRefusalWhenHelloIsAnsweredWithAnError() {
        BufferedReader refusing = new BufferedReader(new StringReader("ERR 1 PROTOCOL usage: HELLO <name>\n"));
        IOException e = assertThrows(IOException.class,
                () -> LOAD.hello(refusing, new ByteArrayOutputStream(), "flood"));
        assertContains(e.getMessage(), "HELLO flood was refused by 127.0.0.1:4711 with 'ERR 1 PROTOCOL usage",
                "check that the server there is an orrery-demo server of this version");
    }
}
