package dev.orrery.ecs.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.StaleEntityException;
import org.junit.jupiter.api.Test;

class EntityTableTest {
    private static long allocateAt(EntityTable t, int archetype, int chunk, int row) {
        long e = t.allocate();
        t.place(Entity.index(e), archetype, chunk, row);
        return e;
    }

    @Test
    void shouldHandOutDenseIndicesStartingAtGenerationOne() {
        EntityTable t = new EntityTable();
        for (int i = 0; i < 5; i++) {
            long e = allocateAt(t, 0, 0, i);
            assertEquals(i, Entity.index(e));
            assertEquals(1, Entity.generation(e));
            assertTrue(t.isAlive(e));
        }
        assertEquals(5, t.aliveCount());
        assertEquals(5, t.highWater());
    }

    @Test
    void shouldRecycleFreedIndicesFirstInFirstOutWithBumpedGenerations() {
        EntityTable t = new EntityTable();
        long[] ids = new long[6];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = allocateAt(t, 0, 0, i);
        }
        t.release(ids[4]);
        t.release(ids[1]);
        t.release(ids[3]);
        assertArrayEquals(new int[] {4, 1, 3}, t.freeListInOrder());
        assertArrayEquals(new int[] {4, 1, 3}, t.freeListInOrder(), "reading the free list must not reorder it");

        long a = allocateAt(t, 0, 0, 0);
        long b = allocateAt(t, 0, 0, 1);
        long c = allocateAt(t, 0, 0, 2);
        long d = allocateAt(t, 0, 0, 3);
        assertEquals(Entity.of(4, 2), a);
        assertEquals(Entity.of(1, 2), b);
        assertEquals(Entity.of(3, 2), c);
        assertEquals(Entity.of(6, 1), d, "a fresh index once the free list is empty");
        assertEquals(7, t.highWater());
    }

    @Test
    void shouldGiveTheSameIdsForTheSameOperationSequence() {
        long[] first = runScript(new EntityTable());
        long[] second = runScript(new EntityTable());
        assertArrayEquals(first, second);
    }

    private static long[] runScript(EntityTable t) {
        long[] out = new long[40];
        long[] live = new long[40];
        int n = 0;
        for (int i = 0; i < out.length; i++) {
            if (i % 3 == 2 && n > 0) {
                t.release(live[--n]);
            }
            out[i] = allocateAt(t, 0, 0, i);
            live[n++] = out[i];
        }
        return out;
    }

    @Test
    void shouldReportReleasedIdAsStaleEvenAfterItsIndexIsReused() {
        EntityTable t = new EntityTable();
        long old = allocateAt(t, 1, 2, 3);
        t.release(old);
        assertFalse(t.isAlive(old));
        long fresh = allocateAt(t, 4, 5, 6);
        assertEquals(Entity.index(old), Entity.index(fresh));
        assertFalse(t.isAlive(old));
        assertTrue(t.isAlive(fresh));
        StaleEntityException ex = assertThrows(StaleEntityException.class, () -> t.require(old, "get Position"));
        assertTrue(ex.getMessage().contains(Entity.toString(old)), ex.getMessage());
        assertTrue(ex.getMessage().contains("get Position"), ex.getMessage());
        assertEquals(Entity.index(fresh), t.require(fresh, "get"));
    }

    @Test
    void shouldRejectNullOutOfRangeAndForgedIds() {
        EntityTable t = new EntityTable();
        assertFalse(t.isAlive(Entity.NULL));
        long e = allocateAt(t, 0, 0, 0);
        assertFalse(t.isAlive(Entity.of(1, 1)), "never allocated");
        assertFalse(t.isAlive(Entity.of(-1, 1)), "negative index");
        assertFalse(t.isAlive(Entity.of(0, 2)), "future generation");
        assertFalse(t.isAlive(Entity.of(Entity.index(e), 0)), "generation 0 is never handed out");
        assertEquals(Entity.NULL, t.idAt(1));
        assertEquals(Entity.NULL, t.idAt(-1));
        assertEquals(e, t.idAt(0));
    }

    @Test
    void shouldTrackLocationsAndRowMoves() {
        EntityTable t = new EntityTable();
        long e = allocateAt(t, 3, 1, 9);
        int i = Entity.index(e);
        assertEquals(3, t.archetype(i));
        assertEquals(1, t.chunk(i));
        assertEquals(9, t.row(i));
        t.moveRow(i, 0, 4);
        assertEquals(3, t.archetype(i));
        assertEquals(0, t.chunk(i));
        assertEquals(4, t.row(i));
    }

    @Test
    void shouldGrowBeyondInitialCapacityAndKeepNewSlotsDead() {
        EntityTable t = new EntityTable();
        int n = 5000;
        for (int i = 0; i < n; i++) {
            allocateAt(t, 0, i / 100, i % 100);
        }
        assertEquals(n, t.aliveCount());
        assertEquals(49, t.chunk(4999));
        assertEquals(99, t.row(4999));
        t.ensureCapacity(20_000);
        assertFalse(t.isAlive(Entity.of(10_000, 0)));
        assertEquals(Entity.NULL, t.idAt(10_000));
        for (int i = 0; i < n; i++) { // every record survived the growths, fields not mixed up
            assertEquals(Entity.of(i, 1), t.idAt(i));
            assertEquals(0, t.archetype(i));
            assertEquals(i / 100, t.chunk(i));
            assertEquals(i % 100, t.row(i));
        }
        t.moveRow(17, 7, 70);
        assertEquals(7, t.chunk(17));
        assertEquals(70, t.row(17));
        assertEquals(0, t.chunk(16));
        assertEquals(0, t.chunk(18));
    }

    @Test
    void shouldCountAliveEntitiesAcrossReleaseAndReuse() {
        EntityTable t = new EntityTable();
        long a = allocateAt(t, 0, 0, 0);
        allocateAt(t, 0, 0, 1);
        t.release(a);
        assertEquals(1, t.aliveCount());
        allocateAt(t, 0, 0, 0);
        assertEquals(2, t.aliveCount());
        assertEquals(2, t.highWater());
    }

    @Test
    void shouldSkipGenerationZeroWhenTheGenerationWraps() throws ReflectiveOperationException {
        EntityTable t = new EntityTable();
        long first = allocateAt(t, 0, 0, 0);
        t.release(first);
        // index 0's record starts the table, and its generation is the record's first int
        java.lang.reflect.Field gens = EntityTable.class.getDeclaredField("slots");
        gens.setAccessible(true);
        ((int[]) gens.get(t))[0] = Integer.MAX_VALUE;
        long negative = allocateAt(t, 0, 0, 0);
        assertEquals(Integer.MIN_VALUE, Entity.generation(negative), "generations may run into the negative range");
        assertTrue(t.isAlive(negative));
        t.release(negative);
        ((int[]) gens.get(t))[0] = -1;
        long wrapped = allocateAt(t, 0, 0, 0);
        assertEquals(1, Entity.generation(wrapped), "generation 0 is skipped: it would make index 0 Entity.NULL");
        assertTrue(t.isAlive(wrapped));
        assertFalse(t.isAlive(Entity.NULL));
    }

    @Test
    void shouldPredictTheNextAllocationWhetherNewReusedOrWrapped() {
        EntityTable t = new EntityTable();
        java.util.List<Long> live = new java.util.ArrayList<>();
        java.util.Random rnd = new java.util.Random(3);
        for (int step = 0; step < 5000; step++) {
            if (!live.isEmpty() && rnd.nextInt(3) == 0) {
                t.release(live.remove(rnd.nextInt(live.size())));
            } else {
                long predicted = t.nextId();
                long e = allocateAt(t, 0, 0, step);
                assertEquals(predicted, e, "step " + step);
                live.add(e);
            }
        }
        // An index whose generation is about to wrap: the next id skips generation 0.
        EntityTable w = new EntityTable();
        w.restore(new int[] {-1}, new int[] {0});
        long predicted = w.nextId();
        assertEquals(predicted, w.allocate());
        assertEquals(1, Entity.generation(predicted));
    }
    @Test
    void shouldRetireASlotAtItsLastGenerationSoAStaleIdNeverLivesAgain() {
        // Slot 0 has served 2^32 - 2 generations; 0v1, its first entity, is long stale.
        long first = Entity.of(0, 1);
        EntityTable t = new EntityTable();
        t.restore(new int[] {EntityTable.LAST_GENERATION - 1}, new int[] {0});
        long last = allocateAt(t, 0, 0, 0);
        assertEquals(0, Entity.index(last));
        assertEquals(EntityTable.LAST_GENERATION, Entity.generation(last), "0xFFFFFFFF is the slot's last generation");
        t.release(last);
        assertTrue(t.isRetired(0));
        assertEquals(Entity.of(1, 1), t.nextId(), "the retired slot is not reused");
        long next = allocateAt(t, 0, 0, 1);
        assertEquals(1, Entity.index(next));
        assertFalse(t.isAlive(first), "the generation did not wrap: the first id of slot 0 stays stale");
        assertFalse(t.isAlive(last));
        assertArrayEquals(new int[0], t.freeListInOrder());
        assertEquals(1, t.aliveCount());
        t.release(next);
        assertArrayEquals(new int[] {1}, t.freeListInOrder(), "other slots are reused as before");
    }
}
