package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import org.junit.jupiter.api.Test;

class EntityBuilderTest {
    record Position(float x, float y, float z) {
    }

    record AllKinds(boolean flag, byte b, short s, char c, int i, float f, long l, double d) {
    }

    record RenderData(float density, int color) {
    }

    record Frozen() {
    }

    /** Compared by value, so the state hash (which uses hashCode) sees equal meshes as equal. */
    record Mesh(String name) {
    }

    private static final AllKinds KINDS = new AllKinds(true, (byte) -1, (short) 300, 'k', -9, -0.0f, 1L << 40, Math.PI);

    /** A world with the same registrations, some live entities and a non-trivial free list. */
    private static World prepared() {
        World w = new World(512);
        w.component(Position.class);
        w.component(AllKinds.class);
        w.component(RenderData.class, "Fog");
        w.component(RenderData.class, "Vignette");
        w.component(Frozen.class);
        w.referenceComponent(Mesh.class);
        long[] pre = new long[50];
        for (int i = 0; i < pre.length; i++) {
            pre[i] = w.spawn(new Position(i, i, i));
        }
        for (int i = 0; i < pre.length; i += 3) {
            w.despawn(pre[i]);
        }
        return w;
    }

    private static EntityBuilder template(World w) {
        return w.entity()
                .with(w.component(AllKinds.class), KINDS)
                .with(w.component(RenderData.class, "Vignette"), new RenderData(0.5f, 7))
                .with(w.component(RenderData.class, "Fog"))
                .with(w.component(Frozen.class))
                .with(w.referenceComponent(Mesh.class), new Mesh("rock"));
    }

    @Test
    void shouldSpawnManyWithTheSameStateAsSpawningOneByOne() {
        World bulk = prepared();
        World single = prepared();
        assertEquals(bulk.stateHash(), single.stateHash(), "precondition: equal starting worlds");
        int n = 100; // more than the free list (17) and more than one chunk
        long[] bulkIds = template(bulk).spawnMany(n);
        EntityBuilder one = template(single);
        long[] singleIds = new long[n];
        for (int i = 0; i < n; i++) {
            singleIds[i] = one.spawn();
        }
        assertArrayEquals(singleIds, bulkIds);
        assertTrue(bulk.archetypeOf(bulkIds[0]).chunkCount() > 1, "the bulk spawn crossed a chunk boundary");
        assertEquals(single.entityCount(), bulk.entityCount());
        assertEquals(single.stateHash(), bulk.stateHash());
        WorldStructureTest.assertLocationsConsistent(bulk);
        Component<AllKinds> kinds = bulk.component(AllKinds.class);
        Component<RenderData> fog = bulk.component(RenderData.class, "Fog");
        Component<Mesh> mesh = bulk.referenceComponent(Mesh.class);
        for (long e : bulkIds) {
            assertEquals(KINDS, bulk.get(e, kinds));
            assertEquals(new RenderData(0, 0), bulk.get(e, fog));
            assertEquals(new Mesh("rock"), bulk.get(e, mesh));
        }
    }

    @Test
    void shouldReuseFreedIdsFirstInFirstOutInBulk() {
        World w = new World();
        long[] first = w.entity().spawnMany(6);
        w.despawn(first[4]);
        w.despawn(first[1]);
        long[] again = w.entity().spawnMany(3);
        assertArrayEquals(new long[] {Entity.of(4, 2), Entity.of(1, 2), Entity.of(6, 1)}, again);
    }

    @Test
    void shouldSpawnNothingForZeroAndRefuseNegativeCounts() {
        World w = prepared();
        long hash = w.stateHash();
        EntityBuilder b = w.entity().with(w.component(Position.class), new Position(1, 1, 1));
        assertEquals(0, b.spawnMany(0).length);
        assertEquals(hash, w.stateHash());
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> b.spawnMany(-1));
        assertTrue(ex.getMessage().contains("-1"), ex.getMessage());
        assertEquals(hash, w.stateHash());
    }

    @Test
    void shouldBeReusableAndPlaceEntitiesInTheirFinalArchetypeAtOnce() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Frozen> frozen = w.component(Frozen.class);
        EntityBuilder b = w.entity().with(pos, new Position(1, 2, 3));
        long a = b.spawn();
        b.with(frozen);
        long c = b.spawn();
        assertEquals(new Position(1, 2, 3), w.get(a, pos));
        assertEquals(new Position(1, 2, 3), w.get(c, pos));
        assertSame(w.storage().archetypes().of(pos, frozen), w.archetypeOf(c));
        assertSame(b.archetype(), w.archetypeOf(c));
        assertEquals(3, w.storage().archetypes().count(), "empty, {pos}, {pos, frozen}: no intermediate archetypes");
    }

    @Test
    void shouldSpawnManyIntoAPartlyFilledChunk() {
        World w = new World(256);
        Component<Position> pos = w.component(Position.class);
        long first = w.spawn(new Position(-1, -1, -1));
        long[] ids = w.entity().with(pos, new Position(5, 6, 7)).spawnMany(40);
        assertEquals(41, w.archetypeOf(first).size());
        assertEquals(new Position(-1, -1, -1), w.get(first, pos));
        for (long e : ids) {
            assertEquals(new Position(5, 6, 7), w.get(e, pos));
        }
        WorldStructureTest.assertLocationsConsistent(w);
    }

    @Test
    void shouldBeReusableWithNewValuesAndResetForAnotherShape() {
        World viaBuilder = prepared();
        World viaValues = prepared();
        Component<Position> pos = viaBuilder.component(Position.class);
        Component<RenderData> fog = viaBuilder.component(RenderData.class, "Fog");
        Component<Frozen> frozen = viaBuilder.component(Frozen.class);
        EntityBuilder b = viaBuilder.entity().with(pos).with(fog, new RenderData(1, 1));
        Archetype archetype = b.archetype();
        long[] ids = new long[40];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = b.set(pos, new Position(i, -i, 2 * i)).set(fog, i % 3 == 0 ? null : new RenderData(i, i)).spawn();
            EntityBuilder fresh = viaValues.entity()
                    .with(viaValues.component(Position.class), new Position(i, -i, 2 * i));
            Component<RenderData> otherFog = viaValues.component(RenderData.class, "Fog");
            (i % 3 == 0 ? fresh.with(otherFog) : fresh.with(otherFog, new RenderData(i, i))).spawn();
        }
        assertSame(archetype, b.archetype(), "set keeps the builder's archetype");
        assertEquals(new Position(39, -39, 78), viaBuilder.get(ids[39], pos));
        assertEquals(new RenderData(0, 0), viaBuilder.get(ids[0], fog), "a null value spawns zero");
        long tagged = b.reset().with(frozen).with(pos, new Position(7, 7, 7)).spawn();
        viaValues.entity().with(viaValues.component(Frozen.class))
                .with(viaValues.component(Position.class), new Position(7, 7, 7)).spawn();
        assertTrue(viaBuilder.has(tagged, frozen));
        assertFalse(viaBuilder.has(tagged, fog), "reset forgot the old columns");
        assertEquals(viaValues.stateHash(), viaBuilder.stateHash());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> b.set(fog, new RenderData(0, 0)));
        assertTrue(missing.getMessage().contains("with("), missing.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> b.with(frozen));
        assertTrue(twice.getMessage().contains("set("), twice.getMessage());
        assertEquals(viaValues.stateHash(), viaBuilder.stateHash(), "refused calls change nothing");
    }
}
