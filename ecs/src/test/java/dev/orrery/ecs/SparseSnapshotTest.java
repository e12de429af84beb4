package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Storage;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** Snapshots of worlds with sparse columns: round trip, same future, version 1 kept, corruption refused. */
class SparseSnapshotTest {
    record Pos(float x, float y) {
    }

    record Burning(float dps, int left) {
    }

    record Aura(double radius) {
    }

    record Stunned() {
    }

    static final ReferenceCodec<String> STRINGS = new ReferenceCodec<>() {
        @Override
        public void write(String value, DataOutput out) throws IOException {
            out.writeUTF(value);
        }

        @Override
        public String read(DataInput in) throws IOException {
            return in.readUTF();
        }
    };

    /** The same registrations in the same order, for a source and a restore target. */
    static final class Fixture {
        final World w = new World();
        final Component<Pos> pos = w.component(Pos.class);
        final Component<Burning> burning = w.component(Burning.class, Storage.SPARSE);
        final Component<Aura> fog = w.component(Aura.class, "Fog", Storage.SPARSE);
        final Component<String> note = w.referenceComponent(String.class, Storage.SPARSE);
        final Component<Stunned> stunned = w.component(Stunned.class, Storage.SPARSE);
    }

    static final WorldSnapshot SNAPSHOTS = new WorldSnapshot().codec(String.class, STRINGS);

    static Fixture populated() {
        Fixture f = new Fixture();
        long[] ids = f.w.entity().with(f.pos, new Pos(1, 2)).spawnMany(20);
        for (int i = 0; i < ids.length; i++) {
            if (i % 2 == 0) {
                f.w.add(ids[i], f.burning, new Burning(i, i * 3));
            }
            if (i % 5 == 0) {
                f.w.add(ids[i], f.fog, new Aura(i / 2.0));
                f.w.add(ids[i], f.note, "note " + i);
            }
        }
        f.w.despawn(ids[4]);
        f.w.remove(ids[6], f.burning);
        f.w.add(ids[7], f.stunned);
        return f;
    }

    @Test
    void roundTripKeepsSparseContentsNamesAndFuture() {
        Fixture original = populated();
        Fixture copy = new Fixture();
        SNAPSHOTS.read(SNAPSHOTS.write(original.w), copy.w);
        assertEquals(original.w.stateHash(), copy.w.stateHash());
        long e10 = original.w.storage().entityTable().idAt(10);
        assertEquals(new Burning(10, 30), copy.w.get(e10, copy.burning));
        assertEquals(new Aura(5), copy.w.get(e10, copy.fog));
        assertEquals("note 10", copy.w.get(e10, copy.note));
        assertSame(copy.fog, copy.w.findComponent(e10, "Fog"), "named sparse instances are registered again");
        assertEquals(original.w.storage().namedInstances().namesOf(10), copy.w.storage().namedInstances().namesOf(10));
        long e6 = original.w.storage().entityTable().idAt(6);
        assertFalse(copy.w.has(e6, copy.burning));
        assertTrue(copy.w.has(original.w.storage().entityTable().idAt(7), copy.stunned));
        for (Fixture f : new Fixture[] {original, copy}) {
            long e = f.w.storage().entityTable().idAt(2);
            f.w.remove(e, f.burning);
            f.w.add(f.w.spawn(new Pos(0, 0)), f.stunned);
            f.w.add(e6, f.burning, new Burning(1, 1));
        }
        assertEquals(original.w.stateHash(), copy.w.stateHash(), "same future after restore");
    }

    @Test
    void worldsWithoutSparseColumnsStillWriteVersionOne() {
        World plain = new World();
        plain.entity().with(plain.component(Pos.class), new Pos(1, 1)).spawnMany(3);
        byte[] v1 = SNAPSHOTS.write(plain);
        assertEquals(1, ByteBuffer.wrap(v1, WorldSnapshot.MAGIC.length, 4).getInt());
        assertEquals(WorldSnapshot.VERSION, ByteBuffer.wrap(SNAPSHOTS.write(populated().w), WorldSnapshot.MAGIC.length, 4)
                .getInt());
        World copy = new World();
        copy.component(Pos.class);
        SNAPSHOTS.read(v1, copy);
        assertEquals(plain.stateHash(), copy.stateHash());
        World sparseTarget = new World();
        sparseTarget.component(Pos.class, Storage.SPARSE);
        SnapshotException e = assertThrows(SnapshotException.class, () -> SNAPSHOTS.read(v1, sparseTarget));
        assertTrue(e.getMessage().contains("Pos") && e.getMessage().contains("version 1"), e.getMessage());
        assertEquals(0, sparseTarget.entityCount());
    }

    @Test
    void corruptSparseDataIsRefusedNamingIt() {
        Fixture f = new Fixture();
        long a = f.w.spawn(new Pos(0, 0));
        long b = f.w.spawn(new Pos(0, 0));
        f.w.add(a, f.stunned); // the last column: the payload ends with its one member's id
        byte[] good = SNAPSHOTS.write(f.w);
        byte[] stale = withLastPayloadLong(good, Entity.of(Entity.index(a), Entity.generation(a) + 1));
        SnapshotException e = assertThrows(SnapshotException.class, () -> SNAPSHOTS.read(stale, new Fixture().w));
        assertTrue(e.getMessage().contains("Stunned") && e.getMessage().contains("corrupted"), e.getMessage());
        byte[] other = withLastPayloadLong(good, b); // live, but its chain does not name Stunned
        Fixture target = new Fixture();
        e = assertThrows(SnapshotException.class, () -> SNAPSHOTS.read(other, target.w));
        assertTrue(e.getMessage().contains("Stunned"), e.getMessage());
        assertEquals(0, target.w.entityCount(), "the target is unchanged");
        SNAPSHOTS.read(good, target.w);
        assertTrue(target.w.has(a, target.stunned));
    }

    @Test
    void aTargetWithOtherStorageIsRefused() {
        byte[] snap = SNAPSHOTS.write(populated().w);
        World target = new World();
        target.component(Pos.class);
        target.component(Burning.class); // TABLE here, SPARSE in the snapshot
        target.component(Aura.class, "Fog", Storage.SPARSE);
        target.referenceComponent(String.class, Storage.SPARSE);
        target.component(Stunned.class, Storage.SPARSE);
        SnapshotException e = assertThrows(SnapshotException.class, () -> SNAPSHOTS.read(snap, target));
        assertTrue(e.getMessage().contains("Burning") && e.getMessage().contains("SPARSE")
                && e.getMessage().contains("TABLE"), e.getMessage());
    }

    record Vel(float dx) {
    }

    /** Pos (0), sparse Fog (1), Vel (2): a table column registered after a sparse one. */
    static final class Interleaved {
        final World w = new World();
        final Component<Pos> pos = w.component(Pos.class);
        final Component<Aura> fog = w.component(Aura.class, "Fog", Storage.SPARSE);
        final Component<Vel> vel = w.component(Vel.class);
        final Relation childOf = w.relations().childOf();
    }

    /** A: Pos, Fog, Vel added in that order (chain written [0, 2, 1]); B: Vel, Pos, Fog ([2, 0, 1]); C: no Fog. */
    static long[] interleavedEntities(Interleaved f) {
        long a = f.w.spawn(new Pos(1.5f, 2.5f));
        f.w.add(a, f.fog, new Aura(3.5));
        f.w.add(a, f.vel, new Vel(4.5f));
        long b = f.w.spawn(new Vel(5.5f));
        f.w.add(b, f.pos, new Pos(6.5f, 7.5f));
        f.w.add(b, f.fog, new Aura(8.5));
        long c = f.w.spawn(new Pos(9.5f, 10.5f), new Vel(11.5f));
        f.w.relations().add(c, f.childOf, a);
        f.w.despawn(f.w.spawn(new Pos(0, 0))); // a free list
        return new long[] {a, b, c};
    }

    @Test
    void aSnapshotRestoredAndTakenAgainIsTheSameBytes() {
        Fixture original = populated();
        byte[] first = SNAPSHOTS.write(original.w);
        Fixture copy = new Fixture();
        SNAPSHOTS.read(first, copy.w);
        assertArrayEquals(first, SNAPSHOTS.write(copy.w));
        Interleaved f = new Interleaved();
        interleavedEntities(f);
        byte[] mixed = SNAPSHOTS.write(f.w);
        Interleaved target = new Interleaved();
        SNAPSHOTS.read(mixed, target.w);
        assertArrayEquals(mixed, SNAPSHOTS.write(target.w));
    }

    @Test
    void chainsThatInterleaveSparseAndTableColumnsRestoreToTheSameStateAndNames() {
        Interleaved f = new Interleaved();
        long[] e = interleavedEntities(f);
        byte[] written = SNAPSHOTS.write(f.w);
        // As an earlier writer put them: each chain in the order the entity gained its columns.
        byte[] older = withChain(withChain(written, new int[] {0, 2, 1}, new int[] {0, 1, 2}),
                new int[] {2, 0, 1}, new int[] {2, 1, 0});
        Interleaved target = new Interleaved();
        SNAPSHOTS.read(older, target.w);
        assertEquals(f.w.stateHash(), target.w.stateHash());
        for (long id : e) {
            assertEquals(f.w.storage().namedInstances().namesOf(Entity.index(id)),
                    target.w.storage().namedInstances().namesOf(Entity.index(id)), Entity.toString(id));
        }
        assertEquals(java.util.List.of("Pos", "Vel", "Fog"), target.w.storage().namedInstances().namesOf(Entity.index(e[0])));
        assertEquals(java.util.List.of("Vel", "Pos", "Fog"), target.w.storage().namedInstances().namesOf(Entity.index(e[1])));
        assertEquals(3.5, target.w.getProperty(e[0], "Fog", "radius"));
        assertSame(target.fog, target.w.findComponent(e[1], "Fog"));
        assertArrayEquals(written, SNAPSHOTS.write(target.w), "written again in today's order");
    }

    /** The snapshot with the one chain {@code from} (length-prefixed) replaced by {@code to}, checksum fixed. */
    private static byte[] withChain(byte[] snapshot, int[] from, int[] to) {
        ByteBuffer want = ByteBuffer.allocate(4 + 4 * from.length).putInt(from.length);
        for (int col : from) {
            want.putInt(col);
        }
        byte[] pattern = want.array();
        int found = -1;
        for (int i = WorldSnapshot.MAGIC.length + 12; i + pattern.length <= snapshot.length - 4; i++) {
            if (java.util.Arrays.equals(snapshot, i, i + pattern.length, pattern, 0, pattern.length)) {
                assertEquals(-1, found, "the chain " + java.util.Arrays.toString(from) + " is found once");
                found = i;
            }
        }
        assertTrue(found >= 0, "the chain " + java.util.Arrays.toString(from) + " is in the snapshot");
        byte[] s = snapshot.clone();
        ByteBuffer b = ByteBuffer.wrap(s);
        for (int k = 0; k < to.length; k++) {
            b.putInt(found + 4 + 4 * k, to[k]);
        }
        int payloadStart = WorldSnapshot.MAGIC.length + 12;
        int payloadEnd = s.length - 4;
        CRC32C crc = new CRC32C();
        crc.update(s, payloadStart, payloadEnd - payloadStart);
        b.putInt(payloadEnd, (int) crc.getValue());
        return s;
    }

    /** The snapshot with the payload's last eight bytes replaced and the checksum fixed, so only the content is wrong. */
    private static byte[] withLastPayloadLong(byte[] snapshot, long value) {
        byte[] s = snapshot.clone();
        int payloadStart = WorldSnapshot.MAGIC.length + 12;
        int payloadEnd = s.length - 4;
        ByteBuffer.wrap(s).putLong(payloadEnd - 8, value);
        CRC32C crc = new CRC32C();
        crc.update(s, payloadStart, payloadEnd - payloadStart);
        ByteBuffer.wrap(s).putInt(payloadEnd, (int) crc.getValue());
        return s;
    }
}
