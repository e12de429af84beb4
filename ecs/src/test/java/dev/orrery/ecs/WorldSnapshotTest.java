package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WorldSnapshotTest {
    record Position(float x, float y) {
    }

    record Health(int hp, double regen) {
    }

    record Dead() {
    }

    static final class Label {
        final String text;

        Label(String text) {
            this.text = text;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Label l && l.text.equals(text);
        }

        @Override
        public int hashCode() {
            return text.hashCode();
        }
    }

    static final ReferenceCodec<Label> LABELS = new ReferenceCodec<>() {
        @Override
        public void write(Label value, DataOutput out) throws IOException {
            out.writeUTF(value.text);
        }

        @Override
        public Label read(DataInput in) throws IOException {
            return new Label(in.readUTF());
        }
    };

    /** A world and its handles, registered in a fixed order. */
    static final class Fixture {
        final World world = new World(1024); // small chunks: several chunks per archetype
        final Component<Position> pos = world.component(Position.class);
        final Component<Health> health = world.component(Health.class);
        final Component<Health> shield = world.component(Health.class, "Shield");
        final Component<Dead> dead = world.component(Dead.class);
        final Component<Label> label = world.referenceComponent(Label.class);
    }

    static Fixture populated(long seed) {
        Fixture f = new Fixture();
        Random r = new Random(seed);
        long[] ids = new long[600];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = f.world.spawn(new Position(r.nextFloat(), r.nextFloat()));
            if (r.nextBoolean()) {
                f.world.add(ids[i], f.health, new Health(r.nextInt(100), r.nextDouble()));
            }
            if (r.nextInt(4) == 0) {
                f.world.add(ids[i], f.shield, new Health(r.nextInt(5), 0));
            }
            if (r.nextInt(5) == 0) {
                f.world.add(ids[i], f.label, new Label("agent-" + i));
            }
        }
        for (int i = 0; i < ids.length; i += 3) {
            f.world.despawn(ids[i]);
        }
        return f;
    }

    static void step(Fixture f) {
        Field x = f.pos.field("x");
        f.world.query().with(f.pos).build().forEachChunk(c -> {
            float[] px = c.writeFloats(x);
            for (int i = 0; i < c.size(); i++) {
                px[i] += 0.5f;
            }
        });
        long e = f.world.spawn(new Position(1, 1));
        f.world.add(e, f.dead);
    }

    @Test
    void shouldRestoreIdenticalStateAndFuture() {
        Fixture original = populated(1);
        WorldSnapshot snap = new WorldSnapshot().codec(Label.class, LABELS);
        byte[] bytes = snap.write(original.world, Map.of("tick", new byte[] {42}));
        Fixture copy = new Fixture();
        Map<String, byte[]> extras = snap.read(bytes, copy.world);
        assertArrayEquals(new byte[] {42}, extras.get("tick"));
        assertEquals(original.world.stateHash(), copy.world.stateHash());
        assertEquals(original.world.entityCount(), copy.world.entityCount());
        for (int i = 0; i < 5; i++) {
            step(original);
            step(copy);
        }
        assertEquals(original.world.stateHash(), copy.world.stateHash(), "same future after restore");
    }

    @Test
    void shouldRefuseANullReferenceCodecWhenRegisteredNotFailInsideTheWrite() {
        Fixture f = populated(2);
        WorldSnapshot format = new WorldSnapshot();
        NullPointerException ex = assertThrows(NullPointerException.class, () -> format.codec(Label.class, null));
        assertTrue(ex.getMessage() != null && ex.getMessage().contains("WorldSnapshot.codec(" + Label.class.getName())
                && ex.getMessage().contains("ReferenceCodec"), ex.getMessage());
        NullPointerException type = assertThrows(NullPointerException.class, () -> format.codec(null, LABELS));
        assertTrue(type.getMessage() != null && type.getMessage().contains("reference component type"),
                type.getMessage());
        SnapshotException missing = assertThrows(SnapshotException.class, () -> format.write(f.world));
        assertTrue(missing.getMessage().contains("WorldSnapshot.codec(Label.class"), "the refused call registered "
                + "nothing, so the write names the codec to add: " + missing.getMessage());
    }

    @Test
    void shouldFailNamingReferenceComponentWithoutCodec() {
        Fixture f = populated(2);
        SnapshotException ex = assertThrows(SnapshotException.class, () -> new WorldSnapshot().write(f.world));
        assertTrue(ex.getMessage().contains("Label"), ex.getMessage());
        assertTrue(ex.getMessage().contains("WorldSnapshot.codec(Label.class")
                && ex.getMessage().contains("referenceCodec(Label.class"), "names the Simulation builder's call too: "
                + ex.getMessage());
    }

    @Test
    void shouldRefuseWorldWithDifferentComponents() {
        Fixture f = populated(3);
        byte[] bytes = new WorldSnapshot().codec(Label.class, LABELS).write(f.world);
        World other = new World();
        other.component(Health.class);
        SnapshotException ex = assertThrows(SnapshotException.class,
                () -> new WorldSnapshot().codec(Label.class, LABELS).read(bytes, other));
        assertTrue(ex.getMessage().contains("register the same components"), ex.getMessage());
        assertEquals(0, other.entityCount());
    }

    @Test
    void shouldRefuseEveryCorruptedOrTruncatedSnapshotAndLeaveWorldUntouched() {
        Fixture f = populated(4);
        WorldSnapshot snap = new WorldSnapshot().codec(Label.class, LABELS);
        byte[] good = snap.write(f.world);
        Random r = new Random(99);
        for (int trial = 0; trial < 1000; trial++) {
            byte[] bad;
            if (trial % 2 == 0) {
                bad = good.clone();
                int flips = 1 + r.nextInt(3);
                for (int k = 0; k < flips; k++) {
                    bad[r.nextInt(bad.length)] ^= (byte) (1 << r.nextInt(8));
                }
                if (Arrays.equals(bad, good)) {
                    continue;
                }
            } else {
                bad = Arrays.copyOf(good, r.nextInt(good.length));
            }
            Fixture target = new Fixture();
            long before = target.world.stateHash();
            byte[] input = bad;
            SnapshotException ex = assertThrows(SnapshotException.class, () -> snap.read(input, target.world),
                    "trial " + trial + " was accepted");
            assertTrue(ex.getMessage().length() > 20);
            assertEquals(before, target.world.stateHash(), "trial " + trial + " changed the target world");
        }
    }

    @Test
    void shouldRestorePrototypeChainsInRegistrationOrder() {
        Fixture original = populated(5);
        long e = original.world.spawn();
        original.world.add(e, original.shield, new Health(9, 1));
        original.world.add(e, original.pos, new Position(2, 2));
        byte[] bytes = new WorldSnapshot().codec(Label.class, LABELS).write(original.world);
        Fixture copy = new Fixture();
        new WorldSnapshot().codec(Label.class, LABELS).read(bytes, copy.world);
        int idx = dev.orrery.ecs.component.Entity.index(e);
        assertEquals(original.world.storage().namedInstances().namesOf(idx), copy.world.storage().namedInstances().namesOf(idx));
        assertEquals(java.util.List.of("Shield", "Position"), copy.world.storage().namedInstances().namesOf(idx));
        assertEquals(copy.shield, copy.world.findComponent(e, "Shield"));
        assertEquals(9, copy.world.getProperty(e, "Shield", "hp"));
        for (int i = 0; i < original.world.storage().entityTable().highWater(); i++) {
            assertEquals(original.world.storage().namedInstances().namesOf(i), copy.world.storage().namedInstances().namesOf(i), "entity " + i);
        }
    }
    @Test
    void shouldCarryARetiredSlotThroughASnapshot() throws ReflectiveOperationException {
        Fixture f = new Fixture();
        long a = f.world.spawn(new Position(1, 1));
        long b = f.world.spawn(new Position(2, 2));
        f.world.despawn(a);
        // Fast-forward slot 0 to its next-to-last generation (2^32 - 2 reuses would take hours).
        java.lang.reflect.Field slots = dev.orrery.ecs.storage.EntityTable.class.getDeclaredField("slots");
        slots.setAccessible(true);
        ((int[]) slots.get(f.world.storage().entityTable()))[0] = dev.orrery.ecs.storage.EntityTable.LAST_GENERATION - 1;
        long last = f.world.spawn(new Position(3, 3));
        assertEquals(0, dev.orrery.ecs.component.Entity.index(last));
        f.world.despawn(last); // its last generation: slot 0 retires
        long c = f.world.spawn(new Position(4, 4));
        assertEquals(2, dev.orrery.ecs.component.Entity.index(c), "a retired slot is not reused");
        assertTrue(!f.world.isAlive(a) && !f.world.isAlive(last), "no stale id of slot 0 is alive again");

        byte[] bytes = new WorldSnapshot().codec(Label.class, LABELS).write(f.world);
        Fixture g = new Fixture();
        new WorldSnapshot().codec(Label.class, LABELS).read(bytes, g.world);
        assertEquals(f.world.stateHash(), g.world.stateHash());
        assertTrue(g.world.isAlive(b) && g.world.isAlive(c) && !g.world.isAlive(a));
        assertEquals(f.world.spawn(new Position(5, 5)), g.world.spawn(new Position(5, 5)), "the same next id");
    }
}
