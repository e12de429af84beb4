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
 * A read-only iteration of a query ({@code forEachChunkReadOnly}, {@code forEachReadOnly}): the
 * same chunks and rows as {@code forEachChunk}/{@code forEach}, but no change tick taken, so the
 * change clock (which snapshots keep) and the query's own change mark stay as they were; every
 * write through its view is refused and leaves the world as it was.
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
        all.forEachChunkReadOnly(c -> rows[0] += c.size());
        all.forEachReadOnly((c, row) -> rows[0]++);
        w.query().changed(pos).build().forEachChunkReadOnly(c -> rows[0] += c.size());
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
        sparse.forEachReadOnly((c, row) -> looked.add(c.entity(row)));
        sparse.forEach((c, row) -> iterated.add(c.entity(row)));
        assertEquals(72, looked.size());
        assertEquals(iterated, looked);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> sparse.forEachChunkReadOnly(c -> { }));
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
        q.forEachChunkReadOnly(c -> rows[0] += c.size());
        return rows[0];
    }

    @Test
    void everyWriteThroughAReadOnlyViewIsRefusedNamingTheComponentAndLeavesTheWorldAsItWas() {
        World w = new World(1024);
        Component<Pos> pos = w.component(Pos.class);
        Component<Note> note = w.component(Note.class, Storage.SPARSE);
        Field x = pos.field("x");
        long e = w.spawn(new Pos(1, 2));
        w.add(e, note, new Note(3));
        Query q = w.query().with(pos).build();
        byte[] before = new WorldSnapshot().write(w);
        List<ChunkConsumer> bodies = List.of(
                c -> c.writeFloats(x),
                c -> c.set(pos, 0, new Pos(9, 9)),
                c -> c.set(note, 0, new Note(9)),
                c -> c.markChanged(pos),
                c -> c.markChanged(pos, 0),
                c -> c.markRows(pos));
        for (ChunkConsumer body : bodies) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> q.forEachChunkReadOnly(body));
            assertTrue(refused.getMessage().contains("in a read-only iteration is refused")
                    && refused.getMessage().contains("iterate with forEachChunk(...) or forEach(...) to write"),
                    refused.getMessage());
            assertTrue(refused.getMessage().contains("Pos") || refused.getMessage().contains("Note"), refused.getMessage());
            IllegalStateException each = assertThrows(IllegalStateException.class,
                    () -> q.forEachReadOnly((c, row) -> body.accept(c)));
            assertEquals(refused.getMessage(), each.getMessage());
        }
        assertArrayEquals(before, new WorldSnapshot().write(w), "nothing written, no tick taken");
        float[] read = new float[1];
        q.forEachChunkReadOnly(c -> read[0] = c.readFloats(x)[0]);
        assertEquals(1f, read[0], "reads pass");
        long spawned = w.spawn(new Pos(5, 5)); // the structure lock was released by each refusal
        assertTrue(w.isAlive(spawned));
        q.forEachChunk(c -> c.writeFloats(x)[0] = 4); // a plain iteration still writes
        assertEquals(4f, w.getFloat(e, x));
    }

    @Test
    void aNestedReadOnlyIterationOfTheSameQueryHasAViewOfItsOwn() {
        World w = new World(256); // small chunks: several of them
        Component<Pos> pos = w.component(Pos.class);
        for (int i = 0; i < 300; i++) {
            w.spawn(new Pos(i, 0));
        }
        Query q = w.query().with(pos).build();
        Field x = pos.field("x");
        double[] sums = {0, 0};
        q.forEachChunkReadOnly(outer -> {
            q.forEachChunkReadOnly(inner -> { });
            float[] xs = outer.readFloats(x); // still this chunk's, after the inner loop bound a view
            for (int i = 0; i < outer.size(); i++) {
                sums[0] += xs[i];
            }
        });
        q.forEachChunk(c -> {
            float[] xs = c.readFloats(x);
            for (int i = 0; i < c.size(); i++) {
                sums[1] += xs[i];
            }
        });
        assertEquals(sums[1], sums[0]);
        assertEquals(299 * 300 / 2.0, sums[0]);
    }

    @Test
    void aChangeFilteredReadOnlyIterationInsideAScheduledPhaseIsRefusedAndOneWithoutAFilterIsNot() {
        World w = ChangeTrackingTest.world(100);
        Component<ChangeTrackingTest.Pos> pos = w.component(ChangeTrackingTest.Pos.class);
        Query changed = w.query().changed(pos).build();
        Query all = w.query().with(pos).build();
        EcsInternals.changeClock(w).enterPhase("Update");
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> changed.forEachChunkReadOnly(c -> { }));
            assertTrue(e.getMessage().contains("iterated read-only during phase Update")
                    && e.getMessage().contains("between phases or runs"), e.getMessage());
            int[] rows = {0};
            all.forEachReadOnly((c, row) -> rows[0]++);
            assertEquals(100, rows[0]);
        } finally {
            EcsInternals.changeClock(w).exitPhase();
        }
        assertEquals(100, looked(changed), "between phases it runs");
    }
}
