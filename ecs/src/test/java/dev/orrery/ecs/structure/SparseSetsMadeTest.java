package dev.orrery.ecs.structure;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import org.junit.jupiter.api.Test;

/**
 * A sparse column's set is made when the world registers the column, on the registering
 * thread: a job that asks a row whether it holds the column (on a worker) then only reads the
 * sets, where making a missing set there would race another worker doing the same.
 */
class SparseSetsMadeTest {
    record Burning(float heat) {
    }

    record Aura(float radius) {
    }

    @Test
    void everySparseRegistrationMakesItsSetAtOnce() {
        World w = new World();
        Component<Burning> burning = w.component(Burning.class, Storage.SPARSE);
        Component<Aura> fog = w.component(Aura.class, "Fog", Storage.SPARSE);
        Component<StringBuilder> note = w.referenceComponent(StringBuilder.class, Storage.SPARSE);
        SparseColumns sets = dev.orrery.ecs.internal.EcsInternals.storage(w).sparse();
        assertTrue(sets.made(burning), "unnamed record column");
        assertTrue(sets.made(fog), "named record column");
        assertTrue(sets.made(note), "reference column");
    }
}
