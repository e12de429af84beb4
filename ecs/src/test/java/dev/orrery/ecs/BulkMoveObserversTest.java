package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Storage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bulk moves ({@code addToAll}, {@code removeFromAll}) and observers, with sparse columns
 * beside: a table column's onAdd and onRemove hooks fire once per entity moved, in the
 * query's order, whether the move goes an archetype at a time or (a query filtering on a
 * sparse column, a value hook) entity by entity; a hook's commands apply after the call.
 */
class BulkMoveObserversTest {
    record Pos(float x) {
    }

    record Extra(int n) {
    }

    record Frozen() {
    }

    record Sleepy() {
    }

    record Gone(int n) {
    }

    final World w = new World();
    final Component<Pos> pos = w.component(Pos.class);
    final Component<Extra> extra = w.component(Extra.class);
    final Component<Frozen> frozen = w.component(Frozen.class);
    final Component<Gone> gone = w.component(Gone.class);
    final Component<Sleepy> sleepy = w.component(Sleepy.class, Storage.SPARSE);
    final List<String> log = new ArrayList<>();
    final long[] ids = new long[12];

    BulkMoveObserversTest() {
        w.observe(frozen).onAdd((world, e, c) -> log.add("add " + Entity.toString(e)))
                .onRemove((world, e, c) -> log.add("remove " + Entity.toString(e)));
        for (int i = 0; i < ids.length; i++) {
            ids[i] = i % 2 == 0 ? w.spawn(new Pos(i)) : w.spawn(new Pos(i), new Extra(i));
            if (i % 3 == 0) {
                w.add(ids[i], sleepy);
            }
        }
    }

    /** What the query visits, as the log would name it. */
    List<String> expected(String what, Query q) {
        List<String> out = new ArrayList<>();
        q.forEach((view, row) -> out.add(what + " " + Entity.toString(view.entity(row))));
        return out;
    }

    @Test
    void shouldFireOnAddAndOnRemoveOncePerEntityInQueryOrderOnTheBlockPath() {
        Query all = w.query().with(pos).build();
        List<String> adds = expected("add", all);
        assertEquals(12, w.addToAll(all, frozen));
        assertEquals(adds, log, "one onAdd per entity, in the query's order");
        assertEquals(0, w.addToAll(all, frozen), "nothing lacks it now");
        assertEquals(12, log.size(), "and no hook fires again");
        log.clear();
        Query holders = w.query().with(frozen).build();
        List<String> removes = expected("remove", holders);
        assertEquals(12, w.removeFromAll(holders, frozen));
        assertEquals(removes, log);
    }

    @Test
    void shouldFireOnAddAndOnRemoveOncePerEntityWhenASparseFilterMovesThemOneByOne() {
        Query sleepers = w.query().with(pos, sleepy).build();
        List<String> adds = expected("add", sleepers);
        assertEquals(4, adds.size());
        assertEquals(4, w.addToAll(sleepers, frozen));
        assertEquals(adds, log, "one onAdd per sleeper, in the query's order");
        for (int i = 0; i < ids.length; i++) {
            assertEquals(i % 3 == 0, w.has(ids[i], frozen), "only the sleepers: " + i);
            assertEquals(i % 3 == 0, w.has(ids[i], sleepy), "the sparse column stays: " + i);
        }
        log.clear();
        Query frozenSleepers = w.query().with(frozen, sleepy).build();
        List<String> removes = expected("remove", frozenSleepers);
        assertEquals(4, w.removeFromAll(frozenSleepers, frozen));
        assertEquals(removes, log);
    }

    @Test
    void shouldFireNoTableHookForASparseBulkMoveAndRefuseObservingTheSparseColumn() {
        Query all = w.query().with(pos).build();
        assertEquals(8, w.addToAll(all, sleepy), "the 8 that lacked it");
        assertEquals(12, w.removeFromAll(all, sleepy));
        assertEquals(List.of(), log, "no table column moved");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> w.observe(sleepy));
        assertTrue(e.getMessage().contains("Sleepy"), e.getMessage());
    }

    @Test
    void shouldApplyAHooksDespawnOfALaterMatchAfterTheCallOnEitherPath() {
        // onAdd of each even-indexed entity despawns the next one, which the same call also moves
        w.observe(gone).onAdd((world, e, c) -> {
            int i = indexOf(e);
            if (i % 2 == 0 && i + 1 < ids.length) {
                c.despawn(ids[i + 1]);
            }
        });
        Query sleepersOrNext = w.query().with(pos, sleepy).build();
        for (int i = 0; i < ids.length; i += 3) {
            if (i + 1 < ids.length) {
                w.add(ids[i + 1], sleepy);                          // both of a pair match the sparse filter
            }
        }
        int moved = w.addToAll(sleepersOrNext, gone);
        assertEquals(8, moved, "every match lacked it when the call began");
        for (int i = 0; i < ids.length; i++) {
            boolean despawned = i % 2 == 1 && (i - 1) % 3 != 2;     // the next of a matched even one
            assertEquals(i % 3 != 2 && !despawned, w.isAlive(ids[i]) && w.has(ids[i], gone), "entity " + i);
            assertEquals(!despawned, w.isAlive(ids[i]), "entity " + i);
        }
        assertEquals(List.of(1, 5, 7, 11), despawnedIndices(), "the hooks of all 8 ran, after every move");
    }

    private List<Integer> despawnedIndices() {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            if (!w.isAlive(ids[i])) {
                out.add(i);
            }
        }
        return out;
    }

    private int indexOf(long e) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == e) {
                return i;
            }
        }
        return -1;
    }
}
