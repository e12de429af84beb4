package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Looking changes nothing: the explorer's browse and query pages, and a map source that reads
 * with {@code forEachChunkReadOnly} as the chapter shows, read the world between ticks without
 * moving its change clock, which snapshots keep (the state hash does not). Two
 * identical simulations ticked alike, one looked at between every tick, end with the same
 * snapshot bytes; and a {@code changed(...)} query typed on the page still means "since the
 * explorer last ran it".
 */
class LookingChangesNothingTest {
    private static final int TICKS = 12;

    @Test
    void shouldLeaveTheSnapshotBytesAsTheyAreWhenTheExplorerBrowsesBetweenTicks() throws Exception {
        try (Fixture looked = new Fixture(300, 3, 0, (fx, o) -> o);
                Fixture alone = new Fixture(300, 3, 0, (fx, o) -> o)) {
            Browse browse = new Browse();
            for (int t = 0; t < TICKS; t++) {
                browse.archetypesJson(looked.world);
                browse.query(looked.world, "Pos, ?Health, ChildOf(*)", 0, 10); // a chunk loop
                browse.query(looked.world, "Marked", 0, 10); // a sparse filter: row by row
                browse.query(looked.world, "ChildOf(" + looked.squads[1] + ")", 1, 5); // a pair: row by row
                browse.query(looked.world, "changed(Pos)", 0, 10); // a change filter
                browse.systems(looked.sim);
                browse.search(looked.sim, "pos");
                browse.tree(looked.world, looked.squads[0], 0, 10);
                looked.map().sample(new MapPoints(1000, 0)); // the application's map, written as the chapter shows
                long a = looked.sim.tick();
                long b = alone.sim.tick();
                assertEquals(b, a, "the state hash after tick " + t);
            }
            assertArrayEquals(alone.sim.snapshot(), looked.sim.snapshot(),
                    "a world the explorer looked at snapshots as one it did not");
        }
    }

    @Test
    void shouldStillShowWhatChangedSinceTheExplorerLastRanAChangedQuery() throws Exception {
        try (Fixture f = new Fixture(300, 3, 0, (fx, o) -> o)) {
            Browse browse = new Browse();
            f.sim.tick();
            assertTrue(browse.query(f.world, "changed(Pos)", 0, 10).contains("\"count\":300,"),
                    "first look: every chunk of Pos is new to the query");
            assertTrue(browse.query(f.world, "changed(Pos)", 0, 10).contains("\"count\":0,"),
                    "again before a tick: nothing changed since");
            f.sim.tick(); // "move" writes every Pos
            assertTrue(browse.query(f.world, "changed(Pos)", 0, 10).contains("\"count\":300,"),
                    "after a tick: the move system's writes");
            assertTrue(browse.query(f.world, "changed(Health)", 0, 10).contains("\"count\":100,"),
                    "a query first run sees every chunk");
            f.sim.tick(); // "heal" reads Health and writes nothing
            assertTrue(browse.query(f.world, "changed(Health)", 0, 10).contains("\"count\":0,"),
                    "a column nothing wrote: nothing changed");
            f.world.set(f.units[0], f.health, new Fixture.Health(50)); // a direct write between ticks
            assertTrue(browse.query(f.world, "changed(Health)", 0, 10).contains("\"count\":100,"),
                    "a direct write between ticks: its chunk");
        }
    }
}
