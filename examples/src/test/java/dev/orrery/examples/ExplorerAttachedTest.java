package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The explorer attached to a running simulation answers its JSON API on a free loopback port.
 * The program waits for the answer while ticking (no fixed sleep), with timeouts of 30 and 60
 * seconds, so a busy machine only makes it slower.
 */
class ExplorerAttachedTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void shouldAnswerTheSummaryOverHttp() throws Exception {
        List<String> lines = Programs.run(ExplorerAttached::main);
        assertEquals(List.of("explorer on loopback answered GET /api/summary: status=200 entities=1000 "
                + "systems=[\"move\"]"), lines);
    }
}
