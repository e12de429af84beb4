package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A record whose accessor changes the world's structure (spawn, despawn, add, remove) while
 * the world writes that record into a row or a sparse set. On the old code the write went on
 * with the row half moved: an add left the entity twice in its archetype and another entity
 * lost, a set's or a sparse add's value went to a row or position the entity had left, a
 * spawn placed its entity on a stale row. Now the structural call is refused naming the
 * component, the accessor's exception comes through, and the world is as before the call.
 */
class ReentrantAccessorTest {
    record Pos(int x) {
    }

    record Frozen() {
    }

    /** What {@link Meddler#v()} runs once, the next time it is called (null: nothing). */
    static Runnable onRead;

    /** A record whose accessor runs {@link #onRead} once, as a user's record might reach for the world. */
    record Meddler(int v) {
        @Override
        public int v() {
            Runnable r = onRead;
            onRead = null;
            if (r != null) {
                r.run();
            }
            return v;
        }
    }

    final World w = new World();
    final Component<Pos> pos = w.component(Pos.class);
    final Component<Frozen> frozen = w.component(Frozen.class);
    final Component<Meddler> meddler = w.component(Meddler.class);
    final Component<Meddler> aura = w.component(Meddler.class, "Aura", Storage.SPARSE);

    ReentrantAccessorTest() {
        w.despawn(w.spawn(new Pos(0), new Meddler(0))); // the archetype exists: a new one would stay, and hash
    }

    @AfterEach
    void clearHook() {
        onRead = null;
    }

    /** Every entity the Pos query meets, as "x" (and "x/v" when it holds a Meddler), row by row. */
    private List<String> rows() {
        List<String> out = new ArrayList<>();
        w.query().with(pos).build().forEach((c, row) -> {
            long e = c.entity(row);
            assertTrue(w.isAlive(e), "a row holds a dead entity");
            out.add(w.get(e, pos).x() + (w.has(e, meddler) ? "/" + w.get(e, meddler).v() : ""));
        });
        return out;
    }

    /** Runs {@code call} (whose accessor runs {@code meddle}), expects the refusal, then checks nothing changed. */
    private void refused(String what, Runnable meddle, Runnable call) {
        long hash = w.stateHash();
        int count = w.entityCount();
        List<String> rows = rows();
        long next = w.storage().entityTable().nextId();
        onRead = meddle;
        IllegalStateException thrown = assertThrows(IllegalStateException.class, call::run, what);
        assertTrue(thrown.getMessage().contains("record accessor of component Meddler"), thrown.getMessage());
        assertTrue(thrown.getMessage().contains("record accessors must not change the world"), thrown.getMessage());
        assertNull(onRead, what + ": the accessor ran");
        assertEquals(count, w.entityCount(), what + ": entity count");
        assertEquals(rows, rows(), what + ": every row as before");
        assertEquals(hash, w.stateHash(), what + ": the state hash as before");
        assertFalse(w.isStructureLocked(), what + ": the lock is released");
        assertEquals(next, w.spawn(new Pos(-1)), what + ": the next spawn gets the id it would have had");
        w.despawn(next);
    }

    /** Runs {@code call} with {@code meddle} in its accessor; true when it was refused (an IllegalStateException). */
    private boolean tryIt(Runnable meddle, Runnable call) {
        onRead = meddle;
        try {
            call.run();
            return false;
        } catch (IllegalStateException refused) {
            return true;
        }
    }

    /** Each live entity in exactly one row, and the rows as many as the live entities. */
    private void assertConsistent(String what, long... live) {
        List<Long> seen = new ArrayList<>();
        w.query().build().forEach((c, row) -> seen.add(c.entity(row)));
        assertEquals(w.entityCount(), seen.size(), what + ": rows " + seen);
        for (long e : live) {
            assertEquals(w.isAlive(e) ? 1 : 0, seen.stream().filter(x -> x == e).count(), what + ": rows of " + e);
        }
    }

    /**
     * What the old code did, checked without asking for a refusal: whether or not the call
     * is refused, the rows stay consistent and a value is either written or the call refused,
     * never silently lost.
     */
    @Test
    void theWorldStaysConsistentWhateverTheAccessorDoes() {
        long a = w.spawn(new Pos(1));
        long e = w.spawn(new Pos(2));
        long b = w.spawn(new Pos(3));
        tryIt(() -> w.add(e, frozen), () -> w.add(e, meddler, new Meddler(9))); // old: e in two rows, b in none
        assertConsistent("add adding to the same entity", a, e, b);

        long o = w.spawn(new Pos(4), new Meddler(4));
        long f = w.spawn(new Pos(5), new Meddler(5));
        boolean refused = tryIt(() -> w.despawn(o), () -> w.set(f, meddler, new Meddler(50)));
        assertConsistent("set despawning another", a, e, b, o, f);
        assertEquals(refused ? 5 : 50, w.get(f, meddler).v(), "set: refused, or written"); // old: neither

        long g = w.spawn(new Pos(6));
        w.add(a, aura, new Meddler(1));
        refused = tryIt(() -> w.despawn(a), () -> w.add(g, aura, new Meddler(60)));
        assertConsistent("sparse add despawning another", e, b, f, g);
        assertEquals(refused ? null : new Meddler(60), w.has(g, aura) ? w.get(g, aura) : null,
                "sparse add: refused, or written"); // old: added holding 0
    }

    @Test
    void anAddWhoseAccessorAddsToTheSameEntityIsRefused() {
        w.spawn(new Pos(1));
        long e = w.spawn(new Pos(2));
        w.spawn(new Pos(3));
        refused("add(e, meddler) adding Frozen to e", () -> w.add(e, frozen), () -> w.add(e, meddler, new Meddler(9)));
        assertFalse(w.has(e, frozen));
        assertFalse(w.has(e, meddler));
        assertSame(pos, w.findComponent(e, "Pos"));
        assertNull(w.findComponent(e, "Meddler"), "the name index holds no Meddler for e");
        w.add(e, meddler, new Meddler(9));
        assertEquals(List.of("2/9", "1", "3"), rows(), "a later add moves e as usual");
    }

    @Test
    void anAddWhoseAccessorDespawnsAnotherEntityIsRefused() {
        long o = w.spawn(new Pos(1), new Meddler(1));
        w.spawn(new Pos(2), new Meddler(2));
        long e = w.spawn(new Pos(3));
        refused("add(e, meddler) despawning o", () -> w.despawn(o), () -> w.add(e, meddler, new Meddler(9)));
        assertTrue(w.isAlive(o));
    }

    @Test
    void aSetWhoseAccessorDespawnsAnotherEntityIsRefused() {
        long o = w.spawn(new Pos(1), new Meddler(1));
        long e = w.spawn(new Pos(2), new Meddler(2)); // e's row is the last: o's despawn moved it
        refused("set(e, meddler) despawning o", () -> w.despawn(o), () -> w.set(e, meddler, new Meddler(9)));
        assertEquals(new Meddler(2), w.get(e, meddler));
    }

    @Test
    void aSpawnWhoseAccessorSpawnsOrDespawnsIsRefused() {
        long o = w.spawn(new Pos(1), new Meddler(1));
        w.spawn(new Pos(2), new Meddler(2));
        refused("spawn(a, b) despawning o", () -> w.despawn(o), () -> w.spawn(new Pos(3), new Meddler(3)));
        refused("spawn(a, b) spawning", () -> w.spawn(new Pos(7), new Meddler(7)),
                () -> w.spawn(new Pos(3), new Meddler(3)));
        refused("spawn(values...) despawning o", () -> w.despawn(o),
                () -> w.spawn(new Object[] {new Pos(3), new Meddler(3)}));
        refused("builder spawn removing Pos from o", () -> w.remove(o, pos),
                () -> w.entity().with(pos, new Pos(3)).with(meddler, new Meddler(3)).spawn());
        Shape shape = w.shape(pos, meddler);
        refused("shape.spawn despawning o", () -> w.despawn(o), () -> shape.spawn(new Pos(3), new Meddler(3)));
        Shape.Row row = shape.spawnRow(); // spawned here; the record's set comes after
        onRead = () -> w.despawn(o);
        assertThrows(IllegalStateException.class, () -> row.set(meddler, new Meddler(3)), "spawnRow().set despawning o");
        assertTrue(w.isAlive(o));
        assertEquals(new Meddler(0), w.get(row.id(), meddler), "the row's value is left zero, not half written");
        w.despawn(row.id());
        Template t = Template.named("T").with(pos, new Pos(3)).with(meddler, new Meddler(3)).build();
        refused("spawnMany(template) spawning", () -> w.spawn(new Pos(7)), () -> w.spawnMany(t, 2));
    }

    @Test
    void aSparseAddOrSpawnWhoseAccessorDespawnsIsRefused() {
        long o = w.spawn(new Pos(1));
        long e = w.spawn(new Pos(2));
        w.add(o, aura, new Meddler(1));
        long hash = w.stateHash();
        onRead = () -> w.despawn(o);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> w.add(e, aura, new Meddler(9)));
        assertTrue(thrown.getMessage().contains("record accessor of component Meddler:Aura"), thrown.getMessage());
        assertFalse(w.has(e, aura), "the sparse add did not happen");
        assertTrue(w.isAlive(o));
        assertEquals(new Meddler(1), w.get(o, aura));
        assertEquals(hash, w.stateHash());
        Template t = Template.named("T").with(pos, new Pos(3)).with(aura, new Meddler(3)).build();
        onRead = () -> w.despawn(o);
        assertThrows(IllegalStateException.class, () -> w.spawn(t));
        assertEquals(hash, w.stateHash(), "a spawn with a sparse value neither");
        w.add(e, aura, new Meddler(9));
        assertEquals(new Meddler(9), w.get(e, aura));
    }

    @Test
    void anAccessorThatCatchesTheRefusalLeavesTheWriteWhole() {
        long o = w.spawn(new Pos(1), new Meddler(1));
        long e = w.spawn(new Pos(2));
        List<String> refusals = new ArrayList<>();
        onRead = () -> {
            try {
                w.despawn(o);
            } catch (IllegalStateException expected) {
                refusals.add(expected.getMessage());
            }
        };
        w.add(e, meddler, new Meddler(9));
        assertEquals(1, refusals.size());
        assertTrue(w.isAlive(o), "the refused despawn did not happen");
        assertEquals(List.of("1/1", "2/9"), rows());
    }

    @Test
    void anAccessorMayStillReadAndSetValues() {
        long o = w.spawn(new Pos(1));
        long e = w.spawn(new Pos(2));
        int[] seen = new int[1];
        onRead = () -> {
            seen[0] = w.get(o, pos).x();
            w.set(o, pos, new Pos(10));
        };
        w.add(e, meddler, new Meddler(9));
        assertEquals(1, seen[0]);
        assertEquals(List.of("2/9", "10"), rows(), "a non-structural write to another entity is allowed");
        assertFalse(w.isStructureLocked());
    }
}
