package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The timeline's parameters ({@code /api/past/entity}, {@code /api/past/query},
 * {@code /api/past/diff}) at their edges, over a recording of {@value #TICKS} ticks (it holds the
 * world after ticks -1, its start, to {@value #TICKS} - 1): a tick in it is a 200 of that tick; a
 * whole number outside it, down to the most negative long and up to the largest, is a 404 saying
 * where the recording starts or ends; no tick, or one that is no whole number, a 400 naming the
 * parameter, as does no entity id; the page and size of a past query are clamped as the live query's are.
 */
class PastParameterEdgesTest {
    static final int TICKS = 30;
    static final String MAX = Long.toString(Long.MAX_VALUE);
    static final String MIN = Long.toString(Long.MIN_VALUE);

    @TempDir
    static Path dir;
    static Simulation sim;
    static Explorer explorer;
    static Client client;
    static long first;

    @BeforeAll
    static void record() throws Exception {
        World world = new World();
        sim = TimelineTest.build(world, true);
        first = Fixture.firstEntity(world);
        RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder());
        sim.run(TICKS, 0, null);
        recorder.close();
        explorer = Explorer.attach(sim, ExplorerOptions.loopback(0)
                .withTimeline(Timeline.ofRecording(dir, () -> TimelineTest.build(new World(), false))));
        client = new Client(explorer);
    }

    @AfterAll
    static void close() {
        explorer.close();
        sim.close();
    }

    /** Each tick value, and what it gives: 200, 404 before or after the recording, or 400. */
    static Stream<Arguments> ticks() {
        List<Arguments> out = new ArrayList<>();
        Object[][] table = {
            {"-1", 200, "\"{p}\":-1"}, {"0", 200, "\"{p}\":0"}, {"1", 200, "\"{p}\":1"},
            {Integer.toString(TICKS - 1), 200, "\"{p}\":" + (TICKS - 1)},
            {"-2", 404, "before the recording"}, {"-3", 404, "before the recording"},
            {MIN, 404, "before the recording"}, {Long.toString(Long.MIN_VALUE + 1), 404, "before the recording"},
            {Integer.toString(TICKS), 404, "ticks up to " + (TICKS - 1)},
            {MAX, 404, "not in the recording"}, {Long.toString(Long.MAX_VALUE - 1), 404, "not in the recording"},
            {"", 400, "give {p}=TICK"}, {"x", 400, "{p}=x is not a whole number"},
            {"9223372036854775808", 400, "a tick of the recording"}, {"1.0", 400, "a tick of the recording"},
        };
        for (Object[] row : table) {
            out.add(Arguments.of("/api/past/entity?id=" + first + "&tick=", "tick", row[0], row[1], row[2]));
            out.add(Arguments.of("/api/past/query?q=Counter&tick=", "tick", row[0], row[1], row[2]));
            out.add(Arguments.of("/api/past/diff?id=" + first + "&to=5&from=", "from", row[0], row[1], row[2]));
            out.add(Arguments.of("/api/past/diff?q=Counter&from=5&to=", "to", row[0], row[1], row[2]));
        }
        out.add(Arguments.of("/api/past/entity?id=" + first + "&nothing=", "tick", "", 400, "give tick=TICK"));
        out.add(Arguments.of("/api/past/diff?from=1&to=2&nothing=", "id", "", 400, "needs id=ENTITY or q=QUERY"));
        // no id, or a blank one, is named rather than read as entity 0 (an answer about 0v0, dead)
        out.add(Arguments.of("/api/past/entity?tick=3&nothing=", "id", "", 400, "give id=ENTITY"));
        out.add(Arguments.of("/api/past/entity?tick=3&id=", "id", "", 400, "give id=ENTITY"));
        out.add(Arguments.of("/api/past/entity?tick=3&id=", "id", "%20", 400, "give id=ENTITY"));
        out.add(Arguments.of("/api/past/diff?from=1&to=2&id=", "id", "", 400, "give id=ENTITY"));
        return out.stream();
    }

    @ParameterizedTest(name = "{0}{2}")
    @MethodSource("ticks")
    void shouldAnswerEveryTickAsTheRecordingHoldsIt(String path, String param, String value, int status,
            String says) throws Exception {
        HttpResponse<String> r = client.get(path + value);
        assertEquals(status, r.statusCode(), r.body());
        String expected = says.replace("{p}", param);
        assertTrue(r.body().contains(expected), "'" + expected + "' not in: " + r.body());
    }

    static Stream<Arguments> pages() {
        List<Arguments> out = new ArrayList<>();
        for (String size : ParameterEdgesTest.edges(1, Browse.MAX_PAGE)) {
            out.add(Arguments.of("size", size));
        }
        for (String page : ParameterEdgesTest.edges(0, 1_000_000)) {
            out.add(Arguments.of("page", page));
        }
        out.add(Arguments.of("size", ""));
        out.add(Arguments.of("page", ""));
        return out.stream();
    }

    /** A past query's page: as many of its 20 entities as the clamped size and page leave, the clamped values echoed. */
    @ParameterizedTest(name = "/api/past/query?{0}={1}")
    @MethodSource("pages")
    void shouldAnswerAPastPageWithinItsBounds(String param, String value) throws Exception {
        HttpResponse<String> r = client.get("/api/past/query?q=Counter&tick=3&" + param + "="
                + ParameterEdgesTest.enc(value));
        assertEquals(200, r.statusCode(), r.body());
        long size = param.equals("size") ? ParameterEdgesTest.clamp(value, 1, Browse.MAX_PAGE, 50) : 50;
        long page = param.equals("page") ? ParameterEdgesTest.clamp(value, 0, 1_000_000, 0) : 0;
        assertEquals(Math.max(0, Math.min(size, 20 - page * size)), ParameterEdgesTest.items(r.body(), "entities"),
                r.body());
        assertTrue(r.body().contains("\"page\":" + page + ",\"size\":" + size + ","), r.body());
    }

    static Stream<Arguments> ids() {
        return Stream.of("0", "1", "-1", MAX, MIN, "0v0", "2147483647v2147483647", "4294967296").map(Arguments::of);
    }

    /** A past entity or diff of any id: a 200, alive only for an entity of the recording. */
    @ParameterizedTest(name = "id={0}")
    @MethodSource("ids")
    void shouldLookUpAnyIdInThePast(String id) throws Exception {
        long parsed = QueryText.entityId(id, id);
        HttpResponse<String> r = client.get("/api/past/entity?tick=3&id=" + ParameterEdgesTest.enc(id));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"alive\":" + (parsed == first || sim.world().isAlive(parsed))), r.body());
        HttpResponse<String> diff = client.get("/api/past/diff?from=-1&to=" + (TICKS - 1) + "&id="
                + ParameterEdgesTest.enc(id));
        assertEquals(200, diff.statusCode(), diff.body());
    }
}
