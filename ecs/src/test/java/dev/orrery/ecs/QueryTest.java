package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class QueryTest {
    record Position(float x, float y, float z) {
    }

    record Velocity(float x, float y, float z) {
    }

    record Frozen() {
    }

    record Health(int hp) {
    }

    private final World world = new World(256);
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Velocity> vel = world.component(Velocity.class);
    private final Component<Frozen> frozen = world.component(Frozen.class);
    private final Component<Health> health = world.component(Health.class);

    private static Set<Long> entitiesOf(Query q) {
        Set<Long> out = new HashSet<>();
        q.forEach((chunk, row) -> assertTrue(out.add(chunk.entity(row)), "entity visited twice"));
        assertEquals(q.count(), out.size(), "count() agrees with iteration");
        return out;
    }

    @Test
    void shouldMatchWithWithoutAndAnyTerms() {
        long p = world.spawn(new Position(0, 0, 0));
        long pv = world.spawn(new Position(0, 0, 0), new Velocity(0, 0, 0));
        long pvf = world.spawn(new Position(0, 0, 0), new Velocity(0, 0, 0), new Frozen());
        long v = world.spawn(new Velocity(0, 0, 0));
        long h = world.spawn(new Health(3));
        long none = world.spawn();

        assertEquals(Set.of(p, pv, pvf), entitiesOf(world.query().with(pos).build()));
        assertEquals(Set.of(pv, pvf), entitiesOf(world.query().with(pos, vel).build()));
        assertEquals(Set.of(pv), entitiesOf(world.query().with(pos, vel).without(frozen).build()));
        assertEquals(Set.of(p, pv, pvf, v), entitiesOf(world.query().any(pos, vel).build()));
        assertEquals(Set.of(v, h, none), entitiesOf(world.query().without(pos).build()));
        assertEquals(Set.of(pv, pvf), entitiesOf(world.query().with(vel).any(pos, health).build()));
        assertEquals(Set.of(p, pv, pvf, v, h, none), entitiesOf(world.query().build()));
        assertEquals(Set.of(), entitiesOf(world.query().with(frozen, health).build()));
    }

    @Test
    void shouldNotLetOptionalTermsChangeTheMatch() {
        long p = world.spawn(new Position(0, 0, 0));
        long pv = world.spawn(new Position(0, 0, 0), new Velocity(1, 2, 3));
        Query q = world.query().with(pos).optional(vel).build();
        assertEquals(Set.of(p, pv), entitiesOf(q));
        assertEquals(List.of(vel), q.optional());
        Field vx = vel.field("x");
        List<Float> seen = new ArrayList<>();
        q.forEachChunk(c -> {
            if (c.has(vel)) {
                float[] x = c.readFloats(vx);
                for (int i = 0; i < c.size(); i++) {
                    seen.add(x[i]);
                }
            }
        });
        assertEquals(List.of(1f), seen);
    }

    @Test
    void shouldRefuseATermBothRequiredAndExcluded() {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> world.query().with(pos).without(pos).build());
        assertTrue(ex.getMessage().contains("Position"), ex.getMessage());
    }

    @Test
    void shouldPickUpArchetypesCreatedAfterTheQueryWasBuilt() {
        Query q = world.query().with(pos).build();
        assertEquals(0, q.count());
        assertTrue(q.archetypes().isEmpty());
        long a = world.spawn(new Position(1, 0, 0));
        assertEquals(1, q.count());
        long b = world.spawn(new Position(2, 0, 0), new Frozen());
        world.spawn(new Velocity(0, 0, 0));
        assertEquals(Set.of(a, b), entitiesOf(q));
        assertEquals(2, q.archetypes().size());
        Archetype later = world.storage().archetypes().of(pos, health);
        assertSame(later, q.archetypes().get(2), "an archetype with no entities yet is matched too");
        assertEquals(2, q.count());
    }

    @Test
    void shouldIterateInArchetypeCreationOrderThenChunkAndRowOrder() {
        long[] first = new long[20];
        for (int i = 0; i < first.length; i++) {
            first[i] = world.spawn(new Position(i, 0, 0), new Velocity(0, 0, 0));
        }
        long solo = world.spawn(new Position(-1, 0, 0));
        long tagged = world.spawn(new Position(-2, 0, 0), new Velocity(0, 0, 0), new Frozen());
        Query q = world.query().with(pos).build();
        List<Long> order = new ArrayList<>();
        List<Integer> chunkSizes = new ArrayList<>();
        q.forEachChunk(c -> {
            chunkSizes.add(c.size());
            for (int i = 0; i < c.size(); i++) {
                order.add(c.entity(i));
            }
        });
        List<Long> expected = new ArrayList<>();
        for (long e : first) {
            expected.add(e);
        }
        expected.add(solo);
        expected.add(tagged);
        assertEquals(expected, order);
        assertEquals(List.of(16, 4, 1, 1), chunkSizes, "only non-empty chunks, in chunk order");
        List<Long> again = new ArrayList<>();
        q.forEach((c, row) -> again.add(c.entity(row)));
        assertEquals(order, again);
    }

    @Test
    void shouldGiveTheSameOrderInTwoWorldsBuiltTheSameWay() {
        assertEquals(script(new World(256)), script(new World(256)));
    }

    private static List<Long> script(World w) {
        Component<Position> p = w.component(Position.class);
        Component<Velocity> v = w.component(Velocity.class);
        Query q = w.query().with(p).build();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            ids.add(w.spawn(new Position(i, 0, 0)));
            if (i % 3 == 0) {
                w.add(ids.get(i / 2), v, new Velocity(1, 1, 1));
            }
            if (i % 7 == 0) {
                w.despawn(ids.get(i / 3));
                ids.set(i / 3, w.spawn(new Position(-i, 0, 0), new Velocity(0, 0, 0)));
            }
        }
        List<Long> order = new ArrayList<>();
        q.forEach((c, row) -> order.add(c.entity(row)));
        return order;
    }

    @Test
    void shouldRefuseStructuralChangesDuringIterationAndReleaseTheLockAfterwards() {
        long e = world.spawn(new Position(1, 1, 1));
        Query q = world.query().with(pos).build();
        List<Runnable> changes = List.of(
                () -> world.spawn(new Position(0, 0, 0)),
                world::spawn,
                () -> world.entity().with(pos).spawnMany(3),
                () -> world.despawn(e),
                () -> world.add(e, vel),
                () -> world.remove(e, pos),
                () -> world.moveTo(e, world.storage().archetypes().empty()));
        for (Runnable change : changes) {
            IllegalStateException ex = assertThrows(IllegalStateException.class,
                    () -> q.forEachChunk(c -> change.run()));
            assertTrue(ex.getMessage().contains("query iteration") && ex.getMessage().contains("CommandBuffer"),
                    ex.getMessage());
            assertFalse(world.isStructureLocked(), "the lock is released after the body threw");
        }
        assertEquals(1, world.entityCount());
        assertTrue(world.has(e, pos));
        assertFalse(world.has(e, vel));
        world.despawn(e);
        assertEquals(0, world.entityCount());
    }

    @Test
    void shouldReleaseTheLockWhenTheBodyThrowsItsOwnException() {
        world.spawn(new Position(1, 1, 1));
        Query q = world.query().with(pos).build();
        RuntimeException boom = new RuntimeException("boom");
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> q.forEachChunk(c -> {
            assertTrue(world.isStructureLocked());
            throw boom;
        }));
        assertSame(boom, thrown);
        assertFalse(world.isStructureLocked());
        world.spawn(new Position(2, 2, 2));
        assertEquals(2, q.count());
    }

    @Test
    void shouldAllowValueWritesAndNestedIterationDuringIteration() {
        long a = world.spawn(new Position(1, 0, 0), new Velocity(2, 0, 0));
        long b = world.spawn(new Position(5, 0, 0));
        Query all = world.query().with(pos).build();
        Query moving = world.query().with(pos, vel).build();
        Field px = pos.field("x");
        Field vx = vel.field("x");
        moving.forEachChunk(c -> {
            float[] x = c.writeFloats(px);
            float[] v = c.readFloats(vx);
            for (int i = 0; i < c.size(); i++) {
                x[i] += v[i];
            }
        });
        assertEquals(3f, world.getFloat(a, px));
        List<Long> pairs = new ArrayList<>();
        all.forEach((outer, i) -> all.forEach((inner, j) -> pairs.add(outer.entity(i) * 31 + inner.entity(j))));
        assertEquals(4, pairs.size());
        all.forEach((c, row) -> world.set(c.entity(row), pos, new Position(9, 9, 9)));
        assertEquals(new Position(9, 9, 9), world.get(b, pos));
        assertFalse(world.isStructureLocked());
    }

    @Test
    void shouldKeepTheLockUntilTheOutermostOfNestedLocksIsReleased() {
        world.storage().lockStructure("a scheduled stage");
        world.storage().lockStructure("a query iteration");
        world.storage().unlockStructure();
        IllegalStateException ex = assertThrows(IllegalStateException.class, world::spawn);
        assertTrue(ex.getMessage().contains("a scheduled stage"), ex.getMessage());
        world.storage().unlockStructure();
        world.spawn();
        assertThrows(IllegalStateException.class, world.storage()::unlockStructure);
    }

    @Test
    void shouldRefuseAQueryWhoseEveryAnyTermIsExcluded() {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> world.query().with(health).any(pos).without(pos).build());
        assertTrue(ex.getMessage().contains("any(...) column [Position]") && ex.getMessage().contains("never match"),
                ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.query().any(pos, vel).without(vel, pos).build());
        // One any term excluded still leaves the others: a redundant term, not an impossible query.
        long pv = world.spawn(new Position(0, 0, 0), new Velocity(0, 0, 0));
        long v = world.spawn(new Velocity(0, 0, 0));
        assertEquals(Set.of(v), entitiesOf(world.query().any(pos, vel).without(pos).build()));
        assertTrue(world.isAlive(pv));
    }

    @Test
    void shouldNameComponentsNotColumnIdsInItsRefusals() {
        Component<Health> poison = world.component(Health.class, "Poison", Storage.SPARSE);
        Query q = world.query().with(pos, poison).without(frozen).build();
        IllegalStateException ex = assertThrows(IllegalStateException.class, () -> q.forEachChunk(view -> { }));
        assertTrue(ex.getMessage().startsWith("query with [Position, Health:Poison] without [Frozen] filters by sparse"),
                ex.getMessage());
    }
}
