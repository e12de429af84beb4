package dev.orrery.ecs.archetype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.component.Entity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArchetypeTest {
    record Position(float x, float y, float z) {
    }

    record Big(long a, long b, long c, long d, long e, long f, long g, long h) {
    }

    record Frozen() {
    }

    static final class Mesh {
    }

    private final ComponentRegistry registry = new ComponentRegistry();

    private <T extends Record> Component<T> value(Class<T> type) {
        ComponentType<T> t = registry.valueType(type);
        return registry.column(t, t.name());
    }

    private <T> Component<T> reference(Class<T> type) {
        ComponentType<T> t = registry.referenceType(type);
        return registry.column(t, t.name());
    }

    @Test
    void shouldSizeChunksAsLargestPowerOfTwoWithinTheBudget() {
        Archetypes all = new Archetypes(Archetypes.DEFAULT_CHUNK_BYTES);
        Component<Position> pos = value(Position.class);
        Component<Big> big = value(Big.class);
        Component<Frozen> frozen = value(Frozen.class);
        Component<Mesh> mesh = reference(Mesh.class);
        assertCapacity(all.empty(), 8);
        assertCapacity(all.of(pos), 8 + 12);
        assertCapacity(all.of(big), 8 + 64);
        assertCapacity(all.of(pos, frozen), 8 + 12);
        assertCapacity(all.of(pos, mesh), 8 + 12 + 4);
        assertCapacity(all.of(pos, big, mesh, frozen), 8 + 12 + 64 + 4);
        assertEquals(1 << 15, all.empty().chunkCapacity());
        assertEquals(8192, all.of(pos).chunkCapacity());
    }

    private static void assertCapacity(Archetype a, int rowBytes) {
        int cap = a.chunkCapacity();
        assertEquals(1, Integer.bitCount(cap), a + " capacity " + cap + " is a power of two");
        assertTrue((long) cap * rowBytes <= Archetypes.DEFAULT_CHUNK_BYTES, a + " fits the budget");
        assertTrue((long) 2 * cap * rowBytes > Archetypes.DEFAULT_CHUNK_BYTES, a + " is the largest that fits");
    }

    @Test
    void shouldKeepAtLeastSixteenRowsAndAtMostSixtyFourKiRows() {
        assertEquals(16, Archetype.capacityFor(256, 1000));
        assertEquals(16, Archetype.capacityFor(16 * 1024, 16 * 1024));
        assertEquals(1 << 16, Archetype.capacityFor(Integer.MAX_VALUE, 8));
        assertEquals(1024, Archetype.capacityFor(16 * 1024, 9));
    }

    private static final class Locations implements Archetype.RowSink {
        final List<long[]> placed = new ArrayList<>();

        @Override
        public void placed(long entity, int chunk, int row) {
            placed.add(new long[] {entity, chunk, row});
        }
    }

    @Test
    void shouldAppendRowsDenselyAcrossChunks() {
        Archetypes all = new Archetypes(256);
        Component<Position> pos = value(Position.class);
        Archetype a = all.of(pos);
        assertEquals(16, a.chunkCapacity());
        for (int i = 0; i < 40; i++) {
            long loc = a.appendRow(Entity.of(i, 1));
            assertEquals(i / 16, (int) (loc >>> 32));
            assertEquals(i % 16, (int) loc);
        }
        assertEquals(40, a.size());
        assertEquals(3, a.chunkCount());
        assertEquals(16, a.chunk(0).size());
        assertEquals(16, a.chunk(1).size());
        assertEquals(8, a.chunk(2).size());
        assertEquals(Entity.of(17, 1), a.chunk(1).entity(1));
        assertEquals(16, a.chunk(2).capacity());
    }

    @Test
    void shouldSwapLastRowIntoHoleAcrossChunkBoundary() {
        Archetypes all = new Archetypes(256);
        Component<Position> pos = value(Position.class);
        Archetype a = all.of(pos);
        for (int i = 0; i < 33; i++) {
            long loc = a.appendRow(Entity.of(i, 1));
            float[] x = (float[]) a.chunk((int) (loc >>> 32)).array(0, 0);
            x[(int) loc] = i;
        }
        assertEquals(3, a.chunkCount());
        long moved = a.removeRow(0, 5);
        assertEquals(Entity.of(32, 1), moved);
        assertEquals(Entity.of(32, 1), a.chunk(0).entity(5));
        assertEquals(32f, ((float[]) a.chunk(0).array(0, 0))[5]);
        assertEquals(2, a.chunkCount(), "the emptied last chunk is no longer in use");
        assertEquals(32, a.size());

        moved = a.removeRow(1, 15);
        assertEquals(Entity.NULL, moved, "removing the very last row moves nothing");
        assertEquals(15, a.chunk(1).size());

        moved = a.removeRow(1, 3);
        assertEquals(Entity.of(30, 1), moved);
        assertEquals(30f, ((float[]) a.chunk(1).array(0, 0))[3]);
        assertEquals(14, a.chunk(1).size());
    }

    @Test
    void shouldReuseAnEmptiedChunkWithZeroedRows() {
        Archetypes all = new Archetypes(256);
        Component<Position> pos = value(Position.class);
        Component<Mesh> mesh = reference(Mesh.class);
        Archetype a = all.of(pos, mesh);
        int posSlot = a.slotOf(pos.id());
        int meshSlot = a.slotOf(mesh.id());
        for (int i = 0; i < 17; i++) {
            long loc = a.appendRow(Entity.of(i, 1));
            Chunk c = a.chunk((int) (loc >>> 32));
            ((float[]) c.array(posSlot, 0))[(int) loc] = 7f;
            ((Object[]) c.array(meshSlot, 0))[(int) loc] = new Mesh();
        }
        Chunk second = a.chunk(1);
        a.removeRow(1, 0);
        assertNull(((Object[]) second.array(meshSlot, 0))[0], "a removed reference is cleared so it can be collected");
        assertEquals(1, a.chunkCount());
        long loc = a.appendRow(Entity.of(99, 1));
        assertEquals(1L << 32, loc);
        assertEquals(0f, ((float[]) a.chunk(1).array(posSlot, 0))[0], "an appended row starts zeroed");
        assertNull(((Object[]) a.chunk(1).array(meshSlot, 0))[0]);
    }

    @Test
    void shouldBulkAppendFilledRowsAndReportEveryLocation() {
        Archetypes all = new Archetypes(256);
        Component<Position> pos = value(Position.class);
        Component<Mesh> mesh = reference(Mesh.class);
        Component<Frozen> frozen = value(Frozen.class);
        Archetype a = all.of(pos, mesh, frozen);
        a.appendRow(Entity.of(100, 1));
        long[] ids = new long[40];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = Entity.of(i, 1);
        }
        long[][] bits = new long[a.columnCount()][];
        Object[] refs = new Object[a.columnCount()];
        for (int s = 0; s < a.columnCount(); s++) {
            bits[s] = new long[a.component(s).type().fieldCount()];
        }
        int ps = a.slotOf(pos.id());
        bits[ps] = new long[] {Float.floatToRawIntBits(1f), Float.floatToRawIntBits(2f), Float.floatToRawIntBits(3f)};
        Mesh shared = new Mesh();
        refs[a.slotOf(mesh.id())] = shared;
        Locations sink = new Locations();
        a.appendRows(ids, 5, 30, bits, refs, sink);
        assertEquals(31, a.size());
        assertEquals(30, sink.placed.size());
        for (int k = 0; k < 30; k++) {
            long[] p = sink.placed.get(k);
            assertEquals(ids[5 + k], p[0]);
            int chunk = (int) p[1];
            int row = (int) p[2];
            assertEquals((k + 1) / 16, chunk);
            assertEquals((k + 1) % 16, row);
            Chunk c = a.chunk(chunk);
            assertEquals(ids[5 + k], c.entity(row));
            assertEquals(new Position(1, 2, 3), pos.type().read(c.columnArrays(ps), row));
            assertEquals(shared, ((Object[]) c.array(a.slotOf(mesh.id()), 0))[row]);
        }
    }

    @Test
    void shouldCopyOnlySharedColumnsToAnotherArchetype() {
        Archetypes all = new Archetypes(256);
        Component<Position> pos = value(Position.class);
        Component<Big> big = value(Big.class);
        Component<Mesh> mesh = reference(Mesh.class);
        Archetype from = all.of(pos, mesh);
        Archetype to = all.of(pos, big);
        long src = from.appendRow(Entity.of(1, 1));
        Chunk fc = from.chunk(0);
        pos.type().write(new Position(4, 5, 6), fc.columnArrays(from.slotOf(pos.id())), (int) src);
        long dst = to.appendRow(Entity.of(1, 1));
        from.copyShared(0, (int) src, to, 0, (int) dst);
        Chunk tc = to.chunk(0);
        assertEquals(new Position(4, 5, 6), pos.type().read(tc.columnArrays(to.slotOf(pos.id())), (int) dst));
        assertEquals(new Big(0, 0, 0, 0, 0, 0, 0, 0), big.type().read(tc.columnArrays(to.slotOf(big.id())), (int) dst));
    }

    @Test
    void shouldKeepColumnsSortedById() {
        Archetypes all = new Archetypes(Archetypes.DEFAULT_CHUNK_BYTES);
        Component<Position> pos = value(Position.class);
        Component<Big> big = value(Big.class);
        Component<Frozen> frozen = value(Frozen.class);
        Archetype a = all.of(frozen, pos, big);
        for (int s = 0; s + 1 < a.columnCount(); s++) {
            assertTrue(a.columnId(s) < a.columnId(s + 1));
        }
        assertEquals(List.of(pos, big, frozen), a.components());
        assertTrue(a.slotOf(999) < 0);
        assertTrue(a.has(big.id()));
    }

    @Test
    void shouldGrowOnlyTheFirstChunkKeepingItsRows() {
        Archetypes all = new Archetypes(Archetypes.DEFAULT_CHUNK_BYTES);
        Archetype a = all.of(value(Position.class));
        int full = a.chunkCapacity();
        for (int i = 0; i < full + 1; i++) {
            a.appendRow(Entity.of(i, 1));
            if (i == Archetype.FIRST_CHUNK_ROWS) {
                assertEquals(1, a.chunkCount());
                assertEquals(2 * Archetype.FIRST_CHUNK_ROWS, a.chunk(0).capacity(), "first chunk doubled");
            }
        }
        assertEquals(2, a.chunkCount());
        assertEquals(full, a.chunk(0).capacity());
        assertEquals(full, a.chunk(1).capacity(), "later chunks start at full capacity");
        for (int i = 0; i < full; i++) {
            assertEquals(Entity.of(i, 1), a.chunk(0).entity(i), "row " + i + " kept through growth");
        }
        assertEquals(Entity.of(full, 1), a.chunk(1).entity(0));
    }

    @Test
    void shouldFindEverySlotAndNoneForColumnsTheArchetypeLacks() {
        Archetypes all = new Archetypes(Archetypes.DEFAULT_CHUNK_BYTES);
        Component<Position> pos = value(Position.class);
        Component<Big> big = value(Big.class);
        Component<Frozen> frozen = value(Frozen.class);
        Component<Mesh> mesh = reference(Mesh.class);
        Component<?>[] every = {pos, big, frozen, mesh};
        // Every subset, so each column is sometimes the largest id held and sometimes absent.
        for (int set = 0; set < 1 << every.length; set++) {
            List<Component<?>> held = new ArrayList<>();
            for (int i = 0; i < every.length; i++) {
                if ((set & 1 << i) != 0) {
                    held.add(every[i]);
                }
            }
            Archetype a = all.of(held.toArray(new Component<?>[0]));
            for (int s = 0; s < a.columnCount(); s++) {
                assertEquals(s, a.slotOf(a.columnId(s)), a + " slot of column " + a.columnId(s));
            }
            for (Component<?> c : every) {
                assertEquals(held.contains(c), a.has(c.id()), a + " has " + c);
                assertEquals(held.contains(c), a.slotOf(c.id()) >= 0, a + " slot of " + c);
            }
            assertTrue(a.slotOf(-1) < 0, a + " slot of -1");
            assertTrue(a.slotOf(registry.columnCount() + 5) < 0, a + " slot of an unregistered id");
        }
    }
}
