package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The explorer chapter listed {@code GET /api/summary} as "tick, rate, tick-time percentiles,
 * per-system time, heap, state" and named none of its fields, so a newcomer found
 * {@code entities} only in an example. The chapter's JSON API section now lists every field; this
 * test reads a live summary's top-level fields and checks each is named there in backticks, so a
 * field added to the summary is added to the book too.
 */
class SummaryFieldsDocumentedTest {
    private static final Path CHAPTER = Path.of("..", "docs", "the-explorer.md");

    @Test
    void everyFieldOfALiveSummaryIsNamedInTheChaptersJsonApiSection() throws Exception {
        String chapter = Files.readString(CHAPTER);
        int at = chapter.indexOf("## The JSON API");
        assertTrue(at >= 0, CHAPTER + " has no 'The JSON API' section");
        String section = chapter.substring(at);
        int next = section.indexOf("\n## ", 4);
        section = next < 0 ? section : section.substring(0, next);
        try (Fixture f = new Fixture(100, 2, 0, (fx, o) -> o)) {
            f.start();
            HttpResponse<String> summary = f.client.getTicking("/api/summary");
            assertEquals(200, summary.statusCode(), summary.body());
            List<String> keys = topLevelKeys(summary.body());
            assertTrue(keys.contains("entities") && keys.contains("nextTick") && keys.size() > 20, keys.toString());
            List<String> missing = new ArrayList<>();
            for (String key : keys) {
                if (!section.contains("`" + key + "`")) {
                    missing.add(key);
                }
            }
            assertEquals(List.of(), missing, "fields of GET /api/summary that " + CHAPTER + "'s 'The JSON API' "
                    + "section does not name (in backticks): " + summary.body());
        }
    }

    /** The keys of a JSON object's own fields, in order, not those of the objects and arrays in it. */
    static List<String> topLevelKeys(String json) {
        List<String> keys = new ArrayList<>();
        int depth = 0;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c == '"') {
                int end = i + 1;
                while (json.charAt(end) != '"') {
                    end += json.charAt(end) == '\\' ? 2 : 1;
                }
                int after = end + 1;
                while (after < json.length() && Character.isWhitespace(json.charAt(after))) {
                    after++;
                }
                if (depth == 1 && after < json.length() && json.charAt(after) == ':') {
                    keys.add(json.substring(i + 1, end));
                }
                i = end;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        return keys;
    }
}
