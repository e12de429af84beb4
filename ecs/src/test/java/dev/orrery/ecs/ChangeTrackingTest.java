package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Change filters at chunk granularity, the removal log and the change state in snapshots. */
class ChangeTrackingTest {
    record Pos(float x, float y) {
    }

    record Tag() {
    }

    record Note(int n) {
    }

    /** A world of {@code n} entities over several chunks (small chunks). */
    static World world(int n) {
        World w = new World(1024);
        for (int i = 0; i < n; i++) {
            w.spawn(new Pos(i, 0));
        }
        return w;
    }

    static int visited(Query q) {
        int[] rows = {0};
        q.forEachChunk(c -> rows[0] += c.size());
        return rows[0];
    }

    @Test
    void aChangedQuerySeesEverythingFirstThenOnlyTheChunksWrittenSince() {
        World w = world(1000);
        Component<Pos> pos = w.component(Pos.class);
        Field x = pos.field("x");
        Query changed = w.query().changed(pos).build();
        Archetype a = w.archetypeOf(w.query().with(pos).build().archetypes().get(0).chunk(0).entity(0));
        assertTrue(a.chunkCount() > 4, "the test needs several chunks: " + a.chunkCount());
        assertEquals(1000, visited(changed), "first iteration: every row is new");
        assertEquals(0, visited(changed), "nothing written since");
        long e = a.chunk(2).entity(5);
        w.setFloat(e, x, 42);
        assertEquals(a.chunk(2).size(), visited(changed), "a by-id write marks its chunk only");
        assertEquals(0, visited(changed));
        w.query().with(pos).build().forEachChunk(c -> {
            if (c.entity(0) == a.chunk(3).entity(0)) {
                c.writeFloats(x)[0] = 1; // a write accessor marks the whole chunk
            }
        });
        assertEquals(a.chunk(3).size(), visited(changed));
    }

    @Test
    void aQueryDoesNotSeeItsOwnWritesButAnotherQueryDoes() {
        World w = world(300);
        Component<Pos> pos = w.component(Pos.class);
        Field x = pos.field("x");
        Query writer = w.query().changed(pos).build();
        Query reader = w.query().changed(pos).build();
        visited(reader);
        writer.forEachChunk(c -> c.writeFloats(x)[0]++);
        assertEquals(0, visited(writer), "its own writes are older than its last run");
        assertEquals(300, visited(reader));
    }

    @Test
    void anAddedQuerySeesTheChunksNewRowsArrivedIn() {
        World w = world(500);
        Component<Pos> pos = w.component(Pos.class);
        Component<Tag> tag = w.component(Tag.class);
        Query added = w.query().added(tag).build();
        assertEquals(0, visited(added));
        long e = w.query().with(pos).build().archetypes().get(0).chunk(1).entity(3);
        w.add(e, tag);
        List<Long> seen = new ArrayList<>();
        added.forEach((c, i) -> seen.add(c.entity(i)));
        assertEquals(List.of(e), seen);
        assertEquals(0, visited(added));
    }

    @Test
    void aRowMovedIntoAnotherChunkTakesItsVersionsAlong() {
        World w = world(400);
        Component<Pos> pos = w.component(Pos.class);
        Query changed = w.query().changed(pos).build();
        visited(changed);
        Archetype a = w.query().with(pos).build().archetypes().get(0);
        int lastChunk = a.chunkCount() - 1;
        long last = a.chunk(lastChunk).entity(a.chunk(lastChunk).size() - 1);
        w.setFloat(last, pos.field("x"), 7); // marks the last chunk
        w.despawn(a.chunk(0).entity(0)); // the last row fills the hole in chunk 0
        int[] rows = {0};
        boolean[] sawLast = {false};
        changed.forEach((c, i) -> {
            rows[0]++;
            sawLast[0] |= c.entity(i) == last;
        });
        assertTrue(sawLast[0], "the written row must still pass after it moved to chunk 0");
    }

    @Test
    void filtersRefuseSparseComponents() {
        World w = new World();
        Component<Note> note = w.component(Note.class, Storage.SPARSE);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.query().changed(note));
        assertTrue(e.getMessage().contains("Note"), e.getMessage());
    }

    @Test
    void theRemovalLogListsLostComponentsInOrderAndRetiresThem() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        Component<Tag> tag = w.component(Tag.class);
        assertThrows(IllegalStateException.class, () -> w.changes().removed(tag));
        w.changes().trackRemoved(tag);
        RemovedEntities gone = w.changes().removed(tag);
        long a = w.spawn(new Pos(0, 0), new Tag());
        long b = w.spawn(new Pos(1, 0), new Tag());
        long c = w.spawn(new Pos(2, 0));
        long since = w.changes().clock().advance();
        w.remove(b, tag);
        w.despawn(a);
        w.despawn(c); // held no tag: not logged
        gone.since(since);
        assertEquals(2, gone.count());
        assertEquals(b, gone.entity(0));
        assertEquals(a, gone.entity(1));
        assertEquals(0, gone.since(w.changes().clock().now()).count());
        w.changes().clock().advance(); // the removals belong to the run before the retiring ones
        w.changes().retire();
        assertEquals(2, gone.since(0).count(), "kept for the run after");
        for (int run = 0; run <= ChangeTracker.RETAINED_RUNS; run++) {
            w.changes().retire();
            w.changes().clock().advance();
        }
        assertEquals(0, gone.since(0).count(), "retired after " + ChangeTracker.RETAINED_RUNS + " runs");
    }

    @Test
    void theChangeStateSurvivesASnapshot() {
        World w = world(700);
        Component<Pos> pos = w.component(Pos.class);
        Component<Tag> tag = w.component(Tag.class);
        w.changes().trackRemoved(tag);
        long t = w.spawn(new Pos(0, 0), new Tag());
        w.despawn(t);
        Query q = w.query().changed(pos).build();
        visited(q);
        Archetype a = w.query().with(pos).build().archetypes().get(0);
        w.setFloat(a.chunk(1).entity(0), pos.field("x"), 3);
        w.changes().lastRun(w.changes().systemSlot("mover"), 17);
        byte[] bytes = new WorldSnapshot().write(w);

        World r = new World(1024);
        r.component(Pos.class);
        r.component(Tag.class);
        assertTrue(new WorldSnapshot().read(bytes, r).isEmpty(), "the change section is not an extra of the caller's");
        assertEquals(w.changes().clock().now(), r.changes().clock().now());
        assertEquals(17, r.changes().lastRun(r.changes().systemSlot("mover")));
        assertEquals(1, r.changes().removed(r.component(Tag.class)).since(0).count());
        Archetypes src = w.storage().archetypes();
        Archetypes dst = r.storage().archetypes();
        for (int i = 0; i < src.count(); i++) {
            for (int c = 0; c < src.get(i).chunkCount(); c++) {
                for (int s = 0; s < src.get(i).columnCount(); s++) {
                    assertEquals(src.get(i).chunk(c).changedVersion(s), dst.get(i).chunk(c).changedVersion(s));
                    assertEquals(src.get(i).chunk(c).addedVersion(s), dst.get(i).chunk(c).addedVersion(s));
                }
            }
        }
        assertEquals(w.stateHash(), r.stateHash());
    }

    @Test
    void playbackSetsMarkTheirChunk() {
        World w = world(500);
        Component<Pos> pos = w.component(Pos.class);
        Query changed = w.query().changed(pos).build();
        visited(changed);
        Archetype a = w.query().with(pos).build().archetypes().get(0);
        CommandBuffer buf = new CommandBuffer(0);
        buf.set(a.chunk(2).entity(1), pos, new Pos(9, 9));
        new CommandPlayback().apply(w, buf);
        assertEquals(a.chunk(2).size(), visited(changed));
    }
}
