package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.StaleEntityException;
import dev.orrery.ecs.storage.EntityTable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Spawning, despawning, adding and removing through the world, and the location table it keeps. */
class WorldStructureTest {
    record Position(float x, float y, float z) {
    }

    record Velocity(float x, float y, float z) {
    }

    record Stats(int level, long xp, double mass) {
    }

    record Frozen() {
    }

    /** A record whose accessor refuses a negative level, as a user's validating record might. */
    record Checked(int level, long xp) {
        @Override
        public long xp() {
            if (level < 0) {
                throw new IllegalStateException("negative level " + level);
            }
            return xp;
        }
    }

    record Label(String text) {
    }

    static final class Mesh {
        final String name;

        Mesh(String name) {
            this.name = name;
        }
    }

    /** Asserts that every live entity's table entry points at a row holding that entity, and that rows are dense. */
    static void assertLocationsConsistent(World w) {
        EntityTable t = w.storage().entityTable();
        int total = 0;
        for (int ai = 0; ai < w.storage().archetypes().count(); ai++) {
            Archetype a = w.storage().archetypes().get(ai);
            int rows = 0;
            for (int ci = 0; ci < a.chunkCount(); ci++) {
                Chunk c = a.chunk(ci);
                assertTrue(c.size() > 0, a + " chunk " + ci + " is in use but empty");
                if (ci + 1 < a.chunkCount()) {
                    assertEquals(a.chunkCapacity(), c.size(), a + " chunk " + ci + " is not the last, so it is full");
                }
                for (int r = 0; r < c.size(); r++) {
                    long e = c.entity(r);
                    assertTrue(w.isAlive(e), "row holds a dead entity " + Entity.toString(e));
                    int idx = Entity.index(e);
                    assertEquals(ai, t.archetype(idx), "archetype of " + Entity.toString(e));
                    assertEquals(ci, t.chunk(idx), "chunk of " + Entity.toString(e));
                    assertEquals(r, t.row(idx), "row of " + Entity.toString(e));
                }
                rows += c.size();
            }
            assertEquals(a.size(), rows, a + " size");
            total += rows;
        }
        assertEquals(w.entityCount(), total, "entity count");
    }

    @Test
    void shouldRelocateTheSwappedEntityOnDespawnAcrossChunks() {
        World w = new World(256);
        Component<Position> pos = w.component(Position.class);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            ids.add(w.spawn(new Position(i, -i, i * 0.5f)));
        }
        Archetype a = w.archetypeOf(ids.get(0));
        assertEquals(16, a.chunkCapacity());
        assertEquals(3, a.chunkCount());
        long last = ids.get(39);
        w.despawn(ids.get(3));
        int idx = Entity.index(last);
        assertEquals(0, w.storage().entityTable().chunk(idx));
        assertEquals(3, w.storage().entityTable().row(idx));
        assertEquals(new Position(39, -39, 19.5f), w.get(last, pos));
        for (int i = 0; i < 40; i++) {
            if (i != 3) {
                assertEquals(new Position(i, -i, i * 0.5f), w.get(ids.get(i), pos), "entity " + i);
            }
        }
        // empty the last chunk, then remove from the first one again
        for (int i = 32; i < 39; i++) {
            w.despawn(ids.get(i));
        }
        assertEquals(2, a.chunkCount(), "the third chunk emptied");
        w.despawn(ids.get(0));
        assertEquals(new Position(31, -31, 15.5f), w.get(ids.get(31), pos));
        assertEquals(0, w.storage().entityTable().chunk(Entity.index(ids.get(31))));
        assertLocationsConsistent(w);
    }

    @Test
    void shouldRelocateTheSwappedEntityWhenAComponentIsRemovedOrAdded() {
        World w = new World(256);
        Component<Position> pos = w.component(Position.class);
        Component<Velocity> vel = w.component(Velocity.class);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(w.spawn(new Position(i, 0, 0), new Velocity(0, i, 0)));
        }
        assertTrue(w.remove(ids.get(1), vel));
        assertEquals(new Position(1, 0, 0), w.get(ids.get(1), pos));
        assertFalse(w.has(ids.get(1), vel));
        assertEquals(new Velocity(0, 19, 0), w.get(ids.get(19), vel), "the last row moved into the hole");
        assertEquals(1, w.storage().entityTable().row(Entity.index(ids.get(19))));
        w.add(ids.get(1), vel, new Velocity(7, 7, 7));
        assertEquals(new Velocity(7, 7, 7), w.get(ids.get(1), vel));
        assertEquals(new Position(1, 0, 0), w.get(ids.get(1), pos));
        for (int i = 0; i < 20; i++) {
            assertEquals(new Position(i, 0, 0), w.get(ids.get(i), pos), "entity " + i);
        }
        assertLocationsConsistent(w);
    }

    @Test
    void shouldAddComponentsWithZeroValuesWhenNoValueIsGiven() {
        World w = new World();
        Component<Stats> stats = w.component(Stats.class);
        Component<Mesh> mesh = w.referenceComponent(Mesh.class);
        long e = w.spawn();
        w.add(e, stats);
        w.add(e, mesh);
        assertEquals(new Stats(0, 0, 0), w.get(e, stats));
        assertNull(w.get(e, mesh));
    }

    @Test
    void shouldMoveToAnArchetypeInOneStepKeepingSharedValues() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Velocity> vel = w.component(Velocity.class);
        Component<Frozen> frozen = w.component(Frozen.class);
        long e = w.spawn(new Position(1, 2, 3), new Velocity(4, 5, 6));
        Archetype target = w.storage().archetypes().of(pos, frozen);
        w.moveTo(e, target);
        assertSame(target, w.archetypeOf(e));
        assertEquals(new Position(1, 2, 3), w.get(e, pos));
        assertFalse(w.has(e, vel));
        assertTrue(w.has(e, frozen));
        w.moveTo(e, target);
        assertSame(target, w.archetypeOf(e));
        assertLocationsConsistent(w);
    }

    @Test
    void shouldRefuseEveryOperationOnAStaleIdWithoutServingTheNewOccupant() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Velocity> vel = w.component(Velocity.class);
        long old = w.spawn(new Position(1, 1, 1));
        w.despawn(old);
        long fresh = w.spawn(new Position(2, 2, 2), new Velocity(3, 3, 3));
        assertEquals(Entity.index(old), Entity.index(fresh), "the slot was reused");
        assertEquals(Entity.generation(old) + 1, Entity.generation(fresh));
        assertFalse(w.isAlive(old));
        Field px = pos.field("x");
        List<Executable> ops = List.of(
                () -> w.get(old, pos),
                () -> w.set(old, pos, new Position(9, 9, 9)),
                () -> w.has(old, pos),
                () -> w.add(old, vel),
                () -> w.remove(old, vel),
                () -> w.despawn(old),
                () -> w.archetypeOf(old),
                () -> w.getFloat(old, px),
                () -> w.setFloat(old, px, 9f),
                () -> w.getBits(old, px),
                () -> w.setBits(old, px, 0L),
                () -> w.getValue(old, px),
                () -> w.moveTo(old, w.storage().archetypes().empty()));
        long before = w.stateHash();
        for (Executable op : ops) {
            StaleEntityException ex = assertThrows(StaleEntityException.class, op);
            assertTrue(ex.getMessage().contains(Entity.toString(old)), ex.getMessage());
        }
        assertEquals(before, w.stateHash(), "refused operations changed nothing");
        assertEquals(new Position(2, 2, 2), w.get(fresh, pos));
        assertThrows(StaleEntityException.class, () -> w.get(Entity.NULL, pos));
        assertThrows(StaleEntityException.class, () -> w.get(Entity.of(500, 1), pos));
    }

    @Test
    void shouldReuseIdsFirstInFirstOut() {
        World w = new World();
        long[] ids = new long[5];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = w.spawn();
        }
        w.despawn(ids[3]);
        w.despawn(ids[0]);
        w.despawn(ids[4]);
        assertEquals(Entity.of(3, 2), w.spawn());
        assertEquals(Entity.of(0, 2), w.spawn());
        assertEquals(Entity.of(4, 2), w.spawn());
        assertEquals(Entity.of(5, 1), w.spawn());
    }

    @Test
    void shouldRefuseAddingAComponentTheEntityHolds() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        long e = w.spawn(new Position(1, 2, 3));
        IllegalStateException ex = assertThrows(IllegalStateException.class, () -> w.add(e, pos, new Position(0, 0, 0)));
        assertTrue(ex.getMessage().contains("already holds") && ex.getMessage().contains("Position"), ex.getMessage());
        assertEquals(new Position(1, 2, 3), w.get(e, pos));
    }

    @Test
    void shouldNameTheMissingComponentOnGetAndSet() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Velocity> vel = w.component(Velocity.class);
        long e = w.spawn(new Position(1, 2, 3));
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> w.get(e, vel));
        assertTrue(ex.getMessage().contains("Velocity") && ex.getMessage().contains(Entity.toString(e)), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> w.set(e, vel, new Velocity(0, 0, 0)));
        assertThrows(IllegalArgumentException.class, () -> w.getFloat(e, vel.field("x")));
        assertFalse(w.has(e, vel));
        assertTrue(w.has(e, pos));
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void shouldRefuseAValueOfAnotherTypeAndChangeNothing() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component raw = w.component(Velocity.class);
        long e = w.spawn(new Position(1, 2, 3));
        long before = w.stateHash();
        assertThrows(IllegalArgumentException.class, () -> w.add(e, raw, new Position(0, 0, 0)));
        assertEquals(before, w.stateHash(), "refused add changed nothing");
        assertThrows(IllegalArgumentException.class, () -> w.entity().with(raw, new Position(0, 0, 0)).spawn());
        assertThrows(IllegalArgumentException.class, () -> w.entity().with(raw, new Position(0, 0, 0)).spawnMany(4));
        assertThrows(NullPointerException.class, () -> w.set(e, pos, null));
        assertEquals(1, w.entityCount());
        assertFalse(w.has(e, raw));
        assertEquals(new Position(1, 2, 3), w.get(e, pos));
    }

    @Test
    void shouldReadAndWriteSingleFieldsByType() {
        World w = new World();
        Component<Stats> stats = w.component(Stats.class);
        long e = w.spawn(new Stats(1, 2L, 3.5));
        w.setInt(e, stats.field("level"), 10);
        w.setLong(e, stats.field("xp"), Long.MAX_VALUE);
        w.setDouble(e, stats.field("mass"), -0.0);
        assertEquals(10, w.getInt(e, stats.field("level")));
        assertEquals(Long.MAX_VALUE, w.getLong(e, stats.field("xp")));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(w.getDouble(e, stats.field("mass"))));
        assertEquals(new Stats(10, Long.MAX_VALUE, -0.0), w.get(e, stats));
        assertEquals(10, w.getValue(e, stats.field("level")));
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> w.getFloat(e, stats.field("level")));
        assertTrue(ex.getMessage().contains("Stats.level"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> w.setInt(e, stats.field("mass"), 1));
    }

    @Test
    void shouldStoreTagsAsMembershipOnly() {
        World w = new World();
        Component<Frozen> frozen = w.component(Frozen.class);
        assertEquals(ComponentKind.TAG, frozen.kind());
        long e = w.spawn(new Frozen());
        assertTrue(w.has(e, frozen));
        assertNull(w.get(e, frozen));
        w.set(e, frozen, new Frozen());
        assertTrue(w.remove(e, frozen));
        assertFalse(w.has(e, frozen));
        w.add(e, frozen);
        assertTrue(w.has(e, frozen));
    }

    @Test
    void shouldStoreReferenceComponentsByIdentity() {
        World w = new World();
        Component<Mesh> mesh = w.referenceComponent(Mesh.class);
        Mesh m = new Mesh("cube");
        long e = w.spawn(m);
        assertSame(m, w.get(e, mesh));
        Mesh n = new Mesh("sphere");
        w.set(e, mesh, n);
        assertSame(n, w.get(e, mesh));
        assertSame(n, w.getValue(e, mesh.field("value")));
    }

    @Test
    void shouldSpawnARecordRegisteredAsAReferenceComponent() {
        World w = new World();
        Component<Label> label = w.referenceComponent(Label.class);
        long e = w.spawn(new Label("crate"));
        assertTrue(w.has(e, label));
        assertEquals(new Label("crate"), w.get(e, label));
    }

    @Test
    void shouldRefuseSpawningAnUnregisteredNonRecord() {
        World w = new World();
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> w.spawn(new Mesh("x")));
        assertTrue(ex.getMessage().contains("referenceComponent"), ex.getMessage());
        assertEquals(0, w.entityCount());
    }

    @Test
    void shouldRefuseARecordWithAnObjectFieldAsValueNamingTheField() {
        World w = new World();
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> w.component(Label.class));
        assertTrue(ex.getMessage().contains("'text'"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> w.spawn(new Label("x")));
    }

    @Test
    void shouldCountLiveEntities() {
        World w = new World();
        assertEquals(0, w.entityCount());
        long a = w.spawn();
        w.spawn(new Position(0, 0, 0));
        w.entity().with(w.component(Velocity.class)).spawnMany(10);
        assertEquals(12, w.entityCount());
        w.despawn(a);
        assertEquals(11, w.entityCount());
        assertLocationsConsistent(w);
    }

    @Test
    void anAddWithAValueIntoAReusedRowHoldsOnlyThatValue() {
        World w = new World(512);
        Component<Position> pos = w.component(Position.class);
        Component<Stats> stats = w.component(Stats.class);
        Component<Checked> checked = w.component(Checked.class);
        long[] old = new long[30];
        for (int i = 0; i < old.length; i++) {
            old[i] = w.spawn(new Position(i, i, i), new Stats(i + 1, i * 10L, i * 0.5));
        }
        for (long e : old) {
            w.remove(e, stats); // each row of the (Position, Stats) archetype is vacated with its values in place
        }
        long[] fresh = new long[30];
        for (int i = 0; i < fresh.length; i++) {
            fresh[i] = w.spawn(new Position(-i, 0, 0));
            w.add(fresh[i], stats, new Stats(7, 0, 0)); // moves into a reused row: the value must replace every field
        }
        for (long e : fresh) {
            assertEquals(new Stats(7, 0, 0), w.get(e, stats));
        }
        long e = w.spawn(new Position(1, 2, 3));
        w.add(e, checked, new Checked(5, 6));
        w.remove(e, checked); // the Checked row keeps (5, 6) behind its end
        long bad = w.spawn(new Position(4, 5, 6));
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> w.add(bad, checked, new Checked(-1, 6)));
        assertEquals("negative level -1", thrown.getMessage());
        assertFalse(w.has(bad, checked), "an add whose record accessor threw did not happen");
        assertEquals(new Position(4, 5, 6), w.get(bad, pos));
        w.add(bad, checked);
        assertEquals(new Checked(0, 0), w.get(bad, checked),
                "a later add without a value holds zero, not the failed value's nor a former row's");
    }
}
