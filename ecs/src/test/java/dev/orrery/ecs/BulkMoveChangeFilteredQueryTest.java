package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import org.junit.jupiter.api.Test;

/**
 * Bulk moves x change filters on the query they are given. The block path moved every match
 * of the query's archetypes, ignoring {@code changed(Position)}; the entity-by-entity path (a
 * query with a sparse term) iterated the query, so honoured the filter and used up its
 * changes: after one look at the query, nothing changed since, the first moved 10 entities
 * and the second 0. Both now refuse such a query, naming it and the fix, and move nothing.
 */
class BulkMoveChangeFilteredQueryTest {
    record Position(float x, float y) {}

    record Extra(int v) {}

    record Marked(int v) {}

    @Test
    void shouldRefuseAChangeFilteredQueryOnBothPathsMovingNothing() {
        for (boolean sparseTerm : new boolean[] {false, true}) {
            World w = new World();
            Component<Position> pos = w.component(Position.class);
            Component<Extra> extra = w.component(Extra.class);
            Component<Marked> marked = w.component(Marked.class, Storage.SPARSE);
            for (int i = 0; i < 10; i++) {
                long e = w.spawn(new Position(i, i), new Extra(i));
                w.add(e, marked, new Marked(i));
            }
            Query q = sparseTerm ? w.query().with(pos, marked).changed(pos).build()
                    : w.query().with(pos).changed(pos).build();
            Query removing = sparseTerm ? w.query().with(extra, marked).added(extra).build()
                    : w.query().with(extra).added(extra).build();
            q.forEach((v, r) -> { }); // sees every chunk once; nothing changes after
            long hash = w.stateHash();
            IllegalArgumentException add = assertThrows(IllegalArgumentException.class, () -> w.addToAll(q, extra));
            assertTrue(add.getMessage().contains("addToAll refused") && add.getMessage().contains("change filter")
                    && add.getMessage().contains("without changed(...)/added(...)"), add.getMessage());
            IllegalArgumentException remove = assertThrows(IllegalArgumentException.class,
                    () -> w.removeFromAll(removing, extra));
            assertTrue(remove.getMessage().contains("removeFromAll refused"), remove.getMessage());
            assertEquals(hash, w.stateHash(), "nothing moved (sparse term: " + sparseTerm + ")");
            assertEquals(10, w.removeFromAll(w.query().with(extra).build(), extra), "an unfiltered query still moves");
        }
    }
}
