package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SortRowsTest {
    record Pos(float x, int cell) {
    }

    static final class Tag {
        final String name;

        Tag(String name) {
            this.name = name;
        }
    }

    @Test
    void shouldOrderRowsByKeyKeepingIdsValuesAndLocations() {
        World w = new World(1024); // several chunks
        Component<Pos> pos = w.component(Pos.class);
        Component<Tag> tag = w.referenceComponent(Tag.class);
        Field cell = pos.field("cell");
        Random r = new Random(3);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            long e = w.spawn(new Pos(i, r.nextInt(20)));
            w.add(e, tag, new Tag("t" + i));
            ids.add(e);
        }
        for (int i = 0; i < 500; i += 9) {
            w.despawn(ids.get(i));
        }
        Archetype a = w.archetypeOf(ids.get(1));
        java.util.Map<Long, Integer> rowBefore = new java.util.HashMap<>();
        for (int ci = 0, k = 0; ci < a.chunkCount(); ci++) {
            for (int row = 0; row < a.chunk(ci).size(); row++) {
                rowBefore.put(a.chunk(ci).entity(row), k++);
            }
        }
        w.sortRows(a, (chunk, row) -> chunk.archetype() == a ? (long) w.getInt(chunk.entity(row), cell) : 0);
        int previous = Integer.MIN_VALUE;
        int previousRow = -1;
        for (int ci = 0; ci < a.chunkCount(); ci++) {
            Chunk c = a.chunk(ci);
            for (int row = 0; row < c.size(); row++) {
                Pos p = w.get(c.entity(row), pos);
                assertTrue(p.cell() >= previous, "rows ascend by key");
                int before = rowBefore.get(c.entity(row));
                if (p.cell() == previous) {
                    assertTrue(before > previousRow, "ties keep their previous row order");
                }
                previous = p.cell();
                previousRow = before;
            }
        }
        for (int i = 0; i < 500; i++) {
            if (i % 9 != 0) {
                long e = ids.get(i);
                assertEquals(i, (int) w.get(e, pos).x(), "entity " + i + " keeps its value and is found at its new row");
                assertEquals("t" + i, w.get(e, tag).name);
                assertEquals(pos, w.findComponent(e, "Pos"));
            }
        }
    }

    @Test
    void shouldGiveTheSameStateFromTheSameRows() {
        long[] hashes = new long[2];
        for (int k = 0; k < 2; k++) {
            World w = new World(1024);
            Component<Pos> pos = w.component(Pos.class);
            Field cell = pos.field("cell");
            Random r = new Random(8);
            for (int i = 0; i < 300; i++) {
                w.spawn(new Pos(i, r.nextInt(5)));
            }
            Archetype a = w.query().with(pos).build().archetypes().get(0);
            w.sortRows(a, (chunk, row) -> w.getInt(chunk.entity(row), cell));
            hashes[k] = w.stateHash();
        }
        assertEquals(hashes[0], hashes[1]);
    }

    @Test
    void shouldRefuseToSortDuringIteration() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        w.spawn(new Pos(1, 1));
        w.spawn(new Pos(2, 0));
        Query q = w.query().with(pos).build();
        Archetype a = q.archetypes().get(0);
        assertThrows(IllegalStateException.class, () -> q.forEachChunk(c -> w.sortRows(a, (ch, r) -> r)));
    }
}
