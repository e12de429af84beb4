package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The explorer's API over a small ticking simulation: reads wait for a safe point (503 while
 * nothing ticks), answer from the live world while it ticks, stream figures, and edits go to
 * the {@link EditSink} only when one is given.
 */
class ExplorerTest {
    record Pos(float x, float y) {
    }

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void shouldAnswerFromASafePointOnlyWhileTheSimulationTicks() throws Exception {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        long[] ids = world.entity().with(pos, new Pos(1, 2)).spawnMany(1000);
        Relation childOf = world.relations().childOf();
        long parent = world.spawn();
        long first = world.spawn();
        long second = world.spawn();
        world.relations().add(first, childOf, parent);
        world.relations().add(second, childOf, parent);
        Field px = pos.field("x");
        Simulation sim = Simulation.builder(world).seed(1).workers(2).systems(s -> s.system("move")
                .query(world.query().with(pos).build()).writes(pos).forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(px);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        x[i] += 1;
                    }
                })).build();
        Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0)
                .withRequestTimeout(Duration.ofMillis(300)));
        Thread ticker = new Thread(() -> sim.run(0, 200, null), "test-tick");
        try {
            assertEquals(503, get(explorer, "/api/summary").statusCode(), "no safe point before the first tick");
            ticker.start();
            HttpResponse<String> summary = get(explorer, "/api/summary");
            assertEquals(200, summary.statusCode(), summary.body());
            assertTrue(summary.body().contains("\"systemNames\":[\"move\"]"), summary.body());
            String entity = get(explorer, "/api/entity?id=" + ids[3]).body();
            assertTrue(entity.contains("\"alive\":true") && entity.contains("\"name\":\"Pos\""), entity);
            assertTrue(entity.contains("\"name\":\"y\",\"type\":\"FLOAT\",\"value\":\"2.0\""), entity);
            String parentView = get(explorer, "/api/entity?id=" + parent).body();
            assertTrue(parentView.contains("\"relations\":[{\"name\":\"ChildOf\",\"targets\":[],\"holderCount\":2,"
                    + "\"holders\":[" + first + "," + second + "]}]"), parentView);
            String childView = get(explorer, "/api/entity?id=" + second).body();
            assertTrue(childView.contains("\"relations\":[{\"name\":\"ChildOf\",\"targets\":[" + parent
                    + "],\"holderCount\":0,\"holders\":[]}]"), childView);
            assertTrue(entity.contains("\"relations\":[]"), "an entity in no pair lists none: " + entity);
            String archetypes = get(explorer, "/api/archetypes").body();
            assertTrue(archetypes.contains("{\"columns\":[\"Pos\"],\"rows\":1000,"), archetypes);
            assertTrue(get(explorer, "/api/graph").body().contains("digraph"));
            assertEquals(404, get(explorer, "/api/map").statusCode(), "no map source was given");
            assertEquals(403, post(explorer, "entity=1&component=Pos&field=x&value=3").statusCode(),
                    "edits are off without an EditSink");
            assertTrue(get(explorer, "/").body().contains("Orrery Explorer"));
            assertEquals(404, get(explorer, "/webjars/uplot/1.6.30/../../secret").statusCode());
            assertEquals(200, get(explorer, "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js").statusCode());
            HttpResponse<java.io.InputStream> stream = http.send(HttpRequest.newBuilder(uri(explorer, "/api/stream"))
                    .build(), HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                String line = r.readLine();
                assertTrue(line.startsWith("data: {\"tick\":"), line);
            }
        } finally {
            sim.stop();
            ticker.join(10_000);
            explorer.close();
            sim.close();
        }
    }

    @Test
    void shouldHandEditsToTheSinkAndAnswerItsRefusal() throws Exception {
        World world = new World();
        world.component(Pos.class);
        Simulation sim = Simulation.builder(world).seed(1).workers(1).systems(s -> { }).build();
        List<String> taken = new CopyOnWriteArrayList<>();
        EditSink sink = (entity, component, field, value) -> {
            if (field.equals("y")) {
                return "FORBIDDEN Pos.y is server-owned";
            }
            taken.add(entity + " " + component + "." + field + "=" + value);
            return null;
        };
        Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withEdits(sink));
        try {
            HttpResponse<String> ok = post(explorer, "entity=42&component=Pos&field=x&value=+3.5+");
            assertEquals(200, ok.statusCode(), ok.body());
            assertEquals(List.of("42 Pos.x=3.5"), taken);
            HttpResponse<String> no = post(explorer, "entity=42&component=Pos&field=y&value=1");
            assertEquals(409, no.statusCode());
            assertTrue(no.body().contains("server-owned"), no.body());
            assertEquals(400, post(explorer, "entity=forty&component=Pos&field=x&value=1").statusCode());
        } finally {
            explorer.close();
            sim.close();
        }
    }

    private HttpResponse<String> get(Explorer e, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(e, path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(Explorer e, String form) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(e, "/api/edit")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(Explorer e, String path) {
        return URI.create(e.url().substring(0, e.url().length() - 1) + path);
    }
}
