package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A newcomer reading {@code /api/summary} beside the chapter's table: {@code tick} is "the last
 * tick the explorer saw end" and {@code nextTick} "the tick the simulation runs next", yet a live
 * run answered {@code "tick":1955 ... "nextTick":1897}: the state was read at a safe point and
 * the figures afterwards, on the request thread, while the run went on. The figures are now
 * summarized up to the tick the state was read after, so {@code tick} is never past
 * {@code nextTick - 1}. Each sample is checked (no clock in the assertion); the old code failed
 * it on a run ticking as fast as it goes, where ticks end while the answer is written.
 */
class SummaryTickCoherentTest {

    @Test
    void aLiveSummarysTickIsNeverPastTheStatesNextTick() throws Exception {
        try (Fixture f = new Fixture(50, 2, 0, (fx, o) -> o).start()) {
            for (int i = 0; i < 8; i++) {
                String s = f.client.getTicking("/api/summary").body();
                long tick = number(s, "tick");
                long next = number(s, "nextTick");
                assertTrue(s.contains("\"live\":true"), s);
                assertTrue(tick >= 0 && tick <= next - 1, "tick " + tick + " past nextTick " + next + ": " + s);
                Thread.sleep(Routes.SHARE_NANOS / 1_000_000 + 20); // past the shared answer's freshness: a new read
            }
        }
    }

    @Test
    void theFiguresCountOnlyTheTicksUpToTheStatesTick() {
        TickFigures figures = new TickFigures(0, 1);
        long ms = 1_000_000L;
        long end = 5_000 * ms;
        for (int t = 0; t < 10; t++) {
            end += 16 * ms;
            figures.record(t, 2 * ms, end, 100 + t, 0, false);
        }
        Json json = new Json().beginObject();
        figures.summarize(end + ms, 6, json);
        String upTo6 = json.endObject().toString();
        assertTrue(upTo6.startsWith("{\"tick\":6,\"entities\":106,\"ticks\":7,"), upTo6);
        Json all = new Json().beginObject();
        figures.summarize(end + ms, Long.MAX_VALUE, all);
        assertTrue(all.endObject().toString().startsWith("{\"tick\":9,\"entities\":109,\"ticks\":10,"), upTo6);
        Json none = new Json().beginObject();
        figures.summarize(end + ms, -1, none);
        assertTrue(none.endObject().toString().startsWith("{\"tick\":-1,\"entities\":0,\"ticks\":0,"), upTo6);
    }

    static long number(String json, String key) {
        int at = json.indexOf("\"" + key + "\":");
        assertTrue(at >= 0, key + " in " + json);
        int from = at + key.length() + 3;
        int to = from;
        while (to < json.length() && (Character.isDigit(json.charAt(to)) || json.charAt(to) == '-')) {
            to++;
        }
        return Long.parseLong(json.substring(from, to));
    }
}
