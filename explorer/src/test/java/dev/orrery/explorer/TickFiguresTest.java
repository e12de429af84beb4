package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The summary's figures: the last tick and its entities stay shown after the ten-second window
 * has passed (a paused simulation, a replay that has finished), while the window's own figures
 * empty out.
 */
class TickFiguresTest {
    private static final long MS = 1_000_000L;

    private static String summary(TickFigures figures, long now) {
        Json json = new Json().beginObject();
        figures.summarize(now, Long.MAX_VALUE, json);
        return json.endObject().toString();
    }

    @Test
    void shouldKeepTheLastTickAndItsEntitiesAfterTheWindow() {
        TickFigures figures = new TickFigures(0, 1);
        assertTrue(summary(figures, 0).startsWith("{\"tick\":-1,\"entities\":0,\"ticks\":0,"), "before any tick");
        long end = 5_000 * MS;
        for (int t = 0; t < 200; t++) {
            end += 16 * MS;
            figures.record(t, 2 * MS, end, 1000 + t, 0, false);
        }
        String now = summary(figures, end + 100 * MS);
        assertTrue(now.startsWith("{\"tick\":199,\"entities\":1199,\"ticks\":200,"), now);
        String later = summary(figures, end + 60_000 * MS);
        assertTrue(later.startsWith("{\"tick\":199,\"entities\":1199,\"ticks\":0,\"tps\":0"),
                "a minute after the last tick: where it stands, and no tick in the window: " + later);
    }
}
