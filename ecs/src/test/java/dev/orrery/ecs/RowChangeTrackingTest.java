package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Per-row change versions ({@code World.trackRowChanges}): exact rows, moves, snapshots. */
class RowChangeTrackingTest {
    record Pos(float x, float y) {
    }

    record Tag() {
    }

    /** A world of {@code n} entities over several small chunks, Pos tracked per row. */
    static World world(int n) {
        World w = new World(1024);
        w.trackRowChanges(w.component(Pos.class));
        for (int i = 0; i < n; i++) {
            w.spawn(new Pos(i, 0));
        }
        return w;
    }

    /** The entities whose pos rows a changed(pos) query visits through firstChanged/nextChanged, in visit order. */
    static List<Long> changedRows(Query q, Component<?> pos) {
        List<Long> seen = new ArrayList<>();
        q.forEachChunk(c -> {
            for (int i = c.firstChanged(pos); i >= 0; i = c.nextChanged(i + 1)) {
                seen.add(c.entity(i));
            }
        });
        return seen;
    }

    static Archetype archetype(World w, Component<?> pos) {
        return w.query().with(pos).build().archetypes().get(0);
    }

    @Test
    void preciseMarkingYieldsExactlyTheMarkedRows() {
        World w = world(1000);
        Component<Pos> pos = w.component(Pos.class);
        Field x = pos.field("x");
        Archetype a = archetype(w, pos);
        assertTrue(a.chunkCount() > 4, "the test needs several chunks: " + a.chunkCount());
        Query changed = w.query().changed(pos).build();
        assertEquals(1000, changedRows(changed, pos).size(), "first run: every row arrived since");
        assertEquals(List.of(), changedRows(changed, pos));
        Set<Long> expected = new TreeSet<>();
        long byId = a.chunk(2).entity(5);
        w.setFloat(byId, x, 42); // a by-id write marks its row
        expected.add(byId);
        w.query().with(pos).build().forEachChunk(c -> { // every 7th row, marked one by one
            c.markRows(pos);
            float[] px = c.writeFloats(x);
            for (int i = 3; i < c.size(); i += 7) {
                px[i] += 1;
                c.markChanged(pos, i);
                expected.add(c.entity(i));
            }
        });
        List<Long> seen = changedRows(changed, pos);
        assertEquals(expected, new TreeSet<>(seen));
        assertEquals(expected.size(), seen.size(), "each row once");
        assertEquals(List.of(), changedRows(changed, pos));
    }

    @Test
    void aWriteAccessorWithoutMarkRowsStampsEveryRowOfItsChunk() {
        World w = world(600);
        Component<Pos> pos = w.component(Pos.class);
        Query changed = w.query().changed(pos).build();
        changedRows(changed, pos);
        Archetype a = archetype(w, pos);
        long first = a.chunk(1).entity(0);
        w.query().with(pos).build().forEachChunk(c -> {
            if (c.entity(0) == first) {
                c.writeFloats(pos.field("x"))[7] = 1; // may have written any row
            }
        });
        assertEquals(a.chunk(1).size(), changedRows(changed, pos).size());
    }

    @Test
    void rowVersionsFollowSwapRemoveAndMoves() {
        World w = world(500);
        Component<Pos> pos = w.component(Pos.class);
        Component<Tag> tag = w.component(Tag.class);
        Query changed = w.query().with(pos).changed(pos).build();
        changedRows(changed, pos);
        Archetype a = archetype(w, pos);
        int lastChunk = a.chunkCount() - 1;
        long last = a.chunk(lastChunk).entity(a.chunk(lastChunk).size() - 1);
        long other = a.chunk(1).entity(4);
        w.setFloat(last, pos.field("x"), 7);
        w.setFloat(other, pos.field("x"), 8);
        w.despawn(a.chunk(0).entity(0)); // the last row fills the hole in chunk 0
        w.despawn(a.chunk(1).entity(9)); // and another row fills a hole in chunk 1
        assertEquals(Set.of(last, other), new TreeSet<>(changedRows(changed, pos)),
                "written rows pass after swap-remove moved them, the rows they displaced do not");
        long moved = a.chunk(2).entity(3);
        w.add(moved, tag); // a move to another archetype is an arrival: changed there
        assertEquals(List.of(moved), changedRows(changed, pos));
        w.setFloat(other, pos.field("x"), 9);
        w.sortRows(a, (chunk, row) -> -(long) ((float[]) chunk.array(0, 0))[row]); // reverses the rows
        assertEquals(List.of(other), changedRows(changed, pos), "a permutation carries the versions with the rows");
    }

    @Test
    void rowVersionsSurviveASnapshotAndARestoredWorldFiltersAlike() {
        World w = world(700);
        Component<Pos> pos = w.component(Pos.class);
        Query q = w.query().changed(pos).build();
        changedRows(q, pos);
        Archetype a = archetype(w, pos);
        w.setFloat(a.chunk(1).entity(3), pos.field("x"), 3);
        w.setFloat(a.chunk(3).entity(8), pos.field("x"), 4);
        byte[] bytes = new WorldSnapshot().write(w);

        World r = new World(1024);
        r.trackRowChanges(r.component(Pos.class));
        new WorldSnapshot().read(bytes, r);
        Archetype b = archetype(r, r.component(Pos.class));
        for (int c = 0; c < a.chunkCount(); c++) {
            for (int i = 0; i < a.chunk(c).size(); i++) {
                assertEquals(a.chunk(c).rowVersion(0, i), b.chunk(c).rowVersion(0, i), "chunk " + c + " row " + i);
            }
        }
        long since = q.lastRun();
        List<Long> original = new ArrayList<>();
        List<Long> restored = new ArrayList<>();
        for (int c = 0; c < a.chunkCount(); c++) {
            for (int i = 0; i < a.chunk(c).size(); i++) {
                if (a.chunk(c).rowVersion(0, i) > since) {
                    original.add(a.chunk(c).entity(i));
                }
                if (b.chunk(c).rowVersion(0, i) > since) {
                    restored.add(b.chunk(c).entity(i));
                }
            }
        }
        assertEquals(2, original.size());
        assertEquals(original, restored);

        World untracked = new World(1024);
        untracked.component(Pos.class);
        assertThrows(RuntimeException.class, () -> new WorldSnapshot().read(bytes, untracked),
                "a snapshot with row versions needs the restoring world to track them");
    }

    @Test
    void trackingIsRefusedOnceAnEntityHoldsTheColumn() {
        World w = new World();
        Component<Tag> tag = w.component(Tag.class);
        w.spawn(new Tag());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.trackRowChanges(tag));
        assertTrue(e.getMessage().contains("set-up"), e.getMessage());
    }

    @Test
    void anUntrackedColumnAnswersPerChunk() {
        World w = new World(1024);
        Component<Pos> pos = w.component(Pos.class);
        for (int i = 0; i < 300; i++) {
            w.spawn(new Pos(i, 0));
        }
        Query q = w.query().changed(pos).build();
        changedRows(q, pos);
        Archetype a = archetype(w, pos);
        w.setFloat(a.chunk(1).entity(2), pos.field("x"), 1);
        assertEquals(a.chunk(1).size(), changedRows(q, pos).size());
        ChunkView v = new ChunkView().bind(a.chunk(1));
        assertTrue(v.changed(pos, 0));
    }

    @Test
    void shouldTrackAColumnThatAPreparedShapeAlreadyHolds() {
        World w = new World(1024);
        Component<Pos> pos = w.component(Pos.class);
        Field x = pos.field("x");
        Shape shape = w.shape(pos);
        shape.reserve(300); // chunks made before tracking starts
        long gone = shape.spawn(new Pos(-1, 0));
        w.despawn(gone); // an archetype whose rows all left holds the column with no row
        w.trackRowChanges(pos);
        List<Long> all = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            all.add(shape.spawn(new Pos(i, 0)));
        }
        Query changed = w.query().changed(pos).build();
        assertEquals(300, changedRows(changed, pos).size(), "first run: every row arrived since");
        long one = all.get(123);
        w.setFloat(one, x, 5);
        assertEquals(List.of(one), changedRows(changed, pos), "only the row written since, in a reserved chunk");
    }

    @Test
    void shouldRefuseToTrackAColumnLiveEntitiesHoldSayingWhy() {
        World w = new World(1024);
        Component<Pos> pos = w.component(Pos.class);
        w.spawn(new Pos(1, 1));
        w.spawn(new Pos(2, 2));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.trackRowChanges(pos));
        assertTrue(e.getMessage().contains("held by 2 live entities of archetype [Pos]")
                && e.getMessage().contains("before spawning entities with it"), e.getMessage());
    }
}
