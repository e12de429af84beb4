package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Relations in snapshots: pairs, their order and the next sequence number survive a restore
 * (same state hash, same children order, same future); a world without relations writes no
 * relation section; a target whose relations differ, or a section that disagrees with the
 * rows, is refused with a message naming what differs, and the target stays empty.
 */
class RelationSnapshotTest {
    record Position(float x, float y) {
    }

    static final String SECTION = "orrery.relations";

    /** A world with Position, ChildOf and a multi-target Likes (REMOVE_PAIR), registered in that order. */
    static final class Fixture {
        final World world = new World();
        final Component<Position> pos = world.component(Position.class);
        final Relation childOf = world.relations().childOf();
        final Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        /** The entities {@link #populated()} spawned, dead ones included. */
        long[] e;

        Relations rel() {
            return world.relations();
        }
    }

    /** Roots, children in a made order, a reparenting, a removal, a multi-target holder and a cascade. */
    static Fixture populated() {
        Fixture f = new Fixture();
        long[] e = new long[12];
        for (int i = 0; i < e.length; i++) {
            e[i] = f.world.spawn(new Position(i, -i));
        }
        Relations r = f.rel();
        r.add(e[3], f.childOf, e[0]);
        r.add(e[4], f.childOf, e[0]);
        r.add(e[5], f.childOf, e[1]);
        r.add(e[6], f.childOf, e[3]);
        r.add(e[7], f.childOf, e[3]);
        r.add(e[3], f.childOf, e[1]); // reparent: e3 (with e6, e7 under it) goes last under e1
        r.add(e[8], f.childOf, e[2]);
        r.add(e[9], f.childOf, e[8]);
        r.add(e[10], f.likes, e[5]);
        r.add(e[10], f.likes, e[0]);
        r.add(e[11], f.likes, e[9]);
        r.remove(e[4], f.childOf, e[0]);
        f.world.despawn(e[2]); // despawns e8 and e9; e11 loses its Likes pair
        f.e = e;
        return f;
    }

    @Test
    void shouldRestorePairsInOrderWithTheSameHashAndFuture() {
        Fixture original = populated();
        byte[] bytes = new WorldSnapshot().write(original.world);
        Fixture copy = new Fixture();
        new WorldSnapshot().read(bytes, copy.world);
        assertEquals(original.world.stateHash(), copy.world.stateHash());
        for (Relation r : original.rel().all()) {
            Relation c = copy.rel().byName(r.name());
            assertArrayEquals(original.rel().pairs(r), copy.rel().pairs(c), r.name());
            assertEquals(original.rel().nextSeq(r), copy.rel().nextSeq(c), r.name());
        }
        long[] all = original.e;
        for (long e : all) {
            if (original.world.isAlive(e)) {
                assertArrayEquals(original.rel().children(e), copy.rel().children(e), "children of " + Entity.toString(e));
                assertEquals(original.rel().parent(e), copy.rel().parent(e));
                assertArrayEquals(original.rel().targets(e, original.likes), copy.rel().targets(e, copy.likes));
            }
        }
        long e0 = all[0];
        long e1 = all[1];
        assertArrayEquals(new long[] {all[5], all[3]}, copy.rel().children(e1), "the reparented child stays last");
        assertEquals(e1, copy.rel().parent(all[3]));
        assertArrayEquals(new long[0], copy.rel().children(e0), "e4 left e0, e3 moved to e1");
        assertArrayEquals(new long[] {all[5], all[0]}, copy.rel().targets(all[10], copy.likes));
        Hierarchy ho = original.rel().hierarchy(original.childOf);
        Hierarchy hc = copy.rel().hierarchy(copy.childOf);
        assertEquals(ho.size(), hc.size());
        for (int s = 0; s < ho.size(); s++) {
            assertEquals(ho.entity(s), hc.entity(s), "hierarchy slot " + s);
            assertEquals(ho.parentSlot(s), hc.parentSlot(s), "hierarchy parent slot " + s);
        }
        // The same future: new pairs get the same seq, cascades free the same ids.
        for (Fixture f : new Fixture[] {original, copy}) {
            long kid = f.world.spawn(new Position(99, 99));
            f.rel().add(kid, f.childOf, all[6]);
            f.rel().add(all[7], f.childOf, all[0]);
            f.world.despawn(all[1]);
            f.world.spawn(new Position(5, 5));
        }
        assertEquals(original.world.stateHash(), copy.world.stateHash(), "same future after restore");
        assertEquals(original.world.entityCount(), copy.world.entityCount());
    }

    @Test
    void shouldWriteNoRelationSectionForAWorldWithoutRelations() {
        World plain = new World();
        plain.component(Position.class);
        plain.despawn(plain.spawn(new Position(1, 2)));
        plain.spawn(new Position(3, 4));
        byte[] bytes = new WorldSnapshot().write(plain);
        assertFalse(contains(bytes, SECTION), "no relation section without a registered relation");
        World back = new World();
        back.component(Position.class);
        new WorldSnapshot().read(bytes, back);
        assertEquals(plain.stateHash(), back.stateHash());

        Fixture f = populated();
        byte[] withRelations = new WorldSnapshot().write(f.world);
        assertTrue(contains(withRelations, SECTION));
        assertFalse(new WorldSnapshot().readExtras(withRelations).containsKey(SECTION), "the section is the snapshot's own");
        Map<String, byte[]> extras = new WorldSnapshot().read(withRelations, new Fixture().world);
        assertTrue(extras.isEmpty(), extras.keySet().toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WorldSnapshot().write(f.world, Map.of(SECTION, new byte[1])));
        assertTrue(e.getMessage().contains(SECTION), e.getMessage());
    }

    @Test
    void shouldRefuseATargetWithoutTheSnapshotsRelations() {
        byte[] bytes = new WorldSnapshot().write(populated().world);
        World none = new World();
        none.component(Position.class);
        SnapshotException e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(bytes, none));
        assertTrue(e.getMessage().contains("registered no relation"), e.getMessage());
        assertTrue(e.getMessage().contains("ChildOf") && e.getMessage().contains("Likes"), e.getMessage());
        assertEquals(0, none.entityCount());

        World otherTraits = new World();
        otherTraits.component(Position.class);
        otherTraits.relations().childOf();
        otherTraits.relations().register("Likes", false, false, Cleanup.DESPAWN_HOLDER);
        e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(bytes, otherTraits));
        assertTrue(e.getMessage().contains("relation 1 is 'Likes' (not exclusive, cycles allowed, REMOVE_PAIR)")
                && e.getMessage().contains("DESPAWN_HOLDER") && e.getMessage().contains("same order"), e.getMessage());
        assertEquals(0, otherTraits.entityCount());

        World fewer = new World();
        fewer.component(Position.class);
        fewer.relations().childOf();
        e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(bytes, fewer));
        assertTrue(e.getMessage().contains("Likes") && e.getMessage().contains("missing"), e.getMessage());

        World plain = new World();
        plain.component(Position.class);
        plain.spawn(new Position(0, 0));
        byte[] noRelations = new WorldSnapshot().write(plain);
        Fixture withRelations = new Fixture();
        e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(noRelations, withRelations.world));
        assertTrue(e.getMessage().contains("holds no relations") && e.getMessage().contains("ChildOf"), e.getMessage());
        assertEquals(0, withRelations.world.entityCount());
    }

    /**
     * ChildOf is registered by the first call of {@code world.relations().childOf()}: a game
     * that first calls it during play (after its own relations) writes it last, and a restore
     * target built by the set-up code alone lacks it. The refusal names the call to make at
     * set-up, not only "register the same relations".
     */
    @Test
    void shouldNameTheChildOfCallWhenTheTargetLacksAChildOfFirstCalledDuringPlay() {
        World played = new World();
        played.component(Position.class);
        Relation owns = played.relations().register("Owns", false, false, Cleanup.REMOVE_PAIR);
        long parent = played.spawn(new Position(0, 0));
        long child = played.spawn(new Position(1, 1));
        played.relations().add(parent, owns, child);
        played.relations().add(child, played.relations().childOf(), parent); // ChildOf's first call
        byte[] bytes = new WorldSnapshot().write(played);

        World setUp = new World();
        setUp.component(Position.class);
        setUp.relations().register("Owns", false, false, Cleanup.REMOVE_PAIR);
        SnapshotException e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(bytes, setUp));
        assertTrue(e.getMessage().contains("snapshot relation 1 is 'ChildOf' (exclusive, acyclic, DESPAWN_HOLDER) but "
                + "the target world's is missing"), e.getMessage());
        assertTrue(e.getMessage().contains("ChildOf is registered by the first call of world.relations().childOf()"),
                e.getMessage());
        assertEquals(0, setUp.entityCount());

        setUp.relations().childOf(); // the fix the message names
        new WorldSnapshot().read(bytes, setUp);
        assertEquals(played.stateHash(), setUp.stateHash());
    }

    @Test
    void shouldRefuseAMarkerThatDisagreesWithThePairs() {
        Fixture f = populated();
        long[] all = f.e;
        // Go round every guard, straight into the chunk: e5's ChildOf marker now names e0, not e1.
        long child = all[5];
        Archetype a = f.world.storage().archetypes().get(f.world.storage().entityTable().archetype(Entity.index(child)));
        int slot = a.slotOf(f.childOf.column().id());
        boolean written = false;
        for (int c = 0; c < a.chunkCount() && !written; c++) {
            Chunk chunk = a.chunk(c);
            for (int r = 0; r < chunk.size(); r++) {
                if (chunk.entity(r) == child) {
                    ((long[]) chunk.array(slot, 0))[r] = all[0];
                    written = true;
                }
            }
        }
        assertTrue(written);
        byte[] bytes = new WorldSnapshot().write(f.world);
        Fixture target = new Fixture();
        SnapshotException e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(bytes, target.world));
        assertTrue(e.getMessage().contains(Entity.toString(child)) && e.getMessage().contains("marker")
                && e.getMessage().contains("corrupted"), e.getMessage());
        assertEquals(0, target.world.entityCount());
    }

    @Test
    void shouldRefuseASectionThatDisagreesWithTheRows() {
        Fixture f = populated();
        byte[] good = new WorldSnapshot().write(f.world);
        long[] all = f.e;
        long deadId = all[2]; // despawned in populated(): its slot is free
        assertFalse(f.world.isAlive(deadId));
        // A pair naming a dead entity (e11 Likes the dead e2).
        assertRefused(good, s -> withPair(s, 1, all[11], deadId), "not alive");
        // A pair of a holder without the marker (e11 Likes e0: e11 lost its marker with its last pair).
        assertRefused(good, s -> withPair(s, 1, all[11], all[0]), "lacks the Likes marker");
        // A marker without its pair: drop e10's pairs.
        assertRefused(good, s -> withoutHolder(s, 1, all[10]), "holds no Likes pair");
        // A cycle in ChildOf: e1 under e3, which is under e1.
        assertRefused(good, s -> withPair(s, 0, all[1], all[3]), "cycle");
        // The section untouched reads back.
        Fixture ok = new Fixture();
        new WorldSnapshot().read(reframe(good, UnaryOperator.identity()), ok.world);
        assertEquals(f.world.stateHash(), ok.world.stateHash());
    }

    private static void assertRefused(byte[] good, UnaryOperator<byte[]> edit, String expected) {
        byte[] bad = reframe(good, edit);
        assertNotEquals(Arrays.hashCode(good), Arrays.hashCode(bad));
        Fixture target = new Fixture();
        SnapshotException e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(bad, target.world));
        assertTrue(e.getMessage().contains(expected) && e.getMessage().contains("corrupted"), e.getMessage());
        assertEquals(0, target.world.entityCount(), "a refused snapshot leaves the target untouched");
    }

    // ---- rewriting the relation section of a snapshot, with a fresh frame and checksum ------

    /** The relation section as written: per relation name, traits, next seq and triples. */
    private record Rel(String name, boolean exclusive, boolean acyclic, byte cleanup, long next, long[] triples) {
    }

    private static Rel[] readSection(byte[] s) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(s));
            assertEquals(1, in.readInt(), "section format");
            Rel[] out = new Rel[in.readInt()];
            for (int i = 0; i < out.length; i++) {
                String name = in.readUTF();
                boolean ex = in.readBoolean();
                boolean ac = in.readBoolean();
                byte cl = in.readByte();
                long next = in.readLong();
                long[] t = new long[in.readInt() * 3];
                for (int k = 0; k < t.length; k++) {
                    t[k] = in.readLong();
                }
                out[i] = new Rel(name, ex, ac, cl, next, t);
            }
            return out;
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] writeSection(Rel[] rels) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(1);
            out.writeInt(rels.length);
            for (Rel r : rels) {
                out.writeUTF(r.name());
                out.writeBoolean(r.exclusive());
                out.writeBoolean(r.acyclic());
                out.writeByte(r.cleanup());
                out.writeLong(r.next());
                out.writeInt(r.triples().length / 3);
                for (long w : r.triples()) {
                    out.writeLong(w);
                }
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** Appends pair (holder, target) with the next seq to relation {@code k}. */
    private static byte[] withPair(byte[] section, int k, long holder, long target) {
        Rel[] rels = readSection(section);
        Rel r = rels[k];
        long[] t = Arrays.copyOf(r.triples(), r.triples().length + 3);
        t[t.length - 3] = holder;
        t[t.length - 2] = target;
        t[t.length - 1] = r.next();
        rels[k] = new Rel(r.name(), r.exclusive(), r.acyclic(), r.cleanup(), r.next() + 1, t);
        return writeSection(rels);
    }

    /** Drops every pair of relation {@code k} that {@code holder} holds. */
    private static byte[] withoutHolder(byte[] section, int k, long holder) {
        Rel[] rels = readSection(section);
        Rel r = rels[k];
        long[] t = new long[r.triples().length];
        int n = 0;
        for (int i = 0; i < r.triples().length; i += 3) {
            if (r.triples()[i] != holder) {
                System.arraycopy(r.triples(), i, t, n, 3);
                n += 3;
            }
        }
        assertTrue(n < r.triples().length, "the holder held a pair");
        rels[k] = new Rel(r.name(), r.exclusive(), r.acyclic(), r.cleanup(), r.next(), Arrays.copyOf(t, n));
        return writeSection(rels);
    }

    /** The snapshot with its relation section replaced by {@code edit} of it, framed and checksummed anew. */
    private static byte[] reframe(byte[] snapshot, UnaryOperator<byte[]> edit) {
        return SnapshotFrames.reframe(snapshot, SECTION, edit);
    }

    private static boolean contains(byte[] haystack, String needle) {
        byte[] n = needle.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + n.length <= haystack.length; i++) {
            for (int k = 0; k < n.length; k++) {
                if (haystack[i + k] != n[k]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
