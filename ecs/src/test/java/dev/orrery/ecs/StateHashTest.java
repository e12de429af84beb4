package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.hash.StateHasher;
import dev.orrery.ecs.storage.EntityTable;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class StateHashTest {
    record AllKinds(boolean flag, byte b, short s, char c, int i, float f, long l, double d) {
    }

    record Position(float x, float y, float z) {
    }

    record Frozen() {
    }

    record Label(String text) {
    }

    private static World build(Consumer<World> extra) {
        World w = new World(256);
        Component<AllKinds> kinds = w.component(AllKinds.class);
        w.component(Position.class);
        w.component(Frozen.class);
        w.referenceComponent(Label.class);
        for (int i = 0; i < 40; i++) {
            w.entity().with(kinds, new AllKinds(i % 2 == 0, (byte) i, (short) -i, (char) ('a' + i), i * 7, i * 0.5f,
                    -i * 11L, i / 3.0)).with(w.component(Position.class), new Position(i, i, i)).spawn();
        }
        w.spawn(new Position(0, 0, 0), new Frozen(), new Label("x"));
        w.despawn(idAt(w, 3));
        w.despawn(idAt(w, 17));
        extra.accept(w);
        return w;
    }

    /** The live id at index {@code i}. */
    private static long idAt(World w, int i) {
        return w.storage().entityTable().idAt(i);
    }

    @Test
    void shouldBeEqualForWorldsBuiltTheSameWay() {
        assertEquals(build(w -> { }).stateHash(), build(w -> { }).stateHash());
        World w = build(w2 -> { });
        assertEquals(w.stateHash(), w.stateHash(), "hashing does not change the state");
    }

    @Test
    void shouldDifferWhenAnyOneBitOfAnyFieldDiffers() {
        World base = build(w -> { });
        long reference = base.stateHash();
        Component<AllKinds> kinds = base.component(AllKinds.class);
        long target = idAt(base, 20);
        for (Field f : kinds.fields()) {
            int width = f.type().bytes() * 8;
            for (int bit : new int[] {0, width - 1}) {
                if (f.type() == FieldType.BOOLEAN && bit > 0) {
                    continue;
                }
                World w = build(x -> { });
                Field own = w.component(AllKinds.class).field(f.index()); // each world's own handle
                long original = w.getBits(target, own);
                w.setBits(target, own, original ^ (1L << bit));
                assertNotEquals(reference, w.stateHash(), "flipping bit " + bit + " of " + f);
                w.setBits(target, own, original);
                assertEquals(reference, w.stateHash(), "restoring " + f);
            }
        }
    }

    @Test
    void shouldTellPositiveFromNegativeZero() {
        World a = build(w -> w.setFloat(idAt(w, 0), w.component(Position.class).field("x"), 0.0f));
        World b = build(w -> w.setFloat(idAt(w, 0), w.component(Position.class).field("x"), -0.0f));
        assertNotEquals(a.stateHash(), b.stateHash());
    }

    @Test
    void shouldDifferWhenEntitiesAreOrderedDifferently() {
        World a = build(w -> {
            long x = idAt(w, 5);
            long y = idAt(w, 6);
            w.remove(x, w.component(Position.class));
            w.remove(y, w.component(Position.class));
        });
        World b = build(w -> {
            long x = idAt(w, 5);
            long y = idAt(w, 6);
            w.remove(y, w.component(Position.class));
            w.remove(x, w.component(Position.class));
        });
        assertNotEquals(a.stateHash(), b.stateHash(), "same entities and values, other rows");
    }

    @Test
    void shouldCoverGenerationsAndTheFreeList() {
        World a = build(w -> {
            w.despawn(w.spawn());
        });
        World b = build(w -> { });
        assertNotEquals(a.stateHash(), b.stateHash(), "same live entities, but a generation and the free list differ");
        World c = build(w -> {
            w.despawn(idAt(w, 5));
            w.despawn(idAt(w, 6));
        });
        World d = build(w -> {
            w.despawn(idAt(w, 6));
            w.despawn(idAt(w, 5));
        });
        assertNotEquals(c.stateHash(), d.stateHash(), "free-list order decides future ids, so it is state");
    }

    /**
     * Two worlds whose rows, high-water mark and generations are identical and whose free
     * lists hold the same two indices in opposite orders: x and y each live alone in an
     * archetype, so despawning them moves no other row.
     */
    private static World freedInOrder(boolean xFirst) {
        World w = new World(256);
        w.spawn(new Position(1, 2, 3));
        long x = w.spawn(new Frozen());
        long y = w.spawn(new Position(4, 5, 6), new Frozen());
        w.spawn(new Position(7, 8, 9));
        w.despawn(xFirst ? x : y);
        w.despawn(xFirst ? y : x);
        return w;
    }

    /** Two worlds alike but for the generation of one dead slot: b reused it once more. */
    private static World deadSlotReused(int times) {
        World w = new World(256);
        w.spawn(new Position(1, 2, 3));
        w.spawn(new Position(7, 8, 9));
        for (int i = 0; i < times; i++) {
            w.despawn(w.spawn(new Frozen()));
        }
        return w;
    }

    private static void assertSameGenerations(EntityTable a, EntityTable b) {
        assertEquals(a.highWater(), b.highWater(), "high-water mark");
        for (int i = 0; i < a.highWater(); i++) {
            assertEquals(a.generation(i), b.generation(i), "generation of slot " + i);
        }
    }

    @Test
    void shouldCoverTheFreeListOrderAlone() {
        World a = freedInOrder(true);
        World b = freedInOrder(false);
        EntityTable ta = a.storage().entityTable();
        EntityTable tb = b.storage().entityTable();
        assertNotEquals(ta.nextId(), tb.nextId(), "the free-list order decides the next id");
        assertArrayEquals(a.columnHashes(), b.columnHashes(), "the rows are the same");
        assertSameGenerations(ta, tb);
        assertNotEquals(a.stateHash(), b.stateHash(), "only the free-list order differs, and it is state");
    }

    @Test
    void shouldCoverADeadSlotsGenerationAlone() {
        World a = deadSlotReused(1);
        World b = deadSlotReused(2);
        EntityTable ta = a.storage().entityTable();
        EntityTable tb = b.storage().entityTable();
        assertNotEquals(ta.nextId(), tb.nextId(), "the dead slot's generation decides the next id");
        assertArrayEquals(a.columnHashes(), b.columnHashes(), "the rows are the same");
        assertArrayEquals(ta.freeListInOrder(), tb.freeListInOrder(), "the free lists are the same");
        assertEquals(ta.highWater(), tb.highWater(), "high-water mark");
        assertNotEquals(a.stateHash(), b.stateHash(), "only a dead slot's generation differs, and it is state");
    }

    /**
     * The state hash format, pinned: recorded journals and snapshots carry these hashes, so
     * a change to what {@code WorldHashes.stateHash} mixes, or in which order, invalidates
     * every recording. If this fails on purpose, say so in the changelog and re-record.
     */
    @Test
    void shouldKeepTheStateHashFormat() {
        World w = new World(256);
        Component<AllKinds> kinds = w.component(AllKinds.class);
        long a = w.spawn(new Position(1, 2, 3));
        long b = w.spawn(new Position(4, 5, 6), new Frozen());
        w.entity().with(kinds, new AllKinds(true, (byte) 1, (short) -2, 'c', 4, 5.5f, -6L, 7.25)).spawn();
        w.add(a, w.referenceComponent(String.class), "golden");
        w.despawn(b);
        w.spawn(new Frozen());
        w.despawn(w.spawn());
        assertEquals(GOLDEN_STATE_HASH, w.stateHash(), "state hash format");
    }

    /** See {@link #shouldKeepTheStateHashFormat}; the same value as before the hashing left World. */
    private static final long GOLDEN_STATE_HASH = -7295544609765044972L;

    @Test
    void shouldCoverTagsAndReferenceValues() {
        World a = build(w -> w.add(idAt(w, 1), w.component(Frozen.class)));
        World b = build(w -> { });
        assertNotEquals(a.stateHash(), b.stateHash());
        World c = build(w -> w.add(idAt(w, 1), w.referenceComponent(Label.class), new Label("a")));
        World d = build(w -> w.add(idAt(w, 1), w.referenceComponent(Label.class), new Label("b")));
        World e = build(w -> w.add(idAt(w, 1), w.referenceComponent(Label.class), new Label("a")));
        assertNotEquals(c.stateHash(), d.stateHash());
        assertEquals(c.stateHash(), e.stateHash(), "equal reference values hash equally");
    }

    @Test
    void shouldMixWordsOrderSensitively() {
        long ab = new StateHasher().mix(1).mix(2).value();
        long ba = new StateHasher().mix(2).mix(1).value();
        assertNotEquals(ab, ba);
        assertNotEquals(new StateHasher().mix(0).value(), new StateHasher().value(), "a zero word still counts");
        assertEquals(ab, new StateHasher().mix(1).mix(2).value());
    }
}
