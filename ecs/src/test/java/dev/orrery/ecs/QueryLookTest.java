package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.ecs.internal.EcsInternals;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A read-only look at a query ({@code EcsInternals.lookChunks}, {@code lookEach}): the same
 * chunks and rows as {@code forEachChunk}/{@code forEach}, but no change tick taken, so the
 * change clock (which snapshots keep) and the query's own change mark stay as they were.
 */
class QueryLookTest {
    record Pos(float x, float y) {
    }

    record Note(int n) {
    }

    @Test
    void aLookTakesNoTickAndLeavesTheSnapshotAsItWas() {
        World w = ChangeTrackingTest.world(1000);
        Component<ChangeTrackingTest.Pos> pos = w.component(ChangeTrackingTest.Pos.class);
        Query all = w.query().with(pos).build();
        byte[] before = new WorldSnapshot().write(w);
        long clock = EcsInternals.changeClock(w).now();
        int[] rows = {0};
        EcsInternals.lookChunks(all, c -> rows[0] += c.size());
        EcsInternals.lookEach(all, (c, row) -> rows[0]++);
        EcsInternals.lookChunks(w.query().changed(pos).build(), c -> rows[0] += c.size());
        assertEquals(3000, rows[0], "every row, by chunk, by row, and through a change filter first looked at");
        assertEquals(clock, EcsInternals.changeClock(w).now(), "no tick taken");
        assertArrayEquals(before, new WorldSnapshot().write(w), "the snapshot is the same after looking");
        all.forEachChunk(c -> { });
        assertEquals(clock + 1, EcsInternals.changeClock(w).now(), "a direct iteration takes one, as before");
    }

    @Test
    void aLookVisitsWhatTheLoopVisitsInTheSameOrder() {
        World w = new World(1024);
        Component<Pos> pos = w.component(Pos.class);
        Component<Note> note = w.component(Note.class, Storage.SPARSE);
        for (int i = 0; i < 500; i++) {
            long e = w.spawn(new Pos(i, 0));
            if (i % 7 == 0) {
                w.add(e, note, new Note(i));
            }
        }
        Query sparse = w.query().with(pos, note).build();
        List<Long> looked = new ArrayList<>();
        List<Long> iterated = new ArrayList<>();
        EcsInternals.lookEach(sparse, (c, row) -> looked.add(c.entity(row)));
        sparse.forEach((c, row) -> iterated.add(c.entity(row)));
        assertEquals(72, looked.size());
        assertEquals(iterated, looked);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EcsInternals.lookChunks(sparse, c -> { }));
        assertTrue(e.getMessage().contains("filters by sparse column Note, which a chunk loop cannot do"), e.getMessage());
    }

    @Test
    void aLookedAtChangeFilterShowsWhatChangedSinceTheLastLookAndLeavesTheQuerysOwnMark() {
        World w = ChangeTrackingTest.world(1000);
        Component<ChangeTrackingTest.Pos> pos = w.component(ChangeTrackingTest.Pos.class);
        Field x = pos.field("x");
        Query changed = w.query().changed(pos).build();
        Archetype a = w.archetypeOf(w.query().with(pos).build().archetypes().get(0).chunk(0).entity(0));
        Query other = w.query().with(pos).build();
        assertEquals(1000, looked(changed), "first look: every row is new");
        assertEquals(1000, looked(changed), "the spawns stamped the clock's tick, which a look does not move: "
                + "they may have changed since (conservative, never a miss)");
        other.forEachChunk(c -> { }); // the clock moves on (as a tick moves it)
        assertEquals(1000, looked(changed), "the look before did not pass the spawns' tick");
        assertEquals(0, looked(changed), "nothing written since");
        w.setFloat(a.chunk(2).entity(5), x, 42);
        assertEquals(a.chunk(2).size(), looked(changed), "a by-id write after a look: its chunk");
        other.forEachChunk(c -> { });
        w.setFloat(a.chunk(3).entity(1), x, 7);
        assertEquals(a.chunk(2).size() + a.chunk(3).size(), looked(changed), "the write before the last look "
                + "(at the tick it was at) and the one since");
        other.forEachChunk(c -> { });
        assertEquals(a.chunk(3).size(), looked(changed), "the write at the tick the last look was at");
        assertEquals(0, looked(changed));
        assertEquals(1000, ChangeTrackingTest.visited(changed), "the query's own first iteration: looks moved no mark");
        assertEquals(0, ChangeTrackingTest.visited(changed));
        w.setFloat(a.chunk(4).entity(0), x, 1);
        assertEquals(a.chunk(4).size(), ChangeTrackingTest.visited(changed), "iterations see writes as before");
    }

    private static int looked(Query q) {
        int[] rows = {0};
        EcsInternals.lookChunks(q, c -> rows[0] += c.size());
        return rows[0];
    }
}
