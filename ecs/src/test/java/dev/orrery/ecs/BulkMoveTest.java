package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BulkMoveTest {
    record Position(float x, float y) {
    }

    record Health(int hp) {
    }

    record Frozen() {
    }

    @Test
    void shouldAddAndRemoveForEveryMatchKeepingValuesAndLocations() {
        World w = new World(1024); // small chunks: many blocks per archetype
        Component<Position> pos = w.component(Position.class);
        Component<Health> hp = w.component(Health.class);
        Component<Frozen> frozen = w.component(Frozen.class);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 700; i++) {
            long e = i % 3 == 0 ? w.spawn(new Position(i, -i)) : w.spawn(new Position(i, -i), new Health(i));
            ids.add(e);
        }
        for (int i = 0; i < 700; i += 7) {
            w.despawn(ids.get(i)); // holes, so rows were swapped before the bulk move
        }
        long lone = w.spawn(new Health(5)); // not matched by the query
        Query withPos = w.query().with(pos).build();
        int moved = w.addToAll(withPos, frozen);
        assertEquals(600, moved);
        for (int i = 0; i < 700; i++) {
            long e = ids.get(i);
            if (i % 7 == 0) {
                assertFalse(w.isAlive(e));
                continue;
            }
            assertTrue(w.has(e, frozen), "entity " + i);
            assertEquals(new Position(i, -i), w.get(e, pos), "entity " + i);
            if (i % 3 != 0) {
                assertEquals(new Health(i), w.get(e, hp));
            }
            assertEquals(frozen, w.findComponent(e, "Frozen"));
        }
        assertFalse(w.has(lone, frozen));
        assertEquals(0, w.addToAll(withPos, frozen), "second bulk add moves nobody");
        assertEquals(600, w.removeFromAll(withPos, frozen));
        for (int i = 1; i < 700; i++) {
            if (i % 7 != 0) {
                assertFalse(w.has(ids.get(i), frozen));
                assertEquals(new Position(i, -i), w.get(ids.get(i), pos));
            }
        }
        assertEquals(601, w.entityCount());
    }

    @Test
    void shouldMoveNothingWhenOneArchetypeHasANameClash() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Health> fogHp = w.component(Health.class, "Fog");
        Component<Position> fogPos = w.component(Position.class, "Fog");
        long plain = w.spawn(new Position(1, 1)); // its archetype comes first and could move
        long clash = w.spawn(new Position(2, 2));
        w.add(clash, fogHp, new Health(1));
        assertThrows(IllegalArgumentException.class, () -> w.addToAll(w.query().with(pos).build(), fogPos));
        assertFalse(w.has(plain, fogPos), "no archetype moved before the clash was found");
        assertFalse(w.has(clash, fogPos));
        assertEquals(new Position(1, 1), w.get(plain, pos));
        assertEquals(new Health(1), w.get(clash, fogHp));
        // The world keeps its bulk-move lists from call to call: the refused call left none behind.
        assertEquals(1, w.removeFromAll(w.query().with(fogHp).build(), fogHp));
        assertFalse(w.has(plain, fogPos), "the next bulk call moves only what it matches");
        assertFalse(w.has(clash, fogHp));
        assertEquals(new Position(2, 2), w.get(clash, pos));
    }

    @Test
    void shouldRefuseBulkMoveDuringIteration() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Frozen> frozen = w.component(Frozen.class);
        w.spawn(new Position(1, 1));
        Query q = w.query().with(pos).build();
        assertThrows(IllegalStateException.class, () -> q.forEachChunk(c -> w.addToAll(q, frozen)));
    }
}
