package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.StaleEntityException;
import org.junit.jupiter.api.Test;

class WorldTest {
    record Position(float x, float y, float z) {
    }

    record Velocity(float x, float y, float z) {
    }

    record Frozen() {
    }

    @Test
    void shouldStoreAndReturnComponentValues() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        long e = w.spawn(new Position(1, 2, 3));
        assertEquals(new Position(1, 2, 3), w.get(e, pos));
        w.set(e, pos, new Position(4, 5, 6));
        assertEquals(new Position(4, 5, 6), w.get(e, pos));
        assertEquals(5f, w.getFloat(e, pos.field("y")));
    }

    @Test
    void shouldKeepValuesWhenMovingBetweenArchetypes() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Velocity> vel = w.component(Velocity.class);
        Component<Frozen> frozen = w.component(Frozen.class);
        long a = w.spawn(new Position(1, 1, 1));
        long b = w.spawn(new Position(2, 2, 2));
        w.add(a, vel, new Velocity(9, 9, 9));
        w.add(a, frozen);
        assertEquals(new Position(1, 1, 1), w.get(a, pos));
        assertEquals(new Velocity(9, 9, 9), w.get(a, vel));
        assertTrue(w.remove(a, vel));
        assertFalse(w.remove(a, vel));
        assertEquals(new Position(1, 1, 1), w.get(a, pos));
        assertEquals(new Position(2, 2, 2), w.get(b, pos));
        assertTrue(w.has(a, frozen));
    }

    @Test
    void shouldRejectStaleIdsAfterDespawnAndReuse() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        long a = w.spawn(new Position(1, 1, 1));
        w.despawn(a);
        long b = w.spawn(new Position(2, 2, 2));
        assertNotEquals(a, b);
        assertFalse(w.isAlive(a));
        StaleEntityException ex = assertThrows(StaleEntityException.class, () -> w.get(a, pos));
        assertTrue(ex.getMessage().contains("not alive"), ex.getMessage());
        assertEquals(new Position(2, 2, 2), w.get(b, pos));
    }

    @Test
    void shouldRefuseStructuralChangeDuringIteration() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        w.spawn(new Position(1, 1, 1));
        Query q = w.query().with(pos).build();
        IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> q.forEachChunk(c -> w.spawn(new Position(0, 0, 0))));
        assertTrue(ex.getMessage().contains("CommandBuffer"), ex.getMessage());
        assertEquals(1, w.entityCount());
        w.spawn(new Position(0, 0, 0)); // unlocked again afterwards
        assertEquals(2, w.entityCount());
    }

    @Test
    void shouldRejectTwoInstancesWithOneName() {
        World w = new World();
        Component<Position> fog = w.component(Position.class, "Fog");
        Component<Velocity> fogToo = w.component(Velocity.class, "Fog");
        long e = w.spawn();
        w.add(e, fog);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> w.add(e, fogToo));
        assertTrue(ex.getMessage().contains("Fog"), ex.getMessage());
        assertTrue(w.has(e, fog));
        assertFalse(w.has(e, fogToo));
    }
}
