package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.StaleEntityException;
import dev.orrery.ecs.component.Storage;
import dev.orrery.ecs.prototype.NamedInstances;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sparse columns where they meet other features: name look-ups and property handles over an
 * entity's life (add, remove, re-add, despawn, a reused index, a snapshot), a sparse and a
 * table instance of one type on one entity, every spawn path (shapes, builders, templates,
 * command buffers, bulk adds) keeping sparse columns out of the prototype index, and
 * relations whose cleanup despawns children that hold sparse columns.
 */
class SparsePairingsTest {
    record Pos(float x, float y) {
    }

    record Aura(float radius) {
    }

    record Burning(int left) {
    }

    record Shield(@dev.orrery.ecs.component.Range(min = 0, max = 10) int charge) {
    }

    /** Pos and table Aura (named "Aura"), sparse Aura named "Fog", sparse Burning, registered in that order. */
    static final class Fixture {
        final World w = new World();
        final Component<Pos> pos = w.component(Pos.class);
        final Component<Aura> aura = w.component(Aura.class);
        final Component<Aura> fog = w.component(Aura.class, "Fog", Storage.SPARSE);
        final Component<Burning> burning = w.component(Burning.class, Storage.SPARSE);
        final Relation childOf = w.relations().childOf();
        final NamedInstances names = w.storage().namedInstances();

        /** The prototype index holds table columns only: the entity's chain names no sparse one. */
        void assertIndexHoldsNoSparse(long e) {
            for (int col : names.index().columnsOf(Entity.index(e))) {
                assertFalse(w.components().column(col).isSparse(), "the prototype chain of " + Entity.toString(e)
                        + " names sparse column " + w.components().column(col));
            }
        }
    }

    @Test
    void propertyHandlesAndLookUpsFollowAnEntitysSparseColumnThroughItsLife() {
        Fixture f = new Fixture();
        PropertyHandle radius = f.w.property("Fog", "radius");
        long e = f.w.spawn(new Pos(0, 0));
        f.w.add(e, f.fog, new Aura(3));
        assertEquals(3f, radius.getFloat(e));
        f.w.remove(e, f.fog);
        assertThrows(IllegalArgumentException.class, () -> radius.getFloat(e), "the cached column is not trusted");
        assertNull(f.w.findComponent(e, "Fog"));
        f.w.add(e, f.fog, new Aura(4));
        assertEquals(4f, radius.getFloat(e), "re-added");
        radius.setFloat(e, 6);
        assertEquals(new Aura(6), f.w.get(e, f.fog));
        f.w.despawn(e);
        assertThrows(StaleEntityException.class, () -> radius.getFloat(e));
        long reused = f.w.spawn(new Pos(1, 1));
        assertEquals(Entity.index(e), Entity.index(reused), "precondition: the index is reused");
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> radius.getFloat(reused));
        assertTrue(none.getMessage().contains("'Fog'") && none.getMessage().contains("[Pos]"), none.getMessage());
        assertNull(f.w.findComponent(reused, "Fog"));
        assertThrows(IllegalArgumentException.class, () -> f.w.getProperty(reused, "Fog", "radius"));
        f.w.add(reused, f.fog, new Aura(8));
        assertEquals(8f, radius.getFloat(reused));
        assertEquals(8f, f.w.getProperty(reused, "Fog", "radius"));
    }

    @Test
    void aSparseAndATableInstanceOfOneTypeAreEachFoundByTheirOwnName() {
        Fixture f = new Fixture();
        long e = f.w.spawn(new Pos(0, 0), new Aura(1));
        f.w.add(e, f.fog, new Aura(2));
        PropertyHandle auraRadius = f.w.property("Aura", "radius");
        PropertyHandle fogRadius = f.w.property("Fog", "radius");
        assertSame(f.aura, f.w.findComponent(e, "Aura"));
        assertSame(f.fog, f.w.findComponent(e, "Fog"));
        assertEquals(1f, auraRadius.getFloat(e));
        assertEquals(2f, fogRadius.getFloat(e));
        f.w.setProperty(e, "Fog", "radius", 5f);
        f.w.setProperty(e, "Aura", "radius", 7f);
        assertEquals(new Aura(5), f.w.get(e, f.fog));
        assertEquals(new Aura(7), f.w.get(e, f.aura));
        assertEquals(List.of("Pos", "Aura", "Fog"), f.names.namesOf(Entity.index(e)));

        World copy = new Fixture().w;
        WorldSnapshot snapshots = new WorldSnapshot();
        snapshots.read(snapshots.write(f.w), copy);
        assertEquals(f.w.stateHash(), copy.stateHash());
        assertEquals(List.of("Pos", "Aura", "Fog"), copy.storage().namedInstances().namesOf(Entity.index(e)));
        assertEquals(5f, copy.property("Fog", "radius").getFloat(e));
        assertEquals(7f, copy.getProperty(e, "Aura", "radius"));

        f.w.remove(e, f.aura);
        assertNull(f.w.findComponent(e, "Aura"));
        assertEquals(5f, fogRadius.getFloat(e), "the sparse instance stays when the table one goes");
        assertThrows(IllegalArgumentException.class, () -> auraRadius.getFloat(e));
        f.w.add(e, f.aura, new Aura(9));
        f.w.remove(e, f.fog);
        assertEquals(9f, auraRadius.getFloat(e));
        assertThrows(IllegalArgumentException.class, () -> fogRadius.getFloat(e));
        assertEquals(List.of("Pos", "Aura"), f.names.namesOf(Entity.index(e)));
    }

    @Test
    void everySpawnPathKeepsSparseColumnsOutOfThePrototypeIndexAndListsEachNameOnce() {
        Fixture f = new Fixture();
        Shape shape = f.w.shape(f.pos, f.fog, f.burning);
        Template t = Template.named("t").with(f.pos, new Pos(1, 1)).with(f.fog, new Aura(1)).with(f.burning,
                new Burning(1)).build();
        List<Long> made = new java.util.ArrayList<>();
        made.add(shape.spawn(new Pos(0, 0), new Aura(2), new Burning(3)));
        made.add(shape.spawn());
        for (long e : shape.spawnMany(3)) {
            made.add(e);
        }
        for (long e : shape.spawnMany(2, (rows, from, to, first) -> {
            for (int r = from; r < to; r++) {
                rows.set(f.fog, r, new Aura(10 + first + r - from));
            }
        })) {
            made.add(e);
        }
        made.add(f.w.spawn(t));
        for (long e : f.w.spawnMany(t, 3)) {
            made.add(e);
        }
        made.add(f.w.entity().with(f.pos, new Pos(0, 0)).with(f.fog, new Aura(1)).with(f.burning).spawn());
        for (long e : f.w.entity().with(f.burning).with(f.pos, new Pos(0, 0)).with(f.fog).spawnMany(3)) {
            made.add(e);
        }
        long byValues = f.w.spawn(new Pos(0, 0), new Burning(1)); // an Aura value would go to the table Aura
        f.w.add(byValues, f.fog);
        made.add(byValues);
        CommandBuffer buf = new CommandBuffer(0);
        buf.spawn(shape);
        long h = buf.spawn(shape);
        buf.set(h, f.fog, new Aura(30));
        buf.spawn(t);
        long plain = buf.spawn();
        buf.add(plain, f.pos, new Pos(0, 0));
        buf.add(plain, f.fog, new Aura(31));
        buf.add(plain, f.burning);
        int before = f.w.entityCount();
        f.w.apply(buf);
        assertEquals(before + 4, f.w.entityCount());
        f.w.query().with(f.pos).build().forEach((v, row) -> {
            long e = v.entity(row);
            if (!made.contains(e)) {
                made.add(e);
            }
        });
        assertEquals(before + 4, made.size());
        for (long e : made) {
            f.assertIndexHoldsNoSparse(e);
            assertTrue(f.w.has(e, f.fog) && f.w.has(e, f.burning), Entity.toString(e));
            assertEquals(List.of("Pos", "Fog", "Burning"), f.names.namesOf(Entity.index(e)), Entity.toString(e));
            assertSame(f.fog, f.w.findComponent(e, "Fog"));
        }
        assertEquals(2f, f.w.getProperty(made.get(0), "Fog", "radius"));
        assertEquals(11f, f.w.getProperty(made.get(6), "Fog", "radius"), "the batch writer's sparse value");
        // a snapshot of them restores (its chains name each sparse column once) to the same hash
        World copy = new Fixture().w;
        copy.shape(copy.component(Pos.class), copy.component(Aura.class, "Fog", Storage.SPARSE),
                copy.component(Burning.class, Storage.SPARSE));
        WorldSnapshot snapshots = new WorldSnapshot();
        snapshots.read(snapshots.write(f.w), copy);
        assertEquals(f.w.stateHash(), copy.stateHash());
    }

    @Test
    void bulkAddsAndRemovesOfASparseColumnAreSeenByName() {
        Fixture f = new Fixture();
        long[] ids = f.w.entity().with(f.pos, new Pos(0, 0)).spawnMany(6);
        f.w.add(ids[2], f.aura, new Aura(1));
        PropertyHandle radius = f.w.property("Fog", "radius");
        assertEquals(6, f.w.addToAll(f.w.query().with(f.pos).build(), f.fog));
        for (long e : ids) {
            assertSame(f.fog, f.w.findComponent(e, "Fog"));
            assertEquals(0f, radius.getFloat(e));
            f.assertIndexHoldsNoSparse(e);
        }
        assertEquals(List.of("Pos", "Aura", "Fog"), f.names.namesOf(Entity.index(ids[2])));
        assertEquals(1, f.w.removeFromAll(f.w.query().with(f.aura).build(), f.fog));
        assertNull(f.w.findComponent(ids[2], "Fog"));
        assertThrows(IllegalArgumentException.class, () -> radius.getFloat(ids[2]));
        assertEquals(0f, radius.getFloat(ids[3]));
    }

    @Test
    void pairsLeaveSparseColumnsAloneAndCleanupDespawnsChildrenOutOfTheirSets() {
        Fixture f = new Fixture();
        long parent = f.w.spawn(new Pos(0, 0));
        f.w.add(parent, f.burning, new Burning(1));
        long[] children = new long[4];
        for (int i = 0; i < children.length; i++) {
            children[i] = f.w.spawn(new Pos(i, 0));
            f.w.add(children[i], f.fog, new Aura(i));
            f.w.relations().add(children[i], f.childOf, parent);
        }
        long grandchild = f.w.spawn(new Pos(9, 9));
        f.w.add(grandchild, f.burning, new Burning(2));
        f.w.relations().add(grandchild, f.childOf, children[1]);
        long bystander = f.w.spawn(new Pos(5, 5));
        f.w.add(bystander, f.fog, new Aura(50));
        assertEquals(List.of("Pos", "ChildOf", "Fog"), f.names.namesOf(Entity.index(children[0])));
        assertEquals(2f, f.w.getProperty(children[2], "Fog", "radius"), "a pair's move keeps the sparse value");
        f.w.relations().remove(children[3], f.childOf, parent);
        assertEquals(3f, f.w.getProperty(children[3], "Fog", "radius"));
        assertEquals(List.of("Pos", "Fog"), f.names.namesOf(Entity.index(children[3])));

        f.w.despawn(parent); // ChildOf's cleanup despawns the children and the grandchild
        for (long e : new long[] {parent, children[0], children[1], children[2], grandchild}) {
            assertFalse(f.w.isAlive(e), Entity.toString(e));
            assertEquals(0, f.w.storage().sparse().heldBy(Entity.index(e)), Entity.toString(e));
        }
        assertEquals(2, f.w.storage().sparse().of(f.fog).size(), "children[3] and the bystander");
        assertEquals(0, f.w.storage().sparse().of(f.burning).size());
        PropertyHandle radius = f.w.property("Fog", "radius");
        for (int i = 0; i < 5; i++) {
            long reused = f.w.spawn(new Pos(0, 0));
            assertNull(f.w.findComponent(reused, "Fog"), Entity.toString(reused));
            assertNull(f.w.findComponent(reused, "Burning"), Entity.toString(reused));
            assertThrows(IllegalArgumentException.class, () -> radius.getFloat(reused));
        }
        assertEquals(50f, radius.getFloat(bystander));

        // the same through a command buffer's despawn
        long p2 = f.w.spawn(new Pos(0, 0));
        long c2 = f.w.spawn(new Pos(0, 0));
        f.w.add(c2, f.fog, new Aura(7));
        f.w.relations().add(c2, f.childOf, p2);
        CommandBuffer buf = new CommandBuffer(0);
        buf.despawn(p2);
        f.w.apply(buf);
        assertFalse(f.w.isAlive(c2));
        assertEquals(2, f.w.storage().sparse().of(f.fog).size());
    }

    @Test
    void propertyWritesOfASparseFieldCheckItsRangeAndValidators() {
        World w = new World();
        w.component(Pos.class);
        Component<Shield> shield = w.component(Shield.class, "Ward", Storage.SPARSE);
        w.validator(shield.field("charge"), (entity, field, bits) -> bits == 7 ? "seven is unlucky" : null);
        long e = w.spawn(new Pos(0, 0));
        w.add(e, shield, new Shield(5));
        PropertyHandle charge = w.property("Ward", "charge");
        assertThrows(dev.orrery.ecs.component.InvalidFieldValueException.class, () -> charge.setInt(e, 11));
        assertThrows(dev.orrery.ecs.component.InvalidFieldValueException.class, () -> w.setProperty(e, "Ward", "charge", 7));
        assertEquals(new Shield(5), w.get(e, shield), "nothing was written");
        w.setProperty(e, "Ward", "charge", 9);
        assertEquals(9, charge.getInt(e));
    }

    @Test
    void aRestoredWorldsSparseColumnsLeaveWithADespawnAndAReusedIndexInheritsNone() {
        Fixture f = new Fixture();
        long e = f.w.spawn(new Pos(0, 0));
        f.w.add(e, f.fog, new Aura(3));
        f.w.add(e, f.burning, new Burning(4));
        long other = f.w.spawn(new Pos(1, 1));
        f.w.add(other, f.fog, new Aura(5));
        Fixture copy = new Fixture();
        PropertyHandle radius = copy.w.property("Fog", "radius"); // made before the restore
        WorldSnapshot snapshots = new WorldSnapshot();
        snapshots.read(snapshots.write(f.w), copy.w);
        assertEquals(3f, radius.getFloat(e));
        assertEquals(5f, radius.getFloat(other));
        copy.w.despawn(e);
        assertEquals(0, copy.w.storage().sparse().heldBy(Entity.index(e)));
        long reused = copy.w.spawn(new Pos(2, 2));
        assertEquals(Entity.index(e), Entity.index(reused), "precondition: the index is reused");
        assertFalse(copy.w.has(reused, copy.fog) || copy.w.has(reused, copy.burning));
        assertNull(copy.w.findComponent(reused, "Fog"));
        assertThrows(IllegalArgumentException.class, () -> radius.getFloat(reused));
        assertEquals(List.of("Pos"), copy.names.namesOf(Entity.index(reused)));
        assertEquals(5f, radius.getFloat(other));
    }
}
