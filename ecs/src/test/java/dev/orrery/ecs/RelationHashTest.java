package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The state hash covers relations: the pairs, their order (a parent's children's order is
 * state that the rows do not show), sequence numbers and traits; a world without relations
 * hashes exactly as before they existed.
 */
class RelationHashTest {
    record Position(float x, float y) {
    }

    /** Five entities (a parent p, children a, b, c, another parent q), then {@code pairs}. */
    private static World world(Consumer<World> pairs) {
        World w = new World();
        w.component(Position.class);
        w.relations().childOf();
        w.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        for (int i = 0; i < 5; i++) {
            w.spawn(new Position(i, 0));
        }
        pairs.accept(w);
        return w;
    }

    private static long e(World w, int i) {
        return w.storage().entityTable().idAt(i);
    }

    private static void child(World w, int child, int parent) {
        w.relations().add(e(w, child), w.relations().childOf(), e(w, parent));
    }

    @Test
    void shouldHashEqualWorldsEqually() {
        Consumer<World> pairs = w -> {
            child(w, 1, 0);
            child(w, 2, 0);
            w.relations().add(e(w, 3), w.relations().byName("Likes"), e(w, 4));
        };
        assertEquals(world(pairs).stateHash(), world(pairs).stateHash());
    }

    /** The control: rows identical, only the children's order differs, and the hash sees it. */
    @Test
    void shouldDifferWhenOnlyTheChildrenOrderDiffers() {
        // Both children first go under q, so their rows sit in the same places; then under p.
        World ab = world(w -> {
            child(w, 1, 4);
            child(w, 2, 4);
            child(w, 1, 0);
            child(w, 2, 0);
        });
        World ba = world(w -> {
            child(w, 1, 4);
            child(w, 2, 4);
            child(w, 2, 0);
            child(w, 1, 0);
        });
        assertArrayEquals(new long[] {e(ab, 1), e(ab, 2)}, ab.relations().children(e(ab, 0)));
        assertArrayEquals(new long[] {e(ba, 2), e(ba, 1)}, ba.relations().children(e(ba, 0)));
        assertArrayEquals(ab.columnHashes(), ba.columnHashes(), "every column holds the same values");
        assertNotEquals(ab.stateHash(), ba.stateHash(), "the children's order is state");
    }

    @Test
    void shouldDifferWhenTheSequenceDiffers() {
        World direct = world(w -> child(w, 1, 0));
        World reparented = world(w -> {
            child(w, 1, 4);
            child(w, 1, 0);
        });
        assertArrayEquals(direct.columnHashes(), reparented.columnHashes());
        assertArrayEquals(direct.relations().children(e(direct, 0)), reparented.relations().children(e(reparented, 0)));
        assertNotEquals(direct.stateHash(), reparented.stateHash(), "the next pair's seq differs, so may the future");
    }

    @Test
    void shouldDifferByTraitsAndRegistration() {
        World plain = new World();
        plain.component(Position.class);
        plain.spawn(new Position(0, 0));
        long withoutRelations = plain.stateHash();
        assertEquals(WorldHashes.stateHash(plain.storage().archetypes(), plain.storage().entityTable(),
                plain.storage().sparse()), withoutRelations, "no relation registered: the hash as before relations");
        World other = new World();
        other.component(Position.class);
        other.spawn(new Position(0, 0));
        other.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        World otherTraits = new World();
        otherTraits.component(Position.class);
        otherTraits.spawn(new Position(0, 0));
        otherTraits.relations().register("Likes", false, true, Cleanup.REMOVE_PAIR);
        assertNotEquals(withoutRelations, other.stateHash(), "a registered relation is part of the state");
        assertNotEquals(other.stateHash(), otherTraits.stateHash(), "traits are part of the state");
    }

    /**
     * The relation part of the hash format, pinned as {@code StateHashTest} pins the rest: a
     * change to what is mixed for relations, or the order, invalidates recordings.
     */
    @Test
    void shouldKeepTheRelationHashFormat() {
        World w = world(x -> {
            child(x, 1, 0);
            child(x, 2, 0);
            child(x, 3, 2);
            child(x, 2, 4);
            x.relations().add(e(x, 3), x.relations().byName("Likes"), e(x, 0));
            x.relations().add(e(x, 3), x.relations().byName("Likes"), e(x, 1));
            x.despawn(e(x, 1));
        });
        assertEquals(GOLDEN_RELATION_HASH, w.stateHash(), "state hash format with relations");
    }

    private static final long GOLDEN_RELATION_HASH = 6355133203708467621L;
}
