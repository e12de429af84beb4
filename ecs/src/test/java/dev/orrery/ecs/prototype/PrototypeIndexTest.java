package dev.orrery.ecs.prototype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PrototypeIndexTest {
    // the article's example: two managers for RenderData, one for Transform
    static final int TRANSFORM_MANAGER = 1;
    static final int RENDER_DATA_1 = 2;
    static final int RENDER_DATA_2 = 3;
    static final int TRANSFORM = 0x1111;
    static final int FOG = 0x2222;
    static final int VIGNETTE = 0x3333;

    private static void buildLamp(PrototypeIndex index, int entity, int renderData) {
        index.register(entity, TRANSFORM_MANAGER, TRANSFORM);
        index.register(entity, renderData, FOG);
        index.register(entity, renderData, VIGNETTE);
    }

    @Test
    void shouldShareOnePrototypeBetweenEntitiesBuiltInTheSameOrder() {
        PrototypeIndex index = new PrototypeIndex();
        buildLamp(index, 1, RENDER_DATA_1);
        buildLamp(index, 2, RENDER_DATA_1);
        buildLamp(index, 3, RENDER_DATA_2);
        assertEquals(index.prototypeOf(1), index.prototypeOf(2));
        assertNotEquals(index.prototypeOf(1), index.prototypeOf(3));
        // P0..P3 for the first two, P4 and P5 for the third: the article's registry
        assertEquals(6, index.prototypeCount());
        assertEquals(index.base(index.base(index.prototypeOf(1))), index.base(index.base(index.prototypeOf(3))));
        assertEquals(3, index.depth(index.prototypeOf(3)));
    }

    @Test
    void shouldFindEachNamedInstanceByWalkingTheChain() {
        for (boolean cached : new boolean[] {true, false}) {
            PrototypeIndex index = new PrototypeIndex(cached);
            buildLamp(index, 7, RENDER_DATA_2);
            assertEquals(TRANSFORM_MANAGER, index.find(7, TRANSFORM));
            assertEquals(RENDER_DATA_2, index.find(7, FOG));
            assertEquals(RENDER_DATA_2, index.find(7, VIGNETTE));
            assertEquals(RENDER_DATA_2, index.find(7, FOG), "second (cached) look-up");
            assertEquals(PrototypeIndex.NOT_FOUND, index.find(7, 0x9999));
            assertEquals(PrototypeIndex.NOT_FOUND, index.find(8, FOG));
            assertEquals(PrototypeIndex.NOT_FOUND, index.find(1 << 20, FOG));
            assertArrayEquals(new int[] {TRANSFORM_MANAGER, RENDER_DATA_2, RENDER_DATA_2}, index.columnsOf(7));
        }
    }

    @Test
    void shouldRejectASecondInstanceUnderOneNameAndChangeNothing() {
        PrototypeIndex index = new PrototypeIndex();
        buildLamp(index, 1, RENDER_DATA_1);
        int before = index.prototypeOf(1);
        int count = index.prototypeCount();
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> index.register(1, RENDER_DATA_2, FOG));
        assertTrue(ex.getMessage().contains("entity index 1") && ex.getMessage().contains("unique"), ex.getMessage());
        assertEquals(before, index.prototypeOf(1));
        assertEquals(count, index.prototypeCount());
    }

    @Test
    void shouldRegisterATemplateOnManyEntitiesWithOneChainWalk() {
        PrototypeIndex index = new PrototypeIndex();
        int[] entities = new int[10_000];
        for (int i = 0; i < entities.length; i++) {
            entities[i] = i;
        }
        int[] columns = {TRANSFORM_MANAGER, RENDER_DATA_1, RENDER_DATA_1};
        int[] names = {TRANSFORM, FOG, VIGNETTE};
        index.registerAll(entities, 0, entities.length, columns, names);
        assertEquals(1, index.batchWalks());
        int p = index.prototypeOf(0);
        assertEquals(p, index.prototypeOf(9_999));
        assertEquals(entities.length, index.references(p));
        buildLamp(index, 20_000, RENDER_DATA_1);
        assertEquals(p, index.prototypeOf(20_000), "one-at-a-time registration reaches the same prototype");
        assertEquals(4, index.prototypeCount());
    }

    @Test
    void shouldRegisterAFreshRangeLikeOneEntityAtATime() {
        PrototypeIndex index = new PrototypeIndex();
        int[] columns = {TRANSFORM_MANAGER, RENDER_DATA_1, RENDER_DATA_1};
        int[] names = {TRANSFORM, FOG, VIGNETTE};
        index.registerSpawnedRange(100, 5_000, columns, names);
        assertEquals(1, index.batchWalks());
        int p = index.prototypeOf(100);
        assertEquals(p, index.prototypeOf(5_099));
        assertEquals(PrototypeIndex.EMPTY, index.prototypeOf(99), "the range starts where it says");
        assertEquals(PrototypeIndex.EMPTY, index.prototypeOf(5_100), "and ends where it says");
        assertEquals(5_000, index.references(p));
        buildLamp(index, 20_000, RENDER_DATA_1);
        assertEquals(p, index.prototypeOf(20_000), "one-at-a-time registration reaches the same prototype");
        assertEquals(RENDER_DATA_1, index.find(4_000, VIGNETTE));
    }

    @Test
    void shouldCheckEachEntityOfARangeWhenOneAlreadyHoldsAnInstance() {
        PrototypeIndex index = new PrototypeIndex();
        index.register(7, TRANSFORM_MANAGER, TRANSFORM);
        IllegalArgumentException clash = assertThrows(IllegalArgumentException.class,
                () -> index.registerSpawnedRange(5, 4, new int[] {RENDER_DATA_1}, new int[] {TRANSFORM}));
        assertTrue(clash.getMessage().contains("entity index 7"), clash.getMessage());
        assertEquals(PrototypeIndex.EMPTY, index.prototypeOf(5), "a refused range changes nothing");
        index.registerSpawnedRange(5, 4, new int[] {RENDER_DATA_1}, new int[] {FOG});
        assertEquals(RENDER_DATA_1, index.find(5, FOG));
        assertEquals(TRANSFORM_MANAGER, index.find(7, TRANSFORM), "the entity that held one keeps it");
        assertEquals(RENDER_DATA_1, index.find(7, FOG));
        assertNotEquals(index.prototypeOf(5), index.prototypeOf(7));
        assertEquals(3, index.references(index.prototypeOf(5)));
        assertThrows(IllegalArgumentException.class,
                () -> index.registerSpawnedRange(Integer.MAX_VALUE - 1, 4, new int[] {RENDER_DATA_1}, new int[] {FOG}));
    }

    @Test
    void shouldRejectARepeatedNameInABatchAndChangeNothing() {
        PrototypeIndex index = new PrototypeIndex();
        index.register(5, TRANSFORM_MANAGER, TRANSFORM);
        assertThrows(IllegalArgumentException.class, () -> index.registerAll(new int[] {1, 2}, 0, 2,
                new int[] {RENDER_DATA_1, RENDER_DATA_1}, new int[] {FOG, FOG}));
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> index.registerAll(
                new int[] {1, 5}, 0, 2, new int[] {RENDER_DATA_1, TRANSFORM_MANAGER}, new int[] {FOG, TRANSFORM}));
        assertTrue(ex.getMessage().contains("entity index 5"), ex.getMessage());
        assertEquals(PrototypeIndex.EMPTY, index.prototypeOf(1));
        assertEquals(2, index.prototypeCount());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> index.registerAll(
                new int[] {1, 2, 1}, 0, 3, new int[] {RENDER_DATA_1}, new int[] {FOG}));
        assertTrue(twice.getMessage().contains("entity index 1 is listed twice"), twice.getMessage());
        assertEquals(PrototypeIndex.EMPTY, index.prototypeOf(1));
        assertEquals(PrototypeIndex.EMPTY, index.prototypeOf(2));
        assertEquals(TRANSFORM_MANAGER, index.find(5, TRANSFORM), "marks are undone on refusal");
        assertEquals(2, index.prototypeCount());
    }

    @Test
    void shouldUnregisterTheNewestOrAnOlderInstanceAndKeepTheRest() {
        PrototypeIndex index = new PrototypeIndex();
        buildLamp(index, 1, RENDER_DATA_1);
        buildLamp(index, 2, RENDER_DATA_1);
        assertEquals(RENDER_DATA_1, index.unregister(1, VIGNETTE));
        assertEquals(PrototypeIndex.NOT_FOUND, index.find(1, VIGNETTE));
        assertEquals(RENDER_DATA_1, index.find(1, FOG));
        assertEquals(RENDER_DATA_1, index.unregister(2, FOG));
        assertEquals(PrototypeIndex.NOT_FOUND, index.find(2, FOG));
        assertEquals(RENDER_DATA_1, index.find(2, VIGNETTE));
        assertEquals(TRANSFORM_MANAGER, index.find(2, TRANSFORM));
        assertArrayEquals(new int[] {TRANSFORM_MANAGER, RENDER_DATA_1}, index.columnsOf(2));
        assertEquals(PrototypeIndex.NOT_FOUND, index.unregister(2, FOG));
        assertEquals(1, index.reclaimUnused());
        // P0, Transform, Transform+Fog (entity 1), Transform+Vignette (entity 2): the full lamp is gone
        assertEquals(4, index.prototypeCount());
    }

    @Test
    void shouldReclaimEveryPrototypeWhenItsLastEntityIsReleased() {
        PrototypeIndex index = new PrototypeIndex();
        buildLamp(index, 1, RENDER_DATA_1);
        buildLamp(index, 2, RENDER_DATA_2);
        index.release(1);
        assertEquals(6, index.prototypeCount(), "freeing waits for a batch");
        assertEquals(2, index.reclaimUnused());
        assertEquals(4, index.prototypeCount(), "P0, Transform and entity 2's two links stay");
        assertEquals(PrototypeIndex.NOT_FOUND, index.find(1, TRANSFORM));
        index.release(2);
        index.reclaimUnused();
        assertEquals(1, index.prototypeCount());
        buildLamp(index, 3, RENDER_DATA_1);
        assertEquals(RENDER_DATA_1, index.find(3, VIGNETTE), "reused handles serve the new description");
    }

    @Test
    void shouldNotServeACachedAnswerForAReusedHandle() {
        PrototypeIndex index = new PrototypeIndex(true);
        index.register(1, RENDER_DATA_1, FOG);
        int p = index.prototypeOf(1);
        int epoch = index.reclaimEpoch();
        assertEquals(RENDER_DATA_1, index.find(1, FOG));
        index.release(1);
        index.reclaimUnused();
        index.register(2, RENDER_DATA_2, FOG);
        assertEquals(p, index.prototypeOf(2), "the freed handle is reused");
        assertNotEquals(epoch, index.reclaimEpoch());
        assertEquals(RENDER_DATA_2, index.find(2, FOG));
    }

    @Test
    void shouldGiveEveryDescriptionItsOwnIdWhenTheMixerAlwaysCollides() {
        PrototypeIndex index = new PrototypeIndex(true, (base, column, name) -> 42L);
        buildLamp(index, 1, RENDER_DATA_1);
        buildLamp(index, 2, RENDER_DATA_2);
        Set<Long> ids = new HashSet<>();
        for (int e = 1; e <= 2; e++) {
            for (int p = index.prototypeOf(e); p != PrototypeIndex.EMPTY; p = index.base(p)) {
                ids.add(index.id(p));
                assertEquals(p, index.prototypeWithId(index.id(p)));
            }
        }
        assertEquals(5, ids.size(), "five descriptions, five ids");
        assertTrue(index.idCollisions() > 0);
        assertEquals(RENDER_DATA_2, index.find(2, VIGNETTE));
        // free the prototype that holds the natural id; the others must still be found, not duplicated
        int holder = index.prototypeWithId(42L);
        assertNotEquals(PrototypeIndex.NOT_FOUND, holder);
        index.release(1);
        index.reclaimUnused();
        buildLamp(index, 3, RENDER_DATA_2);
        assertEquals(index.prototypeOf(2), index.prototypeOf(3));
        assertEquals(4, index.prototypeCount());
        index.release(2);
        index.release(3);
        index.reclaimUnused();
        assertEquals(1, index.prototypeCount());
    }

    @Test
    void shouldReviveAQueuedPrototypeInsteadOfRebuildingIt() {
        PrototypeIndex index = new PrototypeIndex();
        buildLamp(index, 1, RENDER_DATA_1);
        int lamp = index.prototypeOf(1);
        int epoch = index.reclaimEpoch();
        for (int i = 0; i < 1000; i++) { // a tag added and removed every tick
            index.register(1, 9, 0x7A6);
            assertEquals(RENDER_DATA_1, index.unregister(1, 0x7A6) == 9 ? index.find(1, FOG) : -2);
        }
        assertEquals(lamp, index.prototypeOf(1));
        assertEquals(epoch, index.reclaimEpoch(), "nothing was freed, so the look-up cache survived");
        assertEquals(5, index.prototypeCount());
    }

    @Test
    void shouldBoundTheUnusedPrototypesWaitingForReclamation() {
        PrototypeIndex index = new PrototypeIndex();
        for (int i = 0; i < 1000; i++) {
            index.register(1, i, 0x100 + i);
            index.release(1);
        }
        assertTrue(index.prototypeCount() <= 1 + PrototypeIndex.RECLAIM_BATCH, "count " + index.prototypeCount());
        assertTrue(index.pendingReclamation() <= PrototypeIndex.RECLAIM_BATCH);
        index.reclaimUnused();
        assertEquals(1, index.prototypeCount());
        assertEquals(0, index.pendingReclamation());
    }

    @Test
    void shouldCountTableBytesFromTheArrays() {
        PrototypeIndex index = new PrototypeIndex();
        long empty = index.tableBytes();
        for (int i = 0; i < 200; i++) {
            index.register(i, i, 0x100 + i); // 200 distinct one-link prototypes force growth
        }
        assertTrue(index.tableBytes() > empty, index.tableBytes() + " > " + empty);
        assertEquals(PrototypeIndex.arrayBytes(3, 4), 32L);
        assertEquals(201, index.prototypeCount());
    }

    @Test
    void shouldNotReuseAMemoizedTransitionWhoseHandleWasReclaimedAndReused() {
        PrototypeIndex index = new PrototypeIndex();
        int first = index.register(1, TRANSFORM_MANAGER, TRANSFORM); // remembered: EMPTY + Transform
        index.release(1);
        index.reclaimUnused(); // frees it; its handle is next in line
        index.registerAll(new int[] {2}, 0, 1, new int[] {RENDER_DATA_1}, new int[] {FOG}); // takes the handle
        assertEquals(first, index.prototypeOf(2), "the freed handle was reused");
        int again = index.register(3, TRANSFORM_MANAGER, TRANSFORM);
        assertNotEquals(first, again, "the remembered transition died with its prototype");
        assertEquals(TRANSFORM_MANAGER, index.find(3, TRANSFORM));
        assertEquals(PrototypeIndex.NOT_FOUND, index.find(3, FOG));
        assertEquals(RENDER_DATA_1, index.find(2, FOG));
    }

    @Test
    void shouldTakeTheSameTransitionForEntitiesMovedOneByOne() {
        PrototypeIndex index = new PrototypeIndex();
        for (int e = 0; e < 100; e++) {
            index.register(e, TRANSFORM_MANAGER, TRANSFORM);
            index.register(e, RENDER_DATA_1, FOG);
        }
        for (int e = 0; e < 100; e++) {
            assertEquals(index.prototypeOf(99), index.prototypeOf(e), "not moved yet: the old prototype");
            index.unregister(e, FOG);
            index.register(e, RENDER_DATA_2, FOG); // a different column under the same name
        }
        for (int e = 0; e < 100; e++) {
            assertEquals(RENDER_DATA_2, index.find(e, FOG));
            assertEquals(index.prototypeOf(0), index.prototypeOf(e), "every move took the same transition");
        }
        assertEquals(2, index.depth(index.prototypeOf(0)));
        index.reclaimUnused();
        assertEquals(3, index.prototypeCount(), "P0, Transform and Transform + Fog(2) are live");
    }
}
