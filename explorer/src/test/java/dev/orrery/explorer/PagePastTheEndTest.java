package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import org.junit.jupiter.api.Test;

/**
 * A newcomer paging through {@code /api/query} by hand asked for a page past the last one and got
 * 200 with no entities and no word: the answer now says which pages there are. Page 0 of a query
 * matching nothing stays quiet (nothing to page through).
 */
class PagePastTheEndTest {
    record Crate(int n) {
    }

    @Test
    void aPagePastTheLastOneSaysWhichPagesThereAre() {
        World world = new World();
        world.component(Crate.class);
        for (int i = 0; i < 12; i++) {
            world.spawn(new Crate(i));
        }
        Browse browse = new Browse();
        String past = browse.query(world, "Crate", 3, 5);
        assertTrue(past.contains("\"pages\":3"), past);
        assertTrue(past.contains("\"message\":\"page 3 is past the last page: the query's 12 entities fill pages 0 to 2"
                + " (5 a page); ask for page=0 to 2\""), past);
        String last = browse.query(world, "Crate", 2, 5);
        assertFalse(last.contains("\"message\""), last);
        World empty = new World();
        empty.component(Crate.class);
        String none = new Browse().query(empty, "Crate", 0, 5);
        assertFalse(none.contains("\"message\""), none);
    }
}
