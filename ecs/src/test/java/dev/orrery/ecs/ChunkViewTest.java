package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.access.AccessPolicy;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChunkViewTest {
    record AllKinds(boolean flag, byte b, short s, char c, int i, float f, long l, double d) {
    }

    record Position(float x, float y, float z) {
    }

    record Frozen() {
    }

    static final class Mesh {
    }

    private final World world = new World();
    private final Component<AllKinds> kinds = world.component(AllKinds.class);
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Frozen> frozen = world.component(Frozen.class);
    private final Component<Mesh> mesh = world.referenceComponent(Mesh.class);
    private final Mesh theMesh = new Mesh();
    private final long entity = world.entity()
            .with(kinds, new AllKinds(true, (byte) 2, (short) 3, 'x', 5, 6.5f, 7L, 8.25))
            .with(pos, new Position(1, 2, 3))
            .with(frozen)
            .with(mesh, theMesh)
            .spawn();
    private final Archetype archetype = world.archetypeOf(entity);

    private ChunkView view(AccessPolicy policy) {
        return new ChunkView(policy).bind(archetype.chunk(0));
    }

    private static AccessPolicy policy(Set<Component<?>> reads, Set<Component<?>> writes) {
        return new AccessPolicy() {
            @Override
            public String owner() {
                return "Movement";
            }

            @Override
            public boolean canRead(Component<?> column) {
                return reads.contains(column) || writes.contains(column);
            }

            @Override
            public boolean canWrite(Component<?> column) {
                return writes.contains(column);
            }
        };
    }

    @Test
    void shouldHandOutTheArrayOfEveryPrimitiveType() {
        ChunkView v = view(null);
        assertEquals(1, v.size());
        assertEquals(entity, v.entity(0));
        assertEquals(entity, v.entities()[0]);
        assertTrue(v.readBooleans(kinds.field("flag"))[0]);
        assertEquals(2, v.readBytes(kinds.field("b"))[0]);
        assertEquals(3, v.readShorts(kinds.field("s"))[0]);
        assertEquals('x', v.readChars(kinds.field("c"))[0]);
        assertEquals(5, v.readInts(kinds.field("i"))[0]);
        assertEquals(6.5f, v.readFloats(kinds.field("f"))[0]);
        assertEquals(7L, v.readLongs(kinds.field("l"))[0]);
        assertEquals(8.25, v.readDoubles(kinds.field("d"))[0]);
        assertSame(theMesh, v.readObjects(mesh)[0]);

        v.writeBooleans(kinds.field("flag"))[0] = false;
        v.writeBytes(kinds.field("b"))[0] = 12;
        v.writeShorts(kinds.field("s"))[0] = 13;
        v.writeChars(kinds.field("c"))[0] = 'y';
        v.writeInts(kinds.field("i"))[0] = 15;
        v.writeFloats(kinds.field("f"))[0] = 16.5f;
        v.writeLongs(kinds.field("l"))[0] = 17L;
        v.writeDoubles(kinds.field("d"))[0] = 18.25;
        Mesh other = new Mesh();
        v.writeObjects(mesh)[0] = other;
        assertEquals(new AllKinds(false, (byte) 12, (short) 13, 'y', 15, 16.5f, 17L, 18.25), world.get(entity, kinds));
        assertSame(other, world.get(entity, mesh));
    }

    @Test
    void shouldReadAndWriteWholeRecords() {
        ChunkView v = view(null);
        assertEquals(new Position(1, 2, 3), v.get(pos, 0));
        v.set(pos, 0, new Position(4, 5, 6));
        assertEquals(new Position(4, 5, 6), world.get(entity, pos));
        assertNull(v.get(frozen, 0), "a tag has no value");
        assertTrue(v.has(frozen));
    }

    @Test
    void shouldRefuseAnAccessorOfTheWrongType() {
        ChunkView v = view(null);
        Field x = pos.field("x");
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> v.readInts(x));
        assertTrue(ex.getMessage().contains("Position.x") && ex.getMessage().contains("FLOAT"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> v.writeDoubles(x));
        IllegalArgumentException notRef = assertThrows(IllegalArgumentException.class, () -> v.readObjects(pos));
        assertTrue(notRef.getMessage().contains("reference"), notRef.getMessage());
    }

    @Test
    void shouldRefuseAColumnTheChunkDoesNotHold() {
        record Missing(int m) {
        }
        Component<Missing> missing = world.component(Missing.class);
        ChunkView v = view(null);
        assertFalse(v.has(missing));
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> v.readInts(missing.field("m")));
        assertTrue(ex.getMessage().contains("Missing"), ex.getMessage());
    }

    @Test
    void shouldEnforceDeclaredReadsAndWrites() {
        ChunkView v = view(policy(Set.of(pos), Set.of(kinds)));
        assertEquals(1f, v.readFloats(pos.field("x"))[0], "a declared read");
        v.writeInts(kinds.field("i"))[0] = 99;
        assertEquals(99, v.readInts(kinds.field("i"))[0], "a declared write implies a read");

        UndeclaredAccessException write = assertThrows(UndeclaredAccessException.class,
                () -> v.writeFloats(pos.field("x")));
        assertTrue(write.getMessage().contains("Movement") && write.getMessage().contains("Position")
                && write.getMessage().contains("writes("), write.getMessage());
        UndeclaredAccessException read = assertThrows(UndeclaredAccessException.class, () -> v.readObjects(mesh));
        assertTrue(read.getMessage().contains("Movement") && read.getMessage().contains("Mesh")
                && read.getMessage().contains("reads("), read.getMessage());
        assertThrows(UndeclaredAccessException.class, () -> v.get(frozen, 0));
        assertThrows(UndeclaredAccessException.class, () -> v.set(pos, 0, new Position(0, 0, 0)));
        assertEquals(new Position(1, 2, 3), world.get(entity, pos), "the refused write changed nothing");
    }

    @Test
    void shouldRebindToAnotherChunk() {
        long other = world.spawn(new Position(7, 7, 7));
        ChunkView v = view(null);
        assertEquals(entity, v.entity(0));
        assertSame(v, v.bind(world.archetypeOf(other).chunk(0)));
        assertEquals(other, v.entity(0));
        assertEquals(7f, v.readFloats(pos.field("y"))[0]);
        assertFalse(v.has(frozen));
    }

    record Burning(float heat) {
    }

    @Test
    void shouldRefuseARowOutsideTheChunkInEveryPerRowCallNotWriteADeadRow() {
        Component<Burning> burning = world.component(Burning.class, dev.orrery.ecs.component.Storage.SPARSE);
        world.add(entity, burning, new Burning(4));
        long other = world.entity().with(kinds, new AllKinds(false, (byte) 0, (short) 0, 'y', 1, 1, 1, 1))
                .with(pos, new Position(9, 9, 9)).with(frozen).with(mesh, theMesh).spawn();
        ChunkView v = view(null);
        assertEquals(2, v.size());
        long hash = world.stateHash();
        java.util.Map<String, org.junit.jupiter.api.function.Executable> calls = new java.util.LinkedHashMap<>();
        calls.put("get", () -> v.get(pos, 2));                            // a dead row of the chunk's arrays
        calls.put("set", () -> v.set(pos, 2, new Position(7, 7, 7)));     // wrote it, silently
        calls.put("get far", () -> v.get(pos, 1000));                    // was an ArrayIndexOutOfBoundsException
        calls.put("get negative", () -> v.get(pos, -1));
        calls.put("get sparse", () -> v.get(burning, 2));
        calls.put("set sparse", () -> v.set(burning, 2, new Burning(1)));
        calls.put("has sparse", () -> v.has(burning, 1000));
        calls.put("has table", () -> v.has(pos, 2));                     // answered true
        calls.put("changed", () -> v.changed(pos, 2));
        calls.put("markChanged", () -> v.markChanged(pos, 1000));
        for (java.util.Map.Entry<String, org.junit.jupiter.api.function.Executable> call : calls.entrySet()) {
            IndexOutOfBoundsException ex = assertThrows(IndexOutOfBoundsException.class, call.getValue(), call.getKey());
            assertFalse(ex instanceof ArrayIndexOutOfBoundsException, call.getKey() + ": a raw array index: " + ex);
            assertTrue(ex.getMessage().contains("is outside this chunk") && ex.getMessage().contains("has 2 rows"),
                    call.getKey() + ": " + ex.getMessage());
        }
        assertEquals(hash, world.stateHash(), "nothing written");
        long third = world.entity().with(kinds).with(pos).with(frozen).with(mesh).spawn(); // takes row 2
        assertEquals(new Position(0, 0, 0), world.get(third, pos));
        assertEquals(new Position(9, 9, 9), view(null).get(pos, 1));
        boolean[] holds = new boolean[3];
        world.query().with(pos).build().forEachChunk(c -> {
            for (int i = 0; i < c.size(); i++) {
                holds[i] = c.has(burning, i);
            }
        });
        assertTrue(holds[0] && !holds[1] && !holds[2] && other != 0, "the live rows still answer");
    }
}
