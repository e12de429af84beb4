package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The explorer's API over a small ticking simulation: reads wait for a safe point (503 while
 * nothing ticks), answer from the live world while it ticks, the history and the stream carry
 * the figures, and every path answers, unknown ones with the API's list.
 */
class ExplorerTest {

    @Test
    void shouldAnswerFromASafePointOnlyWhileTheSimulationTicks() throws Exception {
        try (Fixture f = new Fixture(1000, 2, 0, (fx, o) -> o.withRequestTimeout(Duration.ofMillis(300)))) {
            Client c = f.client;
            assertEquals(503, c.get("/api/archetypes").statusCode(), "no safe point before the first tick");
            String early = c.get("/api/summary").body(); // answered without the world, and says so
            assertTrue(early.contains("\"live\":false") && early.contains("has not ticked"), early);
            f.start();
            HttpResponse<String> summary = c.getTicking("/api/summary");
            assertEquals(200, summary.statusCode(), summary.body());
            assertTrue(summary.body().contains("\"systemNames\":[\"move\",\"heal\"]"), summary.body());
            assertTrue(summary.body().contains("\"lastHash\":null"), "nothing hashes, so no hash: " + summary.body());
            assertTrue(summary.body().contains("\"windowSeconds\":10"), summary.body());

            String entity = c.getTicking("/api/entity?id=" + f.units[3]).body();
            assertTrue(entity.contains("\"alive\":true") && entity.contains("\"name\":\"Pos\""), entity);
            assertTrue(entity.contains("{\"name\":\"y\",\"type\":\"FLOAT\",\"value\":\"0.003\",\"editable\":false,"
                    + "\"readOnly\":\"edits are off"), entity);
            assertTrue(entity.contains("\"name\":\"ChildOf\""), entity);
            assertTrue(entity.contains("\"ref\":" + f.squads[1]), "the parent is a link: " + entity);
            String parentView = c.getTicking("/api/entity?id=" + f.squads[0]).body();
            assertTrue(parentView.contains("\"relations\":[{\"name\":\"ChildOf\",\"targets\":[],\"holderCount\":500,"),
                    parentView);

            String dead = c.getTicking("/api/entity?id=-5").body();
            assertTrue(dead.contains("\"alive\":false") && dead.contains("no entity has id -5"), dead);
            String stale = c.getTicking("/api/entity?id=123456789").body();
            assertTrue(stale.contains("is not alive"), stale);

            String archetypes = c.getTicking("/api/archetypes").body();
            assertTrue(archetypes.contains("{\"columns\":[\"Pos\",\"Vel\",\"ChildOf\"],\"rows\":666,"), archetypes);
            assertTrue(archetypes.contains("\"query\":\"Pos, Vel, ChildOf, !Health, !Squad\""), archetypes);
            assertTrue(archetypes.contains("{\"name\":\"Marked\",\"rows\":100}"), archetypes);

            String resources = c.getTicking("/api/resources").body();
            assertTrue(resources.contains("\"name\":\"Clock\",\"type\":\"Clock\",\"text\":\"tick "), resources);

            assertTrue(c.get("/api/graph").body().contains("digraph"));
            assertEquals(404, c.get("/api/map").statusCode(), "no map source was given");
            HttpResponse<String> unknown = c.get("/api/nothing");
            assertEquals(404, unknown.statusCode());
            assertTrue(unknown.body().contains("/api/query?q="), "an unknown path lists the API: " + unknown.body());
            assertTrue(c.get("/").body().contains("Orrery Explorer"));
            assertEquals(200, c.get("/favicon.ico").statusCode(), "the favicon is served");
            assertEquals(404, c.get("/webjars/uplot/1.6.30/../../secret").statusCode());
            assertEquals(200, c.get("/webjars/uplot/1.6.30/dist/uPlot.iife.min.js").statusCode());
        }
    }

    @Test
    void shouldServeTheHistoryAndStreamTheNewTicks() throws Exception {
        try (Fixture f = new Fixture(500, 1, 0, (fx, o) -> o)) {
            f.start();
            Client c = f.client;
            c.getTicking("/api/summary"); // a client: the systems are timed from now on
            long until = System.nanoTime() + 30_000_000_000L;
            String history = c.get("/api/history").body();
            while (!history.contains("\"systems\":[[0") && System.nanoTime() < until) {
                Thread.sleep(100);
                history = c.get("/api/history").body();
            }
            assertTrue(history.startsWith("{\"systemNames\":[\"move\",\"heal\"],\"ticks\":{\"seq\":"), history);
            assertTrue(history.contains("\"systems\":[[0"), "timed ticks carry each system's time: " + history);
            for (String column : new String[] {"\"tick\":[", "\"t\":[", "\"ms\":[", "\"entities\":[",
                "\"explorerMs\":[", "\"syncMs\":[", "\"commands\":[", "\"heapAfterGcMb\":[", "\"gcMs\":[",
                "\"archetypes\":[", "\"tps\":["}) {
                assertTrue(history.contains(column), "history has " + column + ": " + history.substring(0,
                        Math.min(400, history.length())));
            }
            HttpResponse<java.io.InputStream> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    c.uri("/api/stream")).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertEquals("text/event-stream; charset=utf-8", stream.headers().firstValue("Content-Type").orElse(""));
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                String line = r.readLine();
                while (line != null && !line.startsWith("data: ")) {
                    line = r.readLine(); // the retry: line first
                }
                assertTrue(line != null && line.startsWith("data: {\"tick\":"), line);
                assertTrue(line.contains("\"rows\":{\"seq\":"), line);
            }
        }
    }
}
