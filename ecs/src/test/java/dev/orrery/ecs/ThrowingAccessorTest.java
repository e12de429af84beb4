package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A record whose accessor throws (a validating record) given to a table spawn, add or set: the
 * call throws and changes nothing the caller can see, as a sparse add already did. No entity
 * left behind, no column added, no observer hook fired for it, the state hash and the next id
 * as before.
 */
class ThrowingAccessorTest {
    record Pos(int x) {
    }

    /** Throws from its accessor for a negative value, as a user's validating record might. */
    record Fragile(int v) {
        @Override
        public int v() {
            if (v < 0) {
                throw new IllegalStateException("negative " + v);
            }
            return v;
        }
    }

    final World w = new World();
    final Component<Pos> pos = w.component(Pos.class);
    final Component<Fragile> fragile = w.component(Fragile.class);
    final Component<Fragile> shield = w.component(Fragile.class, "Shield");
    final Component<Fragile> sparse = w.component(Fragile.class, "Aura", Storage.SPARSE);
    final List<String> seen = new ArrayList<>();

    ThrowingAccessorTest() {
        w.observe(pos).onAdd((world, e, c) -> seen.add("add pos " + e));
        w.observe(fragile).onAdd((world, e, c) -> seen.add("add fragile " + e));
        w.observe(shield).onAdd((world, e, c) -> seen.add("add shield " + e));
        w.observe(fragile).onSet((world, e, c) -> seen.add("set fragile " + e));
    }

    /** What a failed call must leave as it was. */
    private final class Before {
        final int count = w.entityCount();
        final long hash = w.stateHash();
        final long next = w.storage().entityTable().nextId();
        final int hooks = seen.size();

        /** Runs {@code call}, expects the accessor's exception, then checks nothing changed and a spawn still works. */
        void refuses(String what, Runnable call) {
            IllegalStateException thrown = assertThrows(IllegalStateException.class, call::run, what);
            assertTrue(thrown.getMessage().startsWith("negative -"), thrown.getMessage());
            assertEquals(count, w.entityCount(), what + ": no entity left behind");
            assertFalse(w.isAlive(next), what + ": the id it would have had is not alive");
            assertEquals(hash, w.stateHash(), what + ": the state hash is as before");
            assertEquals(hooks, seen.size(), what + ": no hook fired for it");
            long e = w.spawn(new Pos(99));
            assertEquals(next, e, what + ": the next spawn gets the id the failed one would have had");
            assertEquals(new Pos(99), w.get(e, pos));
            assertEquals(List.of("add pos " + e), seen.subList(hooks, seen.size()),
                    what + ": the next call fires its own hooks, none queued by the failed one");
        }
    }

    private Before before() {
        return new Before();
    }

    /** Makes the archetypes the calls use first: a new archetype stays (empty) and hashes. */
    private void warm(Supplier<Long> spawn) {
        w.despawn(spawn.get());
        seen.clear();
    }

    @Test
    void theFirstSpawnOfAShapeLeavesNoEntityOnlyItsArchetype() {
        int count = w.entityCount();
        long next = w.storage().entityTable().nextId();
        assertThrows(IllegalStateException.class, () -> w.spawn(new Pos(1), new Fragile(-1)));
        assertEquals(count, w.entityCount());
        assertFalse(w.isAlive(next));
        assertEquals(0, w.query().with(fragile).build().count(), "the new archetype stays, empty");
        long e = w.spawn(new Pos(2), new Fragile(2));
        assertEquals(next, e);
        assertEquals(List.of("add pos " + e, "add fragile " + e), seen);
    }

    @Test
    void aSpawnOfValuesLeavesNoEntity() {
        warm(() -> w.spawn(new Pos(1), new Fragile(1)));
        before().refuses("spawn(a, b) of a cached shape", () -> w.spawn(new Pos(1), new Fragile(-1)));
        before().refuses("spawn(values...) of a cached shape", () -> w.spawn(new Object[] {new Pos(1), new Fragile(-1)}));
        warm(() -> w.spawn(new Fragile(1)));
        before().refuses("spawn(a) whose only value throws", () -> w.spawn(new Fragile(-1)));
        long kept = w.spawn(new Pos(3), new Fragile(4));
        assertEquals(new Fragile(4), w.get(kept, fragile));
    }

    @Test
    void aSpawnFromATemplateOrABuilderLeavesNoEntityAndNoNames() {
        Template bad = Template.named("Bad").with(pos, new Pos(1)).with(shield, new Fragile(-1)).build();
        warm(() -> w.spawn(Template.named("Good").with(pos, new Pos(1)).with(shield, new Fragile(1)).build()));
        before().refuses("spawn(template)", () -> w.spawn(bad));
        before().refuses("entity builder", () -> w.entity().with(pos, new Pos(1)).with(shield, new Fragile(-1)).spawn());
        before().refuses("spawnMany(template)", () -> w.spawnMany(bad, 3));
        before().refuses("builder spawnMany", () -> w.entity().with(pos, new Pos(1)).with(shield, new Fragile(-1))
                .spawnMany(3));
        long e = w.entity().with(pos, new Pos(2)).with(shield, new Fragile(5)).spawn();
        assertEquals(shield, w.findComponent(e, "Shield"), "a later spawn registers its names");
        assertEquals(new Fragile(5), w.get(e, shield));
    }

    @Test
    void aSpawnThroughAShapeLeavesNoEntity() {
        Shape shape = w.shape(pos, fragile);
        warm(() -> shape.spawn(new Pos(1), new Fragile(1)));
        before().refuses("shape.spawn(a, b)", () -> shape.spawn(new Pos(1), new Fragile(-1)));
        before().refuses("shape.spawn(values...)", () -> shape.spawn(new Object[] {new Pos(1), new Fragile(-1)}));
        before().refuses("shape.spawn with a null", () -> shape.spawn(null, new Fragile(-1)));
    }

    @Test
    void aSpawnWithASparseValueThatThrowsLeavesNoEntity() {
        Template bad = Template.named("Aura").with(pos, new Pos(1)).with(sparse, new Fragile(-1)).build();
        warm(() -> w.spawn(Template.named("Good").with(pos, new Pos(1)).with(sparse, new Fragile(1)).build()));
        before().refuses("spawn(template) with a sparse value", () -> w.spawn(bad));
        before().refuses("spawnMany(template) with a sparse value", () -> w.spawnMany(bad, 2));
        Template badTable = Template.named("Both").with(shield, new Fragile(-1)).with(sparse, new Fragile(1)).build();
        warm(() -> w.spawn(Template.named("Both").with(shield, new Fragile(1)).with(sparse, new Fragile(1)).build()));
        before().refuses("spawn(template) with a table value throwing beside a sparse one", () -> w.spawn(badTable));
    }

    @Test
    void anAddLeavesTheEntityWithoutTheColumn() {
        long e = w.spawn(new Pos(7));
        long other = w.spawn(new Pos(8));
        warm(() -> w.spawn(new Pos(0), new Fragile(0))); // the target archetype exists
        Before b = before();
        b.refuses("add(e, fragile, bad)", () -> w.add(e, fragile, new Fragile(-1)));
        assertFalse(w.has(e, fragile), "the add did not happen");
        assertEquals(new Pos(7), w.get(e, pos));
        assertEquals(new Pos(8), w.get(other, pos));
        w.add(e, fragile, new Fragile(3));
        assertEquals(new Fragile(3), w.get(e, fragile));
        assertTrue(seen.contains("add fragile " + e));
    }

    @Test
    void aSetOfAValueThatThrowsChangesNothing() {
        long e = w.spawn(new Pos(1), new Fragile(2));
        seen.clear();
        before().refuses("set(e, fragile, bad)", () -> w.set(e, fragile, new Fragile(-1)));
        assertEquals(new Fragile(2), w.get(e, fragile));
    }

    /** Two fields, the second validated: a writer that stored each field as it read it would change the first. */
    record Pair(int a, int b) {
        @Override
        public int b() {
            if (b < 0) {
                throw new IllegalStateException("negative " + b);
            }
            return b;
        }
    }

    @Test
    void aSetOfARecordWhoseLaterAccessorThrowsLeavesEveryFieldAsItWas() {
        Component<Pair> pair = w.component(Pair.class);
        long e = w.spawn(new Pos(1), new Pair(2, 3));
        seen.clear();
        before().refuses("set(e, pair, bad second field)", () -> w.set(e, pair, new Pair(7, -1)));
        assertEquals(new Pair(2, 3), w.get(e, pair), "the first field is not written before the second is read");
        w.query().with(pair).build().forEachChunk(view -> assertThrows(IllegalStateException.class,
                () -> view.set(pair, 0, new Pair(8, -2))));
        assertEquals(new Pair(2, 3), w.get(e, pair), "a chunk view's set neither");
    }

    @Test
    void aCommandWhoseRecordAccessorThrowsIsNotKept() {
        Component<Pair> pair = w.component(Pair.class);
        long e = w.spawn(new Pos(1), new Pair(2, 3));
        CommandBuffer buf = new CommandBuffer(0);
        buf.set(e, pair, new Pair(4, 5));
        assertThrows(IllegalStateException.class, () -> buf.set(e, pair, new Pair(9, -1)));
        assertThrows(IllegalStateException.class, () -> buf.add(e, fragile, new Fragile(-3)));
        assertEquals(1, buf.commandCount(), "the refused commands are not in the buffer");
        buf.add(e, fragile, new Fragile(6));
        new CommandPlayback().apply(w, buf);
        assertEquals(new Pair(4, 5), w.get(e, pair), "the command before the refused ones applied, not theirs");
        assertEquals(new Fragile(6), w.get(e, fragile));
    }

    @Test
    void aCommandSpawnFromATemplateThatThrowsLeavesNoEntityAtPlayback() {
        Template bad = Template.named("Bad").with(pos, new Pos(1)).with(fragile, new Fragile(-1)).build();
        warm(() -> w.spawn(Template.named("Good").with(pos, new Pos(1)).with(fragile, new Fragile(1)).build()));
        CommandBuffer buf = new CommandBuffer(0);
        buf.spawn(bad);
        before().refuses("commands.spawn(template) at playback", () -> new CommandPlayback().apply(w, buf));
        assertEquals(0, buf.commandCount(), "the buffer is cleared as after any playback");
        buf.spawn(Template.named("Good").with(pos, new Pos(2)).with(fragile, new Fragile(2)).build());
        buf.spawn(bad);
        buf.spawn(Template.named("After").with(pos, new Pos(3)).build());
        int count = w.entityCount();
        assertThrows(IllegalStateException.class, () -> new CommandPlayback().apply(w, buf));
        assertEquals(count + 1, w.entityCount(), "the spawn before the failing one stays, the failing one and the "
                + "rest did not happen");
        assertEquals(1, w.query().with(fragile).build().count());
    }
}
