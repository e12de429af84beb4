package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.access.AccessPolicy;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Queries and chunk views over sparse columns: row filters, exact counts, per-row reads, refused chunk loops. */
class SparseQueryTest {
    record Pos(float x) {
    }

    record Vel(float x) {
    }

    record Poison(int dmg) {
    }

    record Marked() {
    }

    final World w = new World();
    final Component<Pos> pos = w.component(Pos.class);
    final Component<Vel> vel = w.component(Vel.class);
    final Component<Poison> poison = w.component(Poison.class, Storage.SPARSE);
    final Component<Marked> marked = w.component(Marked.class, Storage.SPARSE);
    final long[] ids = new long[12];

    SparseQueryTest() {
        // Two archetypes, {Pos} and {Pos, Vel}, six entities each, interleaved in spawn order.
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i % 2 == 0 ? w.spawn(new Pos(i)) : w.spawn(new Pos(i), new Vel(i));
        }
        // Added in descending order: the sets' dense order is the reverse of the rows'.
        for (int i = ids.length - 1; i >= 0; i--) {
            if (i % 3 == 0) {
                w.add(ids[i], poison, new Poison(i * 10));
            }
            if (i % 4 == 0) {
                w.add(ids[i], marked);
            }
        }
    }

    private List<Integer> visit(Query q) {
        List<Integer> seen = new ArrayList<>();
        q.forEach((view, row) -> seen.add((int) view.get(pos, row).x()));
        assertEquals(seen.size(), q.count(), "count() matches what forEach visits");
        return seen;
    }

    @Test
    void termsFilterRowsInArchetypeAndRowOrder() {
        // {Pos} rows hold 0,2,4,..; {Pos,Vel} rows 1,3,5,..; the {Pos} archetype came first.
        assertEquals(List.of(0, 6, 3, 9), visit(w.query().with(pos, poison).build()));
        assertEquals(List.of(0, 6, 3, 9), visit(w.query().with(poison).build()));
        assertEquals(List.of(0), visit(w.query().with(poison, marked).build()));
        assertEquals(List.of(2, 4, 8, 10, 1, 5, 7, 11), visit(w.query().with(pos).without(poison).build()));
        assertEquals(List.of(3, 9), visit(w.query().with(vel, poison).build()));
        assertEquals(List.of(0, 4, 6, 8, 3, 9), visit(w.query().any(poison, marked).build()));
        // any mixing a table and a sparse column: a row passes with either.
        assertEquals(List.of(0, 6, 1, 3, 5, 7, 9, 11), visit(w.query().with(pos).any(vel, poison).build()));
        assertEquals(List.of(2, 4, 8, 10, 1, 5, 7, 11), visit(w.query().with(pos).without(poison).optional(marked)
                .build()));
        assertEquals(12, w.query().with(pos).optional(poison).build().count(), "optional filters nothing");
    }

    @Test
    void membershipChangesShowInTheNextIteration() {
        Query q = w.query().with(pos, marked).build();
        assertEquals(List.of(0, 4, 8), visit(q));
        w.remove(ids[4], marked);
        w.add(ids[5], marked);
        assertEquals(List.of(0, 8, 5), visit(q));
    }

    @Test
    void aChunkLoopOverASparseFilterIsRefusedNamingTheColumn() {
        Query q = w.query().with(pos).without(poison).build();
        assertTrue(q.hasSparseFilter());
        assertEquals(poison, q.sparseFilterColumn());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> q.forEachChunk(c -> { }));
        assertTrue(e.getMessage().contains("Poison") && e.getMessage().contains("forEach")
                && e.getMessage().contains("TABLE"), e.getMessage());
        Query optional = w.query().with(pos).optional(poison).build();
        assertFalse(optional.hasSparseFilter());
        int[] held = new int[1];
        optional.forEachChunk(c -> {
            for (int r = 0; r < c.size(); r++) {
                if (c.has(poison, r)) {
                    held[0] += c.get(poison, r).dmg();
                }
            }
        });
        assertEquals(0 + 30 + 60 + 90, held[0]);
    }

    @Test
    void viewsReadAndWriteSparseValuesPerRow() {
        Query q = w.query().with(pos, poison).build();
        q.forEach((view, row) -> view.set(poison, row, new Poison(view.get(poison, row).dmg() + 1)));
        assertEquals(new Poison(31), w.get(ids[3], poison));
        w.query().with(pos).build().forEach((view, row) -> {
            long e = view.entity(row);
            assertEquals(w.has(e, poison), view.has(poison, row));
            assertTrue(view.has(pos, row));
            if (!view.has(poison, row)) {
                IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> view.get(poison, row));
                assertTrue(ex.getMessage().contains("has(Poison, row)"), ex.getMessage());
            }
        });
        w.query().with(pos).build().forEach((view, row) -> {
            IllegalArgumentException whole = assertThrows(IllegalArgumentException.class, () -> view.has(poison));
            assertTrue(whole.getMessage().contains("has(Poison, row)"), whole.getMessage());
        });
    }

    @Test
    void sparseAccessObeysTheViewsPolicy() {
        AccessPolicy readsPoison = new AccessPolicy() {
            @Override
            public String owner() {
                return "Healer";
            }

            @Override
            public boolean canRead(Component<?> column) {
                return Set.of(pos, poison).contains(column);
            }

            @Override
            public boolean canWrite(Component<?> column) {
                return column == pos;
            }
        };
        ChunkView view = new ChunkView(readsPoison, w.storage().sparse())
                .bind(w.archetypeOf(ids[0]).chunk(0));
        assertEquals(new Poison(0), view.get(poison, 0));
        UndeclaredAccessException write = assertThrows(UndeclaredAccessException.class,
                () -> view.set(poison, 0, new Poison(1)));
        assertTrue(write.getMessage().contains("Healer") && write.getMessage().contains("Poison"), write.getMessage());
        assertThrows(UndeclaredAccessException.class, () -> view.get(marked, 0));
        assertThrows(IllegalArgumentException.class, () -> view.readInts(poison.field("dmg")),
                "a sparse column's values are not chunk arrays");
    }
}
