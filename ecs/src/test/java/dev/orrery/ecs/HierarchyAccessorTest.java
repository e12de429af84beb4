package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The slot and level accessors of {@link Hierarchy} refuse an index outside their range by name. */
class HierarchyAccessorTest {
    record Position(float x, float y) {
    }

    private final World world = new World();
    private final Relation childOf = world.relations().childOf();

    private long spawn() {
        return world.spawn(new Position(0, 0));
    }

    /** r <- a <- b, r <- c: 4 slots in 3 levels. */
    private Hierarchy smallForest() {
        long r = spawn();
        long a = spawn();
        long b = spawn();
        long c = spawn();
        world.relations().add(a, childOf, r);
        world.relations().add(b, childOf, a);
        world.relations().add(c, childOf, r);
        Hierarchy h = world.relations().hierarchy(childOf);
        assertEquals(4, h.size());
        assertEquals(3, h.levels());
        return h;
    }

    private static String refused(Executable call, String... parts) {
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, call);
        assertEquals(IndexOutOfBoundsException.class, e.getClass(), "not a bare array index error: " + e);
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), "'" + part + "' in: " + e.getMessage());
        }
        return e.getMessage();
    }

    @Test
    void aSlotOutsideSizeIsRefusedNamingTheAccessorTheSlotAndTheRange() {
        Hierarchy h = smallForest();
        refused(() -> h.entity(-1), "Hierarchy.entity(slot)", "ChildOf", "slot -1", "0 to size() - 1 (3)");
        refused(() -> h.parentSlot(99), "Hierarchy.parentSlot(slot)", "slot 99", "0 to size() - 1 (3)");
        refused(() -> h.parentSlot(Integer.MIN_VALUE), "slot " + Integer.MIN_VALUE);
        // Past size() but inside the arrays (they are longer): this read a stale slot before.
        refused(() -> h.entity(4), "Hierarchy.entity(slot)", "slot 4", "size()");
        refused(() -> h.parentSlot(4), "Hierarchy.parentSlot(slot)", "slot 4");
        assertEquals(-1, h.parentSlot(0), "slot 0 is a root");
        assertEquals(0, h.slotOf(h.entity(3)) - 3, "the last slot still reads");
    }

    @Test
    void aLevelOutsideItsRangeIsRefusedAndLevelStartOfLevelsIsTheEnd() {
        Hierarchy h = smallForest();
        assertEquals(h.size(), h.levelStart(h.levels()), "levelStart(levels()) is size(): the end of the last level");
        assertEquals(h.size(), h.levelEnd(h.levels() - 1));
        refused(() -> h.levelEnd(3), "Hierarchy.levelEnd(level)", "level 3", "0 to levels() - 1 (2)");
        refused(() -> h.levelEnd(-1), "Hierarchy.levelEnd(level)", "level -1");
        refused(() -> h.levelStart(4), "Hierarchy.levelStart(level)", "level 4", "0 to levels() (3)");
        refused(() -> h.levelStart(-1), "Hierarchy.levelStart(level)", "level -1");
    }

    @Test
    void aHierarchyThatShrankRefusesItsFormerSlots() {
        long r = spawn();
        long a = spawn();
        world.relations().add(a, childOf, r);
        assertEquals(2, world.relations().hierarchy(childOf).size());
        world.relations().remove(a, childOf, r);
        Hierarchy h = world.relations().hierarchy(childOf);
        assertEquals(0, h.size());
        assertEquals(0, h.levels());
        assertEquals(0, h.levelStart(0));
        refused(() -> h.entity(0), "Hierarchy.entity(slot)", "slot 0", "there are none");
        refused(() -> h.parentSlot(1), "Hierarchy.parentSlot(slot)", "slot 1", "there are none");
        refused(() -> h.levelEnd(0), "Hierarchy.levelEnd(level)", "level 0", "there are none");
    }
}
