package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Relations;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newcomer's own hive (bees, flowers and a hive; the bees ChildOf the hive and Visits a flower,
 * a relation of their own that is not exclusive; sparse Pollen; honey in a resource with a codec;
 * flight in a fixed-step phase; recorded), explored as the explorer chapter says, through the
 * JSON API only: the world, a query, one value watched over ticks and set beside the timeline's,
 * a relation's pairs, a diff between two ticks, and, the run stopped by the program (the
 * explorer has no pause), live reads refused while the past still steps a tick at a time.
 */
class NewcomerHiveTest {
    record Position(float x, float y) {}
    record Velocity(float dx, float dy) {}
    record Bee(int number) {}
    record Flower(int nectar) {}
    record Hive(int size) {}
    record Pollen(int grains) {}

    static final class Honey {
        long jars;

        @Override
        public String toString() {
            return "honey: " + jars + " jars";
        }
    }

    static final ResourceKey<Honey> HONEY = ResourceKey.of("honey", Honey.class);
    static final ResourceKey<FixedTimestep> FLIGHT_CLOCK = ResourceKey.of("flight clock", FixedTimestep.class);
    static final ResourceCodec<Honey> HONEY_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Honey value, DataOutput out) throws IOException {
            out.writeLong(value.jars);
        }

        @Override
        public Honey read(DataInput in) throws IOException {
            Honey h = new Honey();
            h.jars = in.readLong();
            return h;
        }
    };

    static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Bee> bee = world.component(Bee.class);
        Component<Flower> flower = world.component(Flower.class);
        Component<Hive> hive = world.component(Hive.class);
        Component<Pollen> pollen = world.component(Pollen.class, Storage.SPARSE);
        Relations relations = world.relations();
        Relation childOf = relations.childOf();
        Relation visits = relations.register("Visits", false, false, Cleanup.REMOVE_PAIR);
        if (populate) {
            long home = world.spawn(new Position(0, 0), new Hive(12));
            for (int i = 0; i < 6; i++) {
                world.spawn(new Position(100 * i, 50), new Flower(10 + i));
            }
            for (int i = 0; i < 12; i++) {
                long b = world.spawn(new Position(0, 0), new Velocity(1 + i, 0.5f), new Bee(i));
                relations.add(b, childOf, home);
            }
        }
        Field px = pos.field("x"), py = pos.field("y"), dx = vel.field("dx"), dy = vel.field("dy");
        Query flying = world.query().with(pos, vel).build();
        Query bees = world.query().with(bee).build();
        Query flowers = world.query().with(flower).build();
        Phase flight = Phase.named("Flight");
        return Simulation.builder(world).workers(workers).seed(7)
                .resource(HONEY, new Honey(), HONEY_CODEC)
                .resource(FLIGHT_CLOCK, new FixedTimestep(20_000_000, 16_666_667, 4))
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, flight, Phase.UPDATE, Phase.POST_UPDATE)
                            .fixedTimestep(flight, FLIGHT_CLOCK);
                    s.system("fly").inPhase(flight).query(flying).reads(vel).writes(pos).forEachChunk(job -> {
                        float[] x = job.chunk().writeFloats(px), y = job.chunk().writeFloats(py);
                        float[] vx = job.chunk().readFloats(dx), vy = job.chunk().readFloats(dy);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            x[i] += vx[i];
                            y[i] += vy[i];
                        }
                    });
                    s.system("forage").exclusive((w, job) -> {
                        long tick = job.resource(Simulation.CLOCK).tick();
                        long[] fs = new long[6];
                        int[] n = {0};
                        flowers.forEach((c, row) -> fs[n[0]++] = c.entity(row));
                        long[] bs = new long[12];
                        int[] m = {0};
                        bees.forEach((c, row) -> bs[m[0]++] = c.entity(row));
                        for (int i = 0; i < m[0]; i++) {
                            long f = fs[(int) ((tick + i) % n[0])];
                            w.relations().removeAll(bs[i], visits);
                            w.relations().add(bs[i], visits, f);
                            if ((tick + i) % 3 == 0) {
                                if (w.has(bs[i], pollen)) {
                                    w.set(bs[i], pollen, new Pollen((int) tick));
                                } else {
                                    w.add(bs[i], pollen, new Pollen((int) tick));
                                }
                            } else if (w.has(bs[i], pollen)) {
                                w.remove(bs[i], pollen);
                            }
                        }
                        job.resourceForWrite(HONEY).jars++;
                    });
                })
                .build();
    }

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    String base;

    HttpResponse<String> get(String pathAndQuery) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + pathAndQuery)).timeout(Duration.ofSeconds(60))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** The number after {@code "key":} in {@code json}, as text (the first such key). */
    static String value(String json, String key) {
        int at = json.indexOf("\"" + key + "\":");
        assertTrue(at >= 0, "no " + key + " in " + json);
        at += key.length() + 3;
        int end = at;
        while (end < json.length() && "-0123456789.\"".indexOf(json.charAt(end)) >= 0
                && (end == at || json.charAt(end) != '"')) {
            end++;
        }
        return json.substring(at, end).replace("\"", "");
    }

    /** {@code Position.x} as the entity answer {@code json} shows it. */
    static String positionX(String json) {
        int at = json.indexOf("{\"name\":\"x\"");
        return value(json.substring(at), "value");
    }

    /** The flower the bee of entity answer {@code json} visits (it moves on to the next one every tick). */
    static String visitedFlower(String json) {
        int at = json.indexOf("{\"name\":\"Visits\",\"type\"");
        return value(json.substring(at), "value");
    }

    /**
     * Waits until the live recording holds {@code tick} ({@code last} of {@code /api/timeline}):
     * the journal is written by a thread of its own, a little behind the tick thread.
     */
    void recorded(long tick) throws Exception {
        long until = System.nanoTime() + 60_000_000_000L;
        String timeline = ok("/api/timeline").body();
        while (Long.parseLong(value(timeline, "last")) < tick && System.nanoTime() < until) {
            Thread.sleep(50);
            timeline = ok("/api/timeline").body();
        }
        assertTrue(Long.parseLong(value(timeline, "last")) >= tick, "tick " + tick + " recorded: " + timeline);
    }

    HttpResponse<String> ok(String path) throws Exception {
        HttpResponse<String> r = get(path);
        long until = System.nanoTime() + 60_000_000_000L;
        while (r.statusCode() == 503 && System.nanoTime() < until) { // no safe point yet: the run is starting
            Thread.sleep(50);
            r = get(path);
        }
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        return r;
    }

    @Test
    void aNewcomerExploresTheirHive(@TempDir Path recording) throws Exception {
        Simulation sim = build(2, true);
        RunRecorder recorder = RunRecorder.start(sim, recording, InputPipeline.builder());
        Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0)
                .withTimeline(Timeline.ofRecording(recording, () -> build(1, false))));
        base = explorer.url().substring(0, explorer.url().length() - 1);
        Thread ticker = new Thread(() -> sim.run(0, 60.0), "hive-ticks");
        ticker.start();
        try {
            String archetypes = ok("/api/archetypes").body();
            assertTrue(archetypes.contains("\"sparse\":[{\"name\":\"Pollen\""), archetypes);
            assertTrue(archetypes.contains("{\"name\":\"Visits\",\"pairs\":12,\"exclusive\":false"), archetypes);
            String bees = ok("/api/query?q=" + enc("Bee, ?Pollen")).body();
            assertEquals("12", value(bees, "count"), bees);
            String bee = value(bees.substring(bees.indexOf("\"entities\"")), "id");

            // Watch one bee's Position.x over ticks: each live answer says after which tick it was read,
            // and the timeline shows the same value after that tick.
            TreeMap<Long, String> seen = new TreeMap<>();
            long until = System.nanoTime() + 60_000_000_000L;
            while (seen.size() < 3 && System.nanoTime() < until) {
                String live = ok("/api/entity?id=" + bee).body();
                seen.put(Long.parseLong(value(live, "tick")), positionX(live));
                Thread.sleep(300);
            }
            assertEquals(3, seen.size(), "three distinct ticks watched: " + seen);
            recorded(seen.lastKey());
            for (Map.Entry<Long, String> e : seen.entrySet()) {
                String past = ok("/api/past/entity?tick=" + e.getKey() + "&id=" + bee).body();
                assertEquals(e.getValue(), positionX(past), "after tick " + e.getKey() + ", live and past: " + past);
            }
            String query = ok("/api/query?q=Pollen").body();
            long queryTick = Long.parseLong(value(query, "tick"));
            recorded(queryTick);
            String pastQuery = ok("/api/past/query?tick=" + queryTick + "&q=Pollen").body();
            assertEquals(value(query, "count"), value(pastQuery, "count"), query + " vs " + pastQuery);

            // A relation's pairs: a flower lists the bees that visit it, and Visits(flower) finds them.
            String flower = value(ok("/api/query?q=Flower&size=1").body().split("\"entities\"")[1], "id");
            String visited = ok("/api/entity?id=" + flower).body();
            assertTrue(visited.contains("{\"name\":\"Visits\",\"targets\":[],\"holderCount\":2,"), visited);
            String visitors = ok("/api/query?q=" + enc("Visits(" + flower + ")")).body();
            assertEquals("2", value(visitors, "count"), visitors);

            // The diff of one bee between two ticks: it flew, and changed flowers (each bee moves on every tick).
            String diff = ok("/api/past/diff?from=5&to=9&id=" + bee).body();
            assertTrue(diff.contains("{\"field\":\"Position.x\",\"from\":"), diff);
            assertTrue(diff.contains("{\"field\":\"Visits.targets\",\"from\":"), diff);

            // Mistakes are named with the fix: a misspelt component, a pair target that is no id (there,
            // and only there, * is offered), a tick the recording does not hold.
            HttpResponse<String> typo = get("/api/query?q=Bea");
            assertEquals(400, typo.statusCode(), typo.body());
            assertTrue(typo.body().contains("did you mean Bee?"), typo.body());
            HttpResponse<String> badTarget = get("/api/query?q=" + enc("Visits(abc)"));
            assertEquals(400, badTarget.statusCode(), badTarget.body());
            assertTrue(badTarget.body().contains("or * for any target"), badTarget.body());
            HttpResponse<String> future = get("/api/past/entity?tick=99999999&id=" + bee);
            assertEquals(404, future.statusCode(), future.body());
            assertTrue(future.body().contains("tick 99999999 is not in the recording: it holds ticks up to"),
                    future.body());

            // Paused: the explorer does not pause a run, the program stops it; the past still answers.
            sim.stop();
            ticker.join(60_000);
            HttpResponse<String> live = get("/api/entity?id=" + bee);
            assertEquals(503, live.statusCode(), live.body());
            assertTrue(live.body().contains("the run is stopped (no run() is in progress: sim.stop() ended it"),
                    live.body());
            String timeline = ok("/api/timeline").body();
            long last = Long.parseLong(value(timeline, "last"));
            String before = ok("/api/past/entity?tick=" + (last - 1) + "&id=" + bee).body();
            String after = ok("/api/past/entity?tick=" + last + "&id=" + bee).body();
            assertNotEquals(visitedFlower(before), visitedFlower(after), "one step back: " + before + " / " + after);
        } finally {
            sim.stop();
            ticker.join(60_000);
            explorer.close();
            recorder.close();
            sim.close();
        }
    }
}
