package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.ecs.storage.EntityTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The world's sparse storage: registration, the structural calls, by-id access, names, spawns, the hash. */
class SparseStorageTest {
    record Pos(float x, float y) {
    }

    record Burning(float dps, int ticksLeft) {
    }

    record Stunned() {
    }

    record Aura(float radius) {
    }

    /** A record whose accessor refuses a negative value, as a user's validating record might. */
    record Charge(int amount) {
        @Override
        public int amount() {
            if (amount < 0) {
                throw new IllegalStateException("negative charge " + amount);
            }
            return amount;
        }
    }

    @Test
    void shouldWriteEveryFieldOfAnAddedValueAndUndoAnAddWhoseValueCannotBeRead() {
        World w = new World();
        Component<Charge> charge = w.component(Charge.class, Storage.SPARSE);
        Field amount = charge.field("amount");
        long a = w.spawn();
        long b = w.spawn();
        w.add(a, charge, new Charge(7));
        w.remove(a, charge); // its 7 stays behind in the dense position the next add takes
        w.add(b, charge, new Charge(3));
        assertEquals(3, w.getInt(b, amount), "the added value, not what the position held");
        w.remove(b, charge);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> w.add(b, charge, new Charge(-1)));
        assertEquals("negative charge -1", refused.getMessage());
        assertFalse(w.has(b, charge), "an add whose value could not be read did not happen");
        w.add(b, charge);
        assertEquals(0, w.getInt(b, amount), "an add without a value starts from zero, not from the 3 left behind");
    }

    static final class Fixture {
        final World w = new World();
        final Component<Pos> pos = w.component(Pos.class);
        final Component<Burning> burning = w.component(Burning.class, Storage.SPARSE);
        final Component<Stunned> stunned = w.component(Stunned.class, Storage.SPARSE);
    }

    @Test
    void registrationRecordsTheStorageAndRefusesAnotherOne() {
        Fixture f = new Fixture();
        assertEquals(Storage.TABLE, f.pos.storage());
        assertEquals(Storage.SPARSE, f.burning.storage());
        assertSame(f.burning, f.w.component(Burning.class, Storage.SPARSE));
        assertSame(f.burning, f.w.component(Burning.class), "the storage-less form returns the existing column");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> f.w.component(Pos.class, Storage.SPARSE));
        assertTrue(e.getMessage().contains("Pos") && e.getMessage().contains("TABLE")
                && e.getMessage().contains("SPARSE"), e.getMessage());
        Component<Aura> fog = f.w.component(Aura.class, "Fog", Storage.SPARSE);
        assertEquals("Fog", fog.name());
        IllegalArgumentException clash = assertThrows(IllegalArgumentException.class,
                () -> f.w.component(Pos.class, "Fog"));
        assertTrue(clash.getMessage().contains("Fog") && clash.getMessage().contains("unique"), clash.getMessage());
        assertThrows(IllegalArgumentException.class, () -> f.w.component(Burning.class, "Pos", Storage.SPARSE));
        assertEquals(Storage.SPARSE, f.w.referenceComponent(String.class, Storage.SPARSE).storage());
    }

    @Test
    void addAndRemoveNeverMoveTheRow() {
        Fixture f = new Fixture();
        long a = f.w.spawn(new Pos(1, 2));
        long b = f.w.spawn(new Pos(3, 4));
        EntityTable t = f.w.storage().entityTable();
        Archetype arch = f.w.archetypeOf(b);
        int row = t.row(Entity.index(b));
        int archetypes = f.w.storage().archetypes().count();
        f.w.add(b, f.burning, new Burning(2.5f, 7));
        f.w.add(b, f.stunned);
        f.w.add(a, f.stunned);
        assertSame(arch, f.w.archetypeOf(b));
        assertEquals(row, t.row(Entity.index(b)));
        assertEquals(archetypes, f.w.storage().archetypes().count(), "no archetype was made for a sparse column");
        assertTrue(f.w.has(b, f.burning) && f.w.has(b, f.stunned) && f.w.has(a, f.stunned));
        assertFalse(f.w.has(a, f.burning));
        assertEquals(new Burning(2.5f, 7), f.w.get(b, f.burning));
        assertTrue(f.w.remove(b, f.burning));
        assertFalse(f.w.remove(b, f.burning), "removing twice reports no change");
        assertFalse(f.w.has(b, f.burning));
        assertSame(arch, f.w.archetypeOf(b));
        assertEquals(row, t.row(Entity.index(b)));
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> f.w.add(a, f.stunned));
        assertTrue(twice.getMessage().contains("Stunned"), twice.getMessage());
    }

    @Test
    void valuesAreReadAndWrittenById() {
        Fixture f = new Fixture();
        long e = f.w.spawn(new Pos(0, 0));
        long other = f.w.spawn(new Pos(0, 0));
        f.w.add(other, f.burning, new Burning(9, 9));
        f.w.add(e, f.burning);
        assertEquals(new Burning(0, 0), f.w.get(e, f.burning), "added zeroed");
        Field dps = f.burning.field("dps");
        Field left = f.burning.field("ticksLeft");
        f.w.setFloat(e, dps, 1.5f);
        f.w.setInt(e, left, 3);
        assertEquals(1.5f, f.w.getFloat(e, dps));
        assertEquals(3, f.w.getInt(e, left));
        assertEquals(3, f.w.getValue(e, left));
        f.w.set(e, f.burning, new Burning(4, 5));
        assertEquals(new Burning(4, 5), f.w.get(e, f.burning));
        assertEquals(new Burning(9, 9), f.w.get(other, f.burning), "each entity has its own values");
        f.w.remove(other, f.burning); // e's values move to another dense position
        assertEquals(new Burning(4, 5), f.w.get(e, f.burning));
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> f.w.get(other, f.burning));
        assertTrue(missing.getMessage().contains("Burning") && missing.getMessage().contains("sparse"),
                missing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> f.w.setFloat(other, dps, 1));
        f.w.add(other, f.burning);
        assertEquals(new Burning(0, 0), f.w.get(other, f.burning), "a re-add starts from zero");
    }

    @Test
    void namedSparseInstancesAreSeenByNameLookUps() {
        World w = new World();
        w.component(Pos.class);
        Component<Aura> fog = w.component(Aura.class, "Fog", Storage.SPARSE);
        long e = w.spawn(new Pos(0, 0));
        assertNull(w.findComponent(e, "Fog"));
        w.add(e, fog, new Aura(3));
        assertSame(fog, w.findComponent(e, "Fog"));
        assertEquals(3f, w.getProperty(e, "Fog", "radius"));
        w.setProperty(e, "Fog", "radius", 5f);
        assertEquals(new Aura(5), w.get(e, fog));
        assertEquals(5f, w.property("Fog", "radius").getFloat(e));
        w.remove(e, fog);
        assertNull(w.findComponent(e, "Fog"));
        assertThrows(IllegalArgumentException.class, () -> w.getProperty(e, "Fog", "radius"));
    }

    @Test
    void sparseAddsAndRemovesLeaveTheEntitysPrototypeAloneAndNamesListSparseOnesLast() {
        World w = new World();
        Component<Pos> pos = w.component(Pos.class);
        Component<Aura> fog = w.component(Aura.class, "Fog", Storage.SPARSE);
        Component<Stunned> stunned = w.component(Stunned.class, Storage.SPARSE);
        long e = w.spawn(new Pos(0, 0));
        long plain = w.spawn(new Pos(1, 1));
        dev.orrery.ecs.prototype.NamedInstances names = w.storage().namedInstances();
        int before = names.index().prototypeOf(Entity.index(e));
        w.add(e, stunned);
        w.add(e, fog, new Aura(2));
        assertEquals(before, names.index().prototypeOf(Entity.index(e)), "a sparse add does not move the prototype");
        assertEquals(names.index().prototypeOf(Entity.index(plain)), names.index().prototypeOf(Entity.index(e)),
                "entities that differ only in sparse columns share a prototype");
        w.remove(e, pos);
        w.add(e, pos, new Pos(3, 3)); // a table column registered after the sparse ones
        assertEquals(List.of("Pos", "Fog", "Stunned"), names.namesOf(Entity.index(e)),
                "table instances in registration order, then sparse ones in column-id order");
        assertSame(fog, w.findComponent(e, "Fog"));
        w.remove(e, fog);
        assertNull(w.findComponent(e, "Fog"));
        assertEquals(List.of("Pos", "Stunned"), names.namesOf(Entity.index(e)));
        assertEquals(names.index().prototypeOf(Entity.index(plain)), names.index().prototypeOf(Entity.index(e)));
    }

    @Test
    void despawnDropsTheEntityFromEverySparseSet() {
        Fixture f = new Fixture();
        long e = f.w.spawn(new Pos(0, 0));
        long keep = f.w.spawn(new Pos(0, 0));
        f.w.add(e, f.burning, new Burning(1, 1));
        f.w.add(e, f.stunned);
        f.w.add(keep, f.burning, new Burning(2, 2));
        f.w.despawn(e);
        assertEquals(1, f.w.storage().sparse().of(f.burning).size());
        assertEquals(0, f.w.storage().sparse().of(f.stunned).size());
        long reused = f.w.spawn(new Pos(0, 0));
        assertEquals(Entity.index(e), Entity.index(reused), "precondition: the index is reused");
        assertFalse(f.w.has(reused, f.burning), "a new entity on a reused index inherits nothing");
        assertFalse(f.w.has(reused, f.stunned));
        assertNull(f.w.findComponent(reused, "Stunned"));
        assertEquals(new Burning(2, 2), f.w.get(keep, f.burning));
    }

    @Test
    void spawnsPlaceTableColumnsInTheArchetypeAndSparseOnesInTheirSets() {
        Fixture f = new Fixture();
        Archetype posOnly = f.w.archetypeOf(f.w.spawn(new Pos(0, 0)));
        long byValues = f.w.spawn(new Pos(1, 1), new Burning(2, 3), new Stunned());
        long byBuilder = f.w.entity().with(f.pos, new Pos(2, 2)).with(f.burning, new Burning(4, 5)).spawn();
        long[] many = f.w.entity().with(f.stunned).with(f.pos, new Pos(3, 3)).with(f.burning, new Burning(6, 7))
                .spawnMany(3);
        Template t = Template.named("burning").with(f.pos, new Pos(4, 4)).with(f.burning, new Burning(8, 9)).build();
        long byTemplate = f.w.spawn(t);
        long[] manyTemplates = f.w.spawnMany(t, 2);
        for (long e : new long[] {byValues, byBuilder, many[0], many[2], byTemplate, manyTemplates[1]}) {
            assertSame(posOnly, f.w.archetypeOf(e), Entity.toString(e));
            assertTrue(f.w.has(e, f.burning));
        }
        assertEquals(new Pos(1, 1), f.w.get(byValues, f.pos));
        assertEquals(new Burning(2, 3), f.w.get(byValues, f.burning));
        assertTrue(f.w.has(byValues, f.stunned));
        assertEquals(new Burning(4, 5), f.w.get(byBuilder, f.burning));
        assertFalse(f.w.has(byBuilder, f.stunned));
        assertEquals(new Burning(6, 7), f.w.get(many[1], f.burning));
        assertTrue(f.w.has(many[1], f.stunned));
        assertEquals(new Burning(8, 9), f.w.get(manyTemplates[0], f.burning));
        assertEquals(List.of("Pos", "Burning"), f.w.storage().namedInstances().namesOf(Entity.index(byTemplate)));
        assertEquals(2, f.w.storage().archetypes().count(), "only the empty and the Pos archetype exist");
    }

    @Test
    void aBadSparseValueLeavesTheWorldUnchanged() {
        Fixture f = new Fixture();
        f.w.spawn(new Pos(0, 0));
        long before = f.w.stateHash();
        @SuppressWarnings({"unchecked", "rawtypes"})
        Component<Object> raw = (Component) f.burning;
        assertThrows(IllegalArgumentException.class,
                () -> f.w.entity().with(f.pos, new Pos(1, 1)).with(raw, new Pos(0, 0)).spawn());
        assertEquals(1, f.w.entityCount());
        assertEquals(before, f.w.stateHash());
    }

    @Test
    void sparseAddAndRemoveAreStructuralChanges() {
        Fixture f = new Fixture();
        long e = f.w.spawn(new Pos(0, 0));
        f.w.add(e, f.burning);
        Query q = f.w.query().with(f.pos).build();
        q.forEach((view, row) -> {
            IllegalStateException add = assertThrows(IllegalStateException.class, () -> f.w.add(e, f.stunned));
            assertTrue(add.getMessage().contains("CommandBuffer"), add.getMessage());
            assertThrows(IllegalStateException.class, () -> f.w.remove(e, f.burning));
            f.w.set(e, f.burning, new Burning(1, 1)); // a value write is allowed
        });
        assertFalse(f.w.has(e, f.stunned));
        assertEquals(new Burning(1, 1), f.w.get(e, f.burning));
    }

    @Test
    void bulkAddAndRemoveOfASparseColumnFollowTheQuery() {
        Fixture f = new Fixture();
        long[] ids = f.w.entity().with(f.pos, new Pos(0, 0)).spawnMany(10);
        f.w.add(ids[3], f.stunned);
        assertEquals(10, f.w.addToAll(f.w.query().with(f.pos).build(), f.burning));
        assertEquals(1, f.w.removeFromAll(f.w.query().with(f.stunned).build(), f.burning));
        assertFalse(f.w.has(ids[3], f.burning));
        assertTrue(f.w.has(ids[4], f.burning));
        Component<Aura> aura = f.w.component(Aura.class);
        assertEquals(1, f.w.addToAll(f.w.query().with(f.stunned).build(), aura), "a table add filtered by a sparse term");
        assertTrue(f.w.has(ids[3], aura));
        assertFalse(f.w.has(ids[4], aura));
    }

    @Test
    void stateHashIsCanonicalOverSparseContents() {
        // Same state, other histories: the dense order differs, the hash does not.
        Fixture a = new Fixture();
        Fixture b = new Fixture();
        long[] ea = a.w.entity().with(a.pos, new Pos(0, 0)).spawnMany(4);
        long[] eb = b.w.entity().with(b.pos, new Pos(0, 0)).spawnMany(4);
        for (int i = 0; i < 4; i++) {
            a.w.add(ea[i], a.burning, new Burning(i, i));
        }
        for (int i = 3; i >= 0; i--) {
            b.w.add(eb[i], b.burning, new Burning(i, i));
        }
        b.w.remove(eb[1], b.burning);
        b.w.add(eb[1], b.burning, new Burning(1, 1));
        assertEquals(a.w.stateHash(), b.w.stateHash());
        assertEquals(a.w.columnHashes()[a.burning.id()], b.w.columnHashes()[b.burning.id()]);
        long before = a.w.stateHash();
        long[] columnsBefore = a.w.columnHashes();
        a.w.setInt(ea[2], a.burning.field("ticksLeft"), 99);
        assertNotEquals(before, a.w.stateHash(), "a sparse value is state");
        assertNotEquals(columnsBefore[a.burning.id()], a.w.columnHashes()[a.burning.id()]);
        assertEquals(columnsBefore[a.pos.id()], a.w.columnHashes()[a.pos.id()], "other columns' hashes stay");
        a.w.setInt(ea[2], a.burning.field("ticksLeft"), 2);
        assertEquals(before, a.w.stateHash());
        a.w.add(ea[0], a.stunned);
        assertNotEquals(before, a.w.stateHash(), "membership is state");
    }

    @Test
    void aWorldWithoutSparseColumnsHashesAsBefore() {
        World plain = new World();
        Component<Pos> pos = plain.component(Pos.class);
        plain.entity().with(pos, new Pos(1, 2)).spawnMany(5);
        long hash = plain.stateHash();
        assertEquals(dev.orrery.ecs.WorldHashes.stateHash(plain.storage().archetypes(),
                plain.storage().entityTable()), hash, "no sparse section without sparse columns");
        World withSparse = new World();
        withSparse.component(Pos.class);
        withSparse.component(Burning.class, Storage.SPARSE);
        withSparse.entity().with(withSparse.component(Pos.class), new Pos(1, 2)).spawnMany(5);
        assertNotEquals(hash, withSparse.stateHash(), "a registered sparse column is part of the state");
    }

    @Test
    void sparseAddRemoveAndReadAllocateNothingOnceWarm() {
        ThreadAllocation meter = ThreadAllocation.ofCurrentThread();
        Fixture f = new Fixture();
        long[] ids = f.w.entity().with(f.pos, new Pos(0, 0)).spawnMany(1000);
        Field dps = f.burning.field("dps");
        Runnable round = () -> {
            for (long e : ids) {
                f.w.add(e, f.burning);
                f.w.setFloat(e, dps, 2f);
            }
            for (int i = 0; i < ids.length; i += 2) {
                f.w.add(ids[i], f.stunned);
            }
            float sum = 0;
            for (long e : ids) {
                sum += f.w.getFloat(e, dps);
            }
            assertEquals(2000f, sum);
            for (int i = ids.length - 1; i >= 0; i--) {
                f.w.remove(ids[i], f.burning);
                f.w.remove(ids[i], f.stunned);
            }
        };
        for (int i = 0; i < 300; i++) {
            round.run();
        }
        long probe = meter.bytes();
        long baseline = meter.bytes() - probe;
        long quietest = Long.MAX_VALUE;
        for (int window = 0; window < 10 && quietest > 0; window++) {
            long before = meter.bytes();
            for (int i = 0; i < 20; i++) {
                round.run();
            }
            quietest = Math.min(quietest, meter.bytes() - before - baseline);
        }
        assertTrue(quietest < 100, "the quietest 20 rounds of 2500 sparse adds and removes allocated " + quietest
                + " bytes");
    }
}
