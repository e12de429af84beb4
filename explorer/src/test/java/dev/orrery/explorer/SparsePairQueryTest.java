package dev.orrery.explorer;

import static dev.orrery.explorer.Client.enc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The query tool and the entity page where a sparse column meets a ChildOf pair: terms that
 * mix them count the right rows, a page shows the sparse values beside the pair's target, an
 * entity holding both lists both, and a change filter on a sparse column is refused naming it.
 */
class SparsePairQueryTest {

    @Test
    void shouldMixSparseAndPairTermsInOneQuery() throws Exception {
        try (Fixture f = new Fixture(1000, 4, 0, (fx, o) -> o).start()) {
            Client c = f.client;
            // unit i: Marked when i % 10 == 0, Health when i % 3 == 0, ChildOf squads[i % 4]
            assertEquals(50, c.queryCount("Marked, ChildOf(" + f.squads[2] + ")"), "marked children of squad 2");
            assertEquals(0, c.queryCount("Marked, ChildOf(" + f.squads[1] + ")"), "no marked unit is in squad 1");
            assertEquals(200, c.queryCount("!Marked, ChildOf(" + f.squads[0] + ")"));
            assertEquals(34, c.queryCount("Marked, Health, ChildOf(*)"));
            assertEquals(400, c.queryCount("Marked || Health"));
            assertEquals(4, c.queryCount("!ChildOf(*), !Marked"), "the squads");

            String page = c.getTicking("/api/query?size=50&q=" + enc("Marked, ChildOf(" + f.squads[2] + ")")).body();
            assertTrue(page.contains("{\"name\":\"Marked\",\"fields\":[\"level\"]}"), page);
            assertTrue(page.contains("\"id\":" + f.units[10] + ","), "unit 10 is a marked child of squad 2: " + page);
            assertTrue(page.contains("[\"10\"]"), "its Marked level: " + page);
            assertTrue(page.contains("\"ref\":" + f.squads[2]), "the pair's target is a link: " + page);
        }
    }

    @Test
    void shouldShowAnEntityWithASparseColumnAndAPair() throws Exception {
        try (Fixture f = new Fixture(100, 4, 0, (fx, o) -> o).start()) {
            String e = f.client.getTicking("/api/entity?id=" + f.units[10]).body();
            assertTrue(e.contains("\"name\":\"Marked\""), e);
            assertTrue(e.contains("\"sparse\":true"), e);
            assertTrue(e.contains("\"name\":\"ChildOf\""), e);
            assertTrue(e.contains(String.valueOf(f.squads[2])), "its parent: " + e);
            String parent = f.client.getTicking("/api/entity?id=" + f.squads[2]).body();
            assertTrue(parent.contains(String.valueOf(f.units[10])), "the parent lists its child: " + parent);
        }
    }

    @Test
    void shouldRefuseAChangeFilterOnASparseColumnNamingIt() throws Exception {
        try (Fixture f = new Fixture(100, 4, 0, (fx, o) -> o).start()) {
            for (String q : new String[] {"changed(Marked)", "Pos, added(Marked)"}) {
                HttpResponse<String> r = f.client.getTicking("/api/query?q=" + enc(q));
                assertEquals(400, r.statusCode(), q + ": " + r.body());
                assertTrue(r.body().contains("Marked"), q + ": " + r.body());
            }
        }
    }
}
