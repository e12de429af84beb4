package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every parameter a client gives the explorer's live API, at its edges (0, 1, just under and
 * over an internal default or bound, negative, the largest long and one past it, non-numeric,
 * empty, repeated), over worlds at their own edges: empty, one entity, one short of a full chunk,
 * exactly one chunk full, one past it, and two chunks and one (chunks of 16 rows here). Each
 * answer is a 200 whose result keeps the bound the parameter sets (never more items than asked,
 * the clamped value echoed), or a 400 whose message names the parameter and its range; never a
 * 500, never a hang (the client waits 30 s at most).
 *
 * <p>The timeline's parameters ({@code /api/past/*}) are in {@code PastParameterEdgesTest}.
 */
class ParameterEdgesTest {
    record Pos(float x, float y) {
    }

    record Squad(int number) {
    }

    /** Rows in a chunk of the worlds here: {@code new World(256)}, the smallest budget, makes 16-row chunks. */
    static final int CHUNK = 16;
    static final int[] WORLDS = {0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 1};
    static final String MAX = Long.toString(Long.MAX_VALUE);
    static final String MIN = Long.toString(Long.MIN_VALUE);
    static final String PAST_MAX = "9223372036854775808";
    /** The numeric edges of every parameter (each parameter's own bounds are added to them). */
    static final List<String> NUMBERS = List.of("-1", "0", "1", "2", "15", "16", "17", "49", "50", "51", MAX, MIN,
            " 7 ", "+3");
    /** What no numeric parameter takes: a 400 naming it. */
    static final List<String> NOT_NUMBERS = List.of("x", "1.5", "1e3", "0x10", "--1", PAST_MAX, "-9223372036854775809",
            "99999999999999999999999", "%00", "%E2%82%AC");

    /** A world of {@code n} entities with Pos, each ChildOf one squad, ticking, with its explorer and a live map. */
    static final class Small implements AutoCloseable {
        final World world = new World(256);
        final Component<Pos> pos = world.component(Pos.class);
        final Relation childOf = world.relations().childOf();
        final long squad;
        final int n;
        final Simulation sim;
        final Explorer explorer;
        final Client client;
        final Thread ticker;

        Small(int n) throws Exception {
            this.n = n;
            Component<Squad> squads = world.component(Squad.class);
            squad = world.spawn(new Squad(1));
            for (int i = 0; i < n; i++) {
                world.relations().add(world.spawn(new Pos(i, i)), childOf, squad);
            }
            sim = Simulation.builder(world).seed(1).workers(1).hashEvery(0)
                    .systems(s -> s.system("idle").exclusive(w -> { })).build();
            Query all = world.query().with(pos).build();
            Field x = pos.field("x");
            Field y = pos.field("y");
            MapSource map = Fixture.positions(all, x, y, 100);
            explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withMap(map)
                    .withRequestTimeout(java.time.Duration.ofSeconds(10)));
            client = new Client(explorer);
            ticker = new Thread(() -> sim.run(0, 200, null), "edges-tick");
            ticker.setDaemon(true);
            ticker.start();
        }

        @Override
        public void close() throws InterruptedException {
            sim.stop();
            ticker.join(60_000);
            explorer.close();
            sim.close();
        }
    }

    private static final Map<Integer, Small> LIVE = new ConcurrentHashMap<>();

    static synchronized Small world(int n) {
        return LIVE.computeIfAbsent(n, k -> {
            try {
                return new Small(k);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @AfterAll
    static void closeAll() throws InterruptedException {
        for (Small s : LIVE.values()) {
            s.close();
        }
        LIVE.clear();
    }

    /** {@code values} and the edges of a parameter bounded by {@code low} and {@code high}. */
    static List<String> edges(long low, long high) {
        List<String> out = new ArrayList<>(NUMBERS);
        for (long v : new long[] {low - 1, low, low + 1, high - 1, high, high + 1}) {
            out.add(Long.toString(v));
        }
        return out;
    }

    /** The value a bounded parameter takes: its default when absent or blank, else clamped to its bounds. */
    static long clamp(String raw, long low, long high, long otherwise) {
        if (raw == null || raw.isBlank()) {
            return otherwise;
        }
        return Math.max(low, Math.min(high, Long.parseLong(raw.strip())));
    }

    static Stream<Arguments> pages() {
        List<Arguments> out = new ArrayList<>();
        for (int n : WORLDS) {
            for (String route : List.of("query", "tree")) {
                for (String size : edges(1, Browse.MAX_PAGE)) {
                    out.add(Arguments.of(n, route, "size", size));
                }
                out.add(Arguments.of(n, route, "size", ""));
                for (String page : edges(0, 1_000_000)) {
                    out.add(Arguments.of(n, route, "page", page));
                }
                out.add(Arguments.of(n, route, "page", ""));
            }
        }
        return out.stream();
    }

    /**
     * A page of a query's matches or of the ChildOf tree: as many entities as the clamped size
     * allows from the clamped page on (none past the end), and the clamped values echoed.
     */
    @ParameterizedTest(name = "{0} entities: /api/{1}?{2}={3}")
    @MethodSource("pages")
    void shouldAnswerAPageWithinItsBounds(int n, String route, String param, String value) throws Exception {
        Small w = world(n);
        String base = route.equals("query") ? "/api/query?q=Pos&" : "/api/tree?parent=" + w.squad + "&";
        HttpResponse<String> r = w.client.getTicking(base + param + "=" + enc(value));
        assertEquals(200, r.statusCode(), r.body());
        int defaultSize = route.equals("query") ? 50 : 100;
        long size = param.equals("size") ? clamp(value, 1, Browse.MAX_PAGE, defaultSize) : defaultSize;
        long page = param.equals("page") ? clamp(value, 0, 1_000_000, 0) : 0;
        long expected = Math.max(0, Math.min(size, n - page * size));
        String list = route.equals("query") ? "entities" : "nodes";
        assertEquals(expected, items(r.body(), list), r.body());
        assertTrue(r.body().contains("\"size\":" + size + ",") && r.body().contains("\"page\":" + page + ","),
                "the clamped size " + size + " and page " + page + ": " + r.body());
        assertTrue(r.body().contains("\"count\":" + n + ","), r.body());
    }

    static Stream<Arguments> numbersOff() {
        List<Arguments> out = new ArrayList<>();
        for (String bad : NOT_NUMBERS) {
            out.add(Arguments.of("/api/query?q=Pos&size=", "size", bad, "1 to " + Browse.MAX_PAGE));
            out.add(Arguments.of("/api/query?q=Pos&page=", "page", bad, "0 to 1000000"));
            out.add(Arguments.of("/api/tree?size=", "size", bad, "1 to " + Browse.MAX_PAGE));
            out.add(Arguments.of("/api/tree?page=", "page", bad, "0 to 1000000"));
            out.add(Arguments.of("/api/map?max=", "max", bad, "1 to 200000"));
            out.add(Arguments.of("/api/history?after=", "after", bad, "-1 (all)"));
            out.add(Arguments.of("/api/history?afterSecond=", "afterSecond", bad, "-1 (all)"));
        }
        return out.stream();
    }

    /** A bounded number given as something else (or past a long): a 400 naming the parameter and its range. */
    @ParameterizedTest(name = "{0}{2}")
    @MethodSource("numbersOff")
    void shouldRefuseANonNumberNamingTheParameterAndItsRange(String path, String param, String value, String range)
            throws Exception {
        Small w = world(CHUNK);
        HttpResponse<String> r = w.client.getTicking(path + value);
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"error\":\"" + param + "="), "names " + param + ": " + r.body());
        assertTrue(r.body().contains(range), "gives the range " + range + ": " + r.body());
        // a number past a long is told so, not called no number (once: "is not a whole number")
        boolean digits = java.net.URLDecoder.decode(value, java.nio.charset.StandardCharsets.UTF_8).strip()
                .matches("[+-]?[0-9]+");
        assertTrue(r.body().contains(digits ? "is past the whole numbers the explorer reads" : "is not a whole number"),
                r.body());
    }

    static Stream<Arguments> maps() {
        List<Arguments> out = new ArrayList<>();
        for (int n : WORLDS) {
            for (String max : edges(1, 200_000)) {
                out.add(Arguments.of(n, max));
            }
            for (String max : List.of("", "20000", "1&max=3", "3&max=")) {
                out.add(Arguments.of(n, max));
            }
        }
        return out.stream();
    }

    /** The map: at most the clamped max points (20000 by default), all of them when fewer, the total kept. */
    @ParameterizedTest(name = "{0} entities: /api/map?max={1}")
    @MethodSource("maps")
    void shouldSampleTheMapWithinItsMax(int n, String value) throws Exception {
        Small w = world(n);
        HttpResponse<String> r = w.client.getTicking("/api/map?max=" + value.replace(" ", "%20"));
        assertEquals(200, r.statusCode(), r.body());
        String last = value.contains("&max=") ? value.substring(value.lastIndexOf("&max=") + 5) : value;
        long max = clamp(last, 1, 200_000, 20_000);
        assertEquals(Math.min(max, n), items(r.body(), "points"), r.body());
        assertTrue(r.body().contains("\"total\":" + n + ","), r.body());
    }

    static Stream<Arguments> ids() {
        List<Arguments> out = new ArrayList<>();
        for (String id : List.of("0", "1", "-1", "2", MAX, MIN, "0v0", "1v0", "0v1", "1v1", "2147483647v2147483647", "4294967295",
                "4294967296")) {
            out.add(Arguments.of("/api/entity?id=", id, 200));
            out.add(Arguments.of("/api/tree?parent=", id, 200));
            out.add(Arguments.of("/api/edits?entity=", id, 200));
        }
        for (String id : List.of("x", "-1v0", "1v-1", "2147483648v0", "1v2147483648", PAST_MAX, "1.0", "v1", "1v", "*")) {
            out.add(Arguments.of("/api/entity?id=", id, 400));
            out.add(Arguments.of("/api/tree?parent=", id, 400));
            out.add(Arguments.of("/api/edits?entity=", id, 400));
        }
        out.add(Arguments.of("/api/entity?id=", "", 400));
        out.add(Arguments.of("/api/tree?parent=", "", 200));
        out.add(Arguments.of("/api/edits?entity=", "", 200));
        return out.stream();
    }

    /**
     * An entity id as a client writes it: any long (or index v generation within an int each) is
     * looked up (alive only for a live entity's id); anything else is a 400 naming the parameter
     * and offering only what it takes (not a query's {@code *}).
     */
    @ParameterizedTest(name = "{0}{1}")
    @MethodSource("ids")
    void shouldLookUpAnyIdAndRefuseWhatIsNone(String path, String id, int status) throws Exception {
        Small w = world(1);
        HttpResponse<String> r = w.client.getTicking(path + enc(id));
        assertEquals(status, r.statusCode(), r.body());
        String param = path.substring(path.indexOf('?') + 1, path.length() - 1);
        if (status == 400) {
            assertTrue(r.body().contains(param), "names " + param + ": " + r.body());
            // '*' (any target) belongs to a query's pair term; offered here, where it is refused, it misleads
            assertFalse(r.body().contains("* for any target"), "offers only what " + param + " takes: " + r.body());
            return;
        }
        long parsed = id.isEmpty() ? 0 : QueryText.entityId(id, id);
        if (path.startsWith("/api/entity")) {
            boolean alive = parsed != 0 && w.world.isAlive(parsed); // the squad (1v1, 4294967296) and its unit
            assertTrue(r.body().contains("\"alive\":" + alive), id + " alive " + alive + ": " + r.body());
        } else if (path.startsWith("/api/tree")) {
            long expected = parsed == 0 ? 1 : parsed == w.squad ? w.n : 0; // the squad is the one root
            assertEquals(expected, items(r.body(), "nodes"), r.body());
        } else {
            assertEquals(0, items(r.body(), "list"), "no edits were made: " + r.body());
        }
    }

    static Stream<Arguments> histories() {
        List<Arguments> out = new ArrayList<>();
        for (String after : List.of("", "-1", "-2", MIN, "0", "1")) {
            out.add(Arguments.of("after", after, true));
            out.add(Arguments.of("afterSecond", after, true));
        }
        for (String after : List.of(MAX, Long.toString(Long.MAX_VALUE - 1), "4611686018427387904")) {
            out.add(Arguments.of("after", after, false));
            out.add(Arguments.of("afterSecond", after, false));
        }
        return out.stream();
    }

    /**
     * The charts' history after a sequence number: at most the kept rows from -1 (or below) on,
     * and nothing after a number no run reaches (the largest long once wrapped to "everything").
     */
    @ParameterizedTest(name = "/api/history?{0}={1}")
    @MethodSource("histories")
    void shouldAnswerTheHistoryAfterAnyNumber(String param, String after, boolean some) throws Exception {
        Small w = world(1);
        while (w.sim.currentTick() < 3) {
            Thread.sleep(10);
        }
        HttpResponse<String> r = w.client.getTicking("/api/history?" + param + "=" + enc(after));
        assertEquals(200, r.statusCode(), r.body());
        String part = param.equals("after") ? r.body().substring(r.body().indexOf("\"ticks\":"),
                r.body().indexOf("\"seconds\":")) : r.body().substring(r.body().indexOf("\"seconds\":"));
        long rows = items(part, param.equals("after") ? "tick" : "t");
        assertTrue(rows <= (param.equals("after") ? TickFigures.MAX_ROWS : SecondFigures.CAPACITY), part);
        if (!some) {
            assertEquals(0, rows, "nothing comes after " + after + ": " + part);
        } else if (param.equals("after")) {
            assertTrue(rows > 0 || !after.isEmpty() && Long.parseLong(after) >= 0, "ticked, so kept ticks: " + part);
        }
    }

    static Stream<Arguments> searches() {
        return Stream.of("", " ", "0", "1", "-1", MAX, MIN, PAST_MAX, "1v0", "-1v0", "2147483648v0", "P", "o", "%",
                "a".repeat(2000)).map(Arguments::of);
    }

    /** The search: any text gives a 200 with at most {@link Browse#MAX_RESULTS} results. */
    @ParameterizedTest(name = "/api/search?q={0}")
    @MethodSource("searches")
    void shouldSearchAnyTextWithinItsResults(String text) throws Exception {
        Small w = world(2 * CHUNK + 1);
        HttpResponse<String> r = w.client.getTicking("/api/search?q=" + enc(text));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(items(r.body(), "results") <= Browse.MAX_RESULTS, r.body());
    }

    /** The worlds are at the chunk edges they are meant to be at: /api/archetypes says so. */
    @ParameterizedTest(name = "{0} entities")
    @MethodSource("worlds")
    void shouldHoldTheWorldsAtTheirChunkEdges(int n) throws Exception {
        String body = world(n).client.getTicking("/api/archetypes").body();
        if (n > 0) {
            assertTrue(body.contains("\"rows\":" + n + ",\"chunks\":" + (n + CHUNK - 1) / CHUNK), body);
        } else {
            assertTrue(!body.contains("\"Pos\""), body);
        }
    }

    static Stream<Arguments> worlds() {
        return java.util.Arrays.stream(WORLDS).mapToObj(Arguments::of);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** How many elements the first JSON array under {@code "key":} holds (0 when there is none). */
    static long items(String json, String key) {
        int at = json.indexOf("\"" + key + "\":[");
        if (at < 0) {
            return 0;
        }
        int i = at + key.length() + 4;
        int depth = 0;
        long n = 0;
        boolean any = false;
        boolean inString = false;
        for (; i < json.length(); i++) {
            char c = json.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            if (c == '"') {
                inString = true;
                any = true;
            } else if (c == '[' || c == '{') {
                depth++;
                any = true;
            } else if (c == ']' || c == '}') {
                if (depth == 0) {
                    return any ? n + 1 : 0;
                }
                depth--;
            } else if (c == ',' && depth == 0) {
                n++;
            } else if (!Character.isWhitespace(c)) {
                any = true;
            }
        }
        throw new AssertionError("the array " + key + " does not end: " + json);
    }
}
