package dev.orrery.explorer;

import static dev.orrery.explorer.Client.enc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Entity;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * Finding and browsing through the API: the query tool's terms (with, without, optional,
 * any, changed, pairs) give the right counts, archetypes and pages; the tree opens a level
 * at a time; search finds ids and names; the systems table says what each system matches.
 */
class BrowseTest {

    @Test
    void shouldAnswerQueriesWithTheRightCountsArchetypesAndPages() throws Exception {
        try (Fixture f = new Fixture(1000, 4, 0, (fx, o) -> o).start()) {
            Client c = f.client;
            // 1000 units: every third has Health (334); all hold ChildOf a squad (250 each)
            assertEquals(1000, c.queryCount("Pos"));
            assertEquals(334, c.queryCount("Pos, Health"));
            assertEquals(666, c.queryCount("Pos, !Health"));
            assertEquals(1000, c.queryCount("Pos, ?Health"), "an optional term filters nothing");
            assertEquals(1004, c.queryCount("Pos || Squad"));
            assertEquals(100, c.queryCount("Marked"), "a sparse column filters row by row");
            assertEquals(250, c.queryCount("ChildOf(" + f.squads[2] + ")"), "the children of one squad");
            assertEquals(250, c.queryCount("childof(" + Entity.toString(f.squads[2]) + ")"),
                    "a relation's name in any case, an id as index v generation");
            assertEquals(1000, c.queryCount("ChildOf(*)"));
            assertEquals(4, c.queryCount("!ChildOf(*), Squad"), "the roots");
            assertEquals(1000, c.queryCount("pos"), "a unique name matches in any case");

            String page = c.getTicking("/api/query?q=" + enc("Pos, ?Health, ChildOf(*)") + "&page=1&size=10").body();
            assertTrue(page.contains("\"page\":1,\"size\":10,\"pages\":100"), page);
            assertTrue(page.contains("\"archetypes\":[{\"columns\":[\"Pos\",\"Vel\",\"Health\",\"ChildOf\"],"
                    + "\"rows\":334},{\"columns\":[\"Pos\",\"Vel\",\"ChildOf\"],\"rows\":666}]"), page);
            assertTrue(page.contains("\"columns\":[{\"name\":\"Pos\",\"fields\":[\"x\",\"y\"]},{\"name\":\"Health\","
                    + "\"fields\":[\"hp\"]},{\"name\":\"ChildOf\",\"fields\":[\"target\"]}]"), page);
            assertEquals(10, page.split("\"id\":").length - 1, "a page of ten: " + page);
            assertTrue(page.contains("{\"v\":\"" + f.squads[0] + "\",\"ref\":" + f.squads[0] + "}")
                    || page.contains("\"ref\":" + f.squads[1]), "a pair's target is a link: " + page);

            String changed = c.getTicking("/api/query?q=" + enc("changed(Pos)")).body();
            assertTrue(changed.contains("\"changeFiltered\":true"), changed);

            HttpResponse<String> bad = c.getTicking("/api/query?q=" + enc("Pso, !Health"));
            assertEquals(400, bad.statusCode());
            assertTrue(bad.body().contains("no component named 'Pso' (did you mean Pos?)"), bad.body());
            assertEquals(400, c.getTicking("/api/query?q=" + enc("!ChildOf(" + f.squads[0] + ")")).statusCode());
            assertEquals(400, c.getTicking("/api/query?q=" + enc("Nothing(1)")).statusCode());
            assertEquals(400, c.getTicking("/api/query?q=").statusCode());
        }
    }

    @Test
    void shouldOpenTheTreeALevelAtATimeAndFindByIdAndName() throws Exception {
        try (Fixture f = new Fixture(100, 4, 0, (fx, o) -> o).start()) {
            Client c = f.client;
            String roots = c.getTicking("/api/tree").body();
            assertTrue(roots.contains("\"parent\":null,\"count\":4"), roots);
            assertTrue(roots.contains("{\"id\":" + f.squads[0] + ",\"text\":\"" + Entity.toString(f.squads[0])
                    + "\",\"label\":\"Squad\",\"children\":25}"), roots);
            String children = c.getTicking("/api/tree?parent=" + f.squads[1] + "&size=10&page=2").body();
            assertTrue(children.contains("\"count\":25,\"page\":2,\"size\":10"), children);
            assertEquals(5, children.split("\"id\":").length - 1, "the last page holds five: " + children);
            assertTrue(children.contains("\"label\":\"Pos, Vel"), children);

            String byId = c.getTicking("/api/search?q=" + f.units[7]).body();
            assertTrue(byId.contains("{\"kind\":\"entity\",\"name\":\"" + Entity.toString(f.units[7]) + " ("
                    + f.units[7] + ")\",\"detail\":\"Pos, Vel\",\"link\":\"#/entity/" + f.units[7] + "\"}"), byId);
            String byName = c.getTicking("/api/search?q=heal").body();
            assertTrue(byName.contains("{\"kind\":\"component\",\"name\":\"Health\",\"detail\":\"34 entities\","
                    + "\"link\":\"#/query?q=Health\"}"), byName);
            assertTrue(byName.contains("{\"kind\":\"system\",\"name\":\"heal\""), byName);
            String relation = c.getTicking("/api/search?q=child").body();
            assertTrue(relation.contains("\"kind\":\"relation\",\"name\":\"ChildOf\""), relation);
            String resource = c.getTicking("/api/search?q=clock").body();
            assertTrue(resource.contains("{\"kind\":\"resource\",\"name\":\"Clock\""), resource);
        }
    }

    @Test
    void shouldListTheSystemsWithWhatTheyMatchAndTheirTime() throws Exception {
        try (Fixture f = new Fixture(300, 1, 0, (fx, o) -> o).start()) {
            Client c = f.client;
            String summary = c.getTicking("/api/summary").body();
            assertEquals(1, summary.split("\"entities\":").length - 1, "one entity count in the summary: " + summary);
            long until = System.nanoTime() + 30_000_000_000L;
            String systems = c.getTicking("/api/systems").body();
            while (systems.contains("\"meanMs\":null") && System.nanoTime() < until) {
                Thread.sleep(100);
                systems = c.getTicking("/api/systems").body();
            }
            assertTrue(systems.contains("{\"index\":0,\"name\":\"move\",\"phase\":\"Update\",\"kind\":\"chunk\","
                    + "\"syncBefore\":false,\"entities\":300,\"archetypes\":2,"), systems);
            assertTrue(systems.contains("\"name\":\"heal\",\"phase\":\"Update\",\"kind\":\"chunk\","
                    + "\"syncBefore\":false,\"entities\":100,\"archetypes\":1,"), systems);
            assertTrue(systems.contains("\"meanMs\":") && !systems.contains("\"meanMs\":null"), systems);
        }
    }
}
