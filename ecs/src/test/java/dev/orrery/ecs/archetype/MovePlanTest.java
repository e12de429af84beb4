package dev.orrery.ecs.archetype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.internal.EcsInternals;
import org.junit.jupiter.api.Test;

/** The cached per-pair move plans and the typed row copies they drive. */
class MovePlanTest {
    record Every(boolean b, byte y, short s, char c, int i, float f, long l, double d) {
    }

    record Position(float x, float y, float z) {
    }

    record Health(int hp) {
    }

    record Mass(double kg) {
    }

    private static Every every(int k) {
        return new Every(k % 2 == 1, (byte) k, (short) (k * 3), (char) ('a' + k % 26), k * 7, k + 0.5f, k * 1_000_000_007L,
                k + 0.25);
    }

    @Test
    void shouldKeepOnePlanPerPairAndReuseItOnTheEdges() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Health> health = w.component(Health.class);
        Archetypes all = EcsInternals.storage(w).archetypes();
        Archetype p = all.of(pos);
        Archetype ph = all.withAdded(p, health);
        MovePlan add = all.addPlan(p, health);
        assertSame(p, add.source());
        assertSame(ph, add.target());
        assertSame(add, p.planTo(ph), "the edge holds the pair's one plan");
        assertSame(add, all.addPlan(p, health));
        MovePlan remove = all.removePlan(ph, health);
        assertSame(p, remove.target());
        assertSame(remove, ph.planTo(p));
        Archetype h = all.of(health);
        MovePlan other = p.planTo(h);
        assertSame(other, p.planTo(h));
        assertSame(add, p.planTo(ph), "a second target does not evict the first");
        assertEquals(0, other.copies.size());
        assertEquals(1, other.clears.size());
        assertEquals(3, add.copies.size());
        assertEquals(1, add.clears.size());
    }

    @Test
    void shouldNotTakeAPlanForAnotherWorldsArchetypeWithTheSameId() {
        World a = new World();
        World b = new World();
        Component<Position> posA = a.component(Position.class);
        Component<Position> posB = b.component(Position.class);
        Component<Mass> massB = b.component(Mass.class);
        Archetype fromA = EcsInternals.storage(a).archetypes().of(posA);
        Archetype toA = EcsInternals.storage(a).archetypes().of(); // the empty archetype, id 0
        EcsInternals.storage(b).archetypes().of(posB);
        Archetype toB = EcsInternals.storage(b).archetypes().of(massB);
        Archetype toA2 = EcsInternals.storage(a).archetypes().of(a.component(Mass.class));
        assertEquals(toB.id(), toA2.id());
        MovePlan planA = fromA.planTo(toA2);
        MovePlan planB = fromA.planTo(toB);
        assertNotSame(planA, planB);
        assertSame(toB, planB.target());
        assertSame(toA, fromA.planTo(toA).target());
    }

    @Test
    void shouldMoveEveryFieldTypeThroughAddRemoveAndSwapAcrossChunkGrowth() {
        World w = new World();
        Component<Every> ev = w.component(Every.class);
        Component<String> label = w.referenceComponent(String.class);
        Component<Mass> mass = w.component(Mass.class);
        int n = 300; // past the first chunk's 64 rows, so it grows while rows move in one by one
        long[] ids = new long[n];
        for (int k = 0; k < n; k++) {
            ids[k] = w.spawn(every(k), "e" + k);
        }
        for (int k = 0; k < n; k++) {
            w.add(ids[k], mass, new Mass(k * 2.0));
        }
        for (int k = 0; k < n; k += 2) { // every other one back out: swaps from the end
            w.remove(ids[k], mass);
        }
        for (int k = 1; k < n; k += 3) {
            w.remove(ids[k], label);
        }
        for (int k = 0; k < n; k++) {
            assertEquals(every(k), w.get(ids[k], ev), "entity " + k);
            if (k % 2 == 1) {
                assertEquals(new Mass(k * 2.0), w.get(ids[k], mass));
            } else {
                assertEquals(false, w.has(ids[k], mass));
            }
            if (k % 3 == 1) {
                assertEquals(false, w.has(ids[k], label));
            } else {
                assertEquals("e" + k, w.get(ids[k], label));
            }
        }
        for (int k = 0; k < n; k += 2) { // re-added values start at zero even in reused rows
            w.add(ids[k], mass);
            assertEquals(new Mass(0), w.get(ids[k], mass));
        }
    }

    @Test
    void shouldClearTheVacatedReferenceAndLeaveOtherRowsAlone() {
        World w = new World();
        Component<Every> ev = w.component(Every.class);
        Component<String> label = w.referenceComponent(String.class);
        Archetype a = EcsInternals.storage(w).archetypes().of(ev, label);
        for (int k = 0; k < 3; k++) {
            a.appendRow(Entity.of(k + 1, 1));
            ev.type().write(every(k), a.chunk(0).columnArrays(a.slotOf(ev.id())), k);
            label.type().write("r" + k, a.chunk(0).columnArrays(a.slotOf(label.id())), k);
        }
        assertEquals(Entity.of(3, 1), a.removeRow(0, 0));
        Chunk c = a.chunk(0);
        assertEquals(every(2), ev.type().read(c.columnArrays(a.slotOf(ev.id())), 0));
        assertEquals("r2", label.type().read(c.columnArrays(a.slotOf(label.id())), 0));
        assertEquals(every(1), ev.type().read(c.columnArrays(a.slotOf(ev.id())), 1));
        assertNull(((Object[]) c.array(a.slotOf(label.id()), 0))[2]);
        assertEquals(Entity.NULL, a.removeRow(0, 1), "removing the last row moves nothing");
        assertNull(((Object[]) c.array(a.slotOf(label.id()), 0))[1]);
        assertEquals(1, a.size());
    }
}
