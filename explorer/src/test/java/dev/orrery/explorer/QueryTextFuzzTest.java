package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of the query tool: the text of {@code GET /api/query?q=} (any
 * string, as the query string's %-escapes decode it) parsed by {@link QueryText} and run by
 * {@link Browse#query} on a small world ({@link FuzzWorld}). Whatever the text, the only
 * outcomes are a page of JSON or a {@link QueryText.BadQuery} (answered 400) with a message;
 * never another exception. Text is bounded by what a request head holds
 * ({@link WebServer#MAX_HEAD}); the parser refuses more than 2000 characters itself.
 * {@code mvn verify} runs the committed corpus ({@code QueryTextFuzzTestInputs/parseQuery}); a
 * longer run is described in docs/design/engine-and-cluster.md.
 */
class QueryTextFuzzTest {

    @FuzzTest(maxDuration = "10m")
    void parseQuery(byte[] data) {
        if (data.length > WebServer.MAX_HEAD) {
            return; // a query string is part of a request head
        }
        String text = new String(data, StandardCharsets.UTF_8);
        FuzzWorld w = new FuzzWorld();
        Browse browse = new Browse();
        try {
            String page = browse.query(w.world, text, 0, 5);
            assertTrue(page.startsWith("{\"query\":") && page.endsWith("]}"), page);
            String again = browse.query(w.world, text, 1, 5); // the kept query, a second page
            assertTrue(again.startsWith("{\"query\":"), again);
        } catch (QueryText.BadQuery bad) {
            String m = bad.getMessage();
            assertTrue(m != null && !m.isBlank(), "a refusal says what is wrong");
            assertTrue(m.length() <= 2 * text.length() + 2000, "the message grows with the text: " + m.length());
        }
    }
}
