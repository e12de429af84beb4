package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A newcomer follows the explorer chapter's "The JSON API" list literally on a small ticking
 * world: every address it names answers (none with a 500), with the status the chapter gives
 * (404 for the map and the past without a map source or a recording, 403 for an edit while edits
 * are off), {@code GET /api} lists exactly the chapter's addresses, and the answers the chapter
 * shows as examples ({@code /api/query}, {@code /api/edits}) have the fields it shows, in its order.
 */
class NewcomerApiTest {
    private static final Path CHAPTER = Path.of("..", "docs", "the-explorer.md");
    private static final Pattern LINE = Pattern.compile("(?m)^(GET|POST) +(/api/[^ ]+)");

    @Test
    void everyAddressTheChapterNamesAnswersAsTheChapterSays() throws Exception {
        String chapter = Files.readString(CHAPTER);
        String section = chapter.substring(chapter.indexOf("## The JSON API"));
        try (Fixture f = new Fixture(30, 2, 0, (fx, o) -> o).start()) {
            assertEquals(200, f.client.getTicking("/api/summary").statusCode());
            String api = f.client.getOk("/api");
            List<String> listed = new ArrayList<>();
            Matcher m = LINE.matcher(section);
            while (m.find()) {
                String path = m.group(2);
                String bare = path.replaceAll("\\?.*", "").replace("/...", "/");
                listed.add(bare);
                assertTrue(api.contains(bare), "GET /api does not list " + bare + ", which the chapter names: " + api);
                if (m.group(1).equals("POST")) {
                    HttpResponse<String> edit = f.client.edit("entity=" + f.units[3]
                            + "&component=Health&field=hp&value=5");
                    assertEquals(403, edit.statusCode(), edit.body());
                    assertTrue(edit.body().contains("edits are off") && edit.body().contains("withEdits"), edit.body());
                    continue;
                }
                if (bare.equals("/api/stream")) {
                    assertTrue(firstEvent(f).contains("\"tick\":"), "the stream's first event carries the summary");
                    continue;
                }
                String concrete = path.replace("q=Q", "q=Pos").replace("page=P", "page=0")
                        .replace("parent=ID", "parent=" + f.squads[0]).replace("q=TEXT", "q=Squad")
                        .replace("id=N", "id=" + f.units[3]).replace("entity=N", "entity=" + f.units[3])
                        .replace("max=N", "max=5").replace("/...", "/entity?tick=0&id=" + f.units[3]);
                HttpResponse<String> r = f.client.getTicking(concrete);
                int expected = bare.equals("/api/map") || bare.startsWith("/api/past/") ? 404 : 200;
                assertEquals(expected, r.statusCode(), concrete + ": " + r.body());
            }
            assertTrue(listed.size() >= 18, "the chapter's list as read: " + listed);
            // The API's own list names no address the chapter leaves out.
            Matcher own = Pattern.compile("/api/[a-z/]+").matcher(api);
            while (own.find()) {
                String bare = own.group();
                assertTrue(listed.stream().anyMatch(bare::startsWith), bare + " is served but not in the chapter");
            }

            assertEquals(keysOf(example(chapter, "{\"tick\":941,\"query\"")),
                    SummaryFieldsDocumentedTest.topLevelKeys(f.client.getOk("/api/query?q=Pos%2C%20%3FHealth&size=2")),
                    "GET /api/query's fields, in the chapter's order");
            assertEquals(keysOf(example(chapter, "{\"edits\":true,\"list\"")),
                    SummaryFieldsDocumentedTest.topLevelKeys(f.client.getOk("/api/edits")),
                    "GET /api/edits's fields, in the chapter's order");
            assertEquals(List.of("token", "header", "edits", "map"),
                    SummaryFieldsDocumentedTest.topLevelKeys(f.client.getOk("/api/session")),
                    "the session token, and what is on (edits, map)");
        }
    }

    /** The chapter's JSON example that starts with {@code start}, up to its closing fence. */
    private static String example(String chapter, String start) {
        int at = chapter.indexOf(start);
        assertTrue(at >= 0, "the chapter has no example starting " + start);
        return chapter.substring(at, chapter.indexOf("```", at));
    }

    private static List<String> keysOf(String json) {
        return SummaryFieldsDocumentedTest.topLevelKeys(json.strip());
    }

    /** The first {@code data:} line of the event stream. */
    private static String firstEvent(Fixture f) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<Stream<String>> r = http.send(HttpRequest.newBuilder(f.client.uri("/api/stream"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, r.statusCode());
        assertEquals(Optional.of("text/event-stream"), r.headers().firstValue("Content-Type").map(
                t -> t.replaceAll(";.*", "")));
        try (Stream<String> lines = r.body()) {
            return lines.filter(l -> l.startsWith("data: ")).findFirst().orElse("");
        }
    }
}
