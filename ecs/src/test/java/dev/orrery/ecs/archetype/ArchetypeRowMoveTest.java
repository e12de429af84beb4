package dev.orrery.ecs.archetype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.internal.EcsInternals;
import org.junit.jupiter.api.Test;

class ArchetypeRowMoveTest {
    record Position(float x, float y, float z) {
    }

    record Health(int hp) {
    }

    record Mass(double kg) {
    }

    @Test
    void shouldCopySharedColumnsAndZeroNewOnesEvenInAReusedRow() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Health> health = w.component(Health.class);
        Component<Mass> mass = w.component(Mass.class);
        Component<String> label = w.referenceComponent(String.class);
        Archetype from = EcsInternals.storage(w).archetypes().of(pos, health, label);
        Archetype to = EcsInternals.storage(w).archetypes().of(pos, mass, label);

        // Leave stale values in the target's first row: fill it, then empty it again.
        long stale = to.appendRow(Entity.of(7, 1));
        Chunk t = to.chunk(0);
        ((double[]) t.array(to.slotOf(mass.id()), 0))[(int) stale] = 99.0;
        ((float[]) t.array(to.slotOf(pos.id()), 1))[(int) stale] = -1f;
        to.removeRow(0, (int) stale);

        long src = from.appendRow(Entity.of(1, 1));
        Chunk s = from.chunk(0);
        pos.type().write(new Position(1, 2, 3), s.columnArrays(from.slotOf(pos.id())), (int) src);
        health.type().write(new Health(5), s.columnArrays(from.slotOf(health.id())), (int) src);
        label.type().write("a", s.columnArrays(from.slotOf(label.id())), (int) src);

        long loc = to.appendRowFrom(Entity.of(1, 1), from, 0, (int) src);
        int row = (int) loc;
        assertEquals(0, (int) (loc >>> 32));
        assertEquals(0, row, "the emptied row is reused");
        assertEquals(Entity.of(1, 1), t.entity(row));
        assertEquals(new Position(1, 2, 3), pos.type().read(t.columnArrays(to.slotOf(pos.id())), row));
        assertEquals("a", label.type().read(t.columnArrays(to.slotOf(label.id())), row));
        assertEquals(new Mass(0), mass.type().read(t.columnArrays(to.slotOf(mass.id())), row),
                "a column new to the entity starts at zero, not at the row's stale value");
        assertEquals(1, to.size());
    }

    @Test
    void shouldClearTheVacatedReferenceSlotOnRemoval() {
        World w = new World();
        Component<String> label = w.referenceComponent(String.class);
        Archetype a = EcsInternals.storage(w).archetypes().of(label);
        long first = a.appendRow(Entity.of(1, 1));
        long second = a.appendRow(Entity.of(2, 1));
        Object[] refs = (Object[]) a.chunk(0).array(0, 0);
        refs[(int) first] = "one";
        refs[(int) second] = "two";

        assertEquals(Entity.of(2, 1), a.removeRow(0, (int) first));
        assertEquals("two", refs[0]);
        assertNull(refs[1], "nothing is kept alive by the vacated row");
    }
}
