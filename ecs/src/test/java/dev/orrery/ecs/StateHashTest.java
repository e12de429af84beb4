package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.hash.StateHasher;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
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
                long original = w.getBits(target, f);
                w.setBits(target, f, original ^ (1L << bit));
                assertNotEquals(reference, w.stateHash(), "flipping bit " + bit + " of " + f);
                w.setBits(target, f, original);
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
