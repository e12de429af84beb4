package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.Simulation;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's reports x the entity table and the archetype layout: two worlds that hold the same
 * entities with the same components and values, but with rows in another order, archetypes
 * made in another order, or ids freed in another order (so the next spawn gets another id),
 * differ in their state hash and in nothing {@link WorldDiff} compared, so the reports listed
 * no difference and blamed "the entity table, the archetype layout or a relation's pairs"
 * without naming any. They now name the first entity at another place, the archetypes' order,
 * or the ids the next spawns get.
 */
class LayoutDifferencesTest {
    record Pos(float x) {}

    record Vel(float dx) {}

    @TempDir
    Path dir;

    @Test
    void rowsInAnotherOrderNameTheFirstEntityAtAnotherPlace() {
        World a = new World(), b = new World();
        for (World w : List.of(a, b)) {
            Component<Pos> pos = w.component(Pos.class);
            w.spawn(new Pos(0));
            long p1 = w.spawn(new Pos(1));
            w.spawn(new Pos(2));
            if (w == b) { // p1 leaves its archetype and comes back: rows [p0, p2, p1]
                w.remove(p1, pos);
                w.add(p1, pos, new Pos(1));
            }
        }
        assertNotEquals(a.stateHash(), b.stateHash(), "only the rows' order differs, and the hash sees it");
        LinkedHashSet<String> components = new LinkedHashSet<>();
        List<Difference> diffs = WorldDiff.between(a, b, 10, components);
        assertEquals(List.of(new Difference("1v1", null, "place", "[Pos] chunk 0 row 1", "[Pos] chunk 0 row 2")),
                diffs);
        assertEquals("entity 1v1 place: [Pos] chunk 0 row 1 in the reference, [Pos] chunk 0 row 2 here",
                diffs.get(0).toString());
        assertTrue(components.isEmpty(), "no component's values differ: " + components);
    }

    @Test
    void idsFreedInAnotherOrderNameTheNextIdsEachWorldHandsOut() {
        World a = new World(), b = new World();
        for (World w : List.of(a, b)) {
            w.component(Pos.class);
            w.spawn(new Pos(0));
            long p1 = w.spawn(new Pos(1));
            long p2 = w.spawn(new Pos(2));
            w.despawn(w == a ? p1 : p2);
            w.despawn(w == a ? p2 : p1);
        }
        assertNotEquals(a.stateHash(), b.stateHash(), "only the free list's order differs, and the hash sees it");
        List<Difference> diffs = WorldDiff.between(a, b, 10, new LinkedHashSet<>());
        assertEquals(List.of(new Difference(null, null, "next ids", "[1v2, 2v2, 3v1]", "[2v2, 1v2, 3v1]")), diffs);
        assertEquals("next ids: [1v2, 2v2, 3v1] in the reference, [2v2, 1v2, 3v1] here",
                diffs.get(0).toString());
    }

    @Test
    void archetypesMadeInAnotherOrderAreNamedInTheirOrder() {
        World a = new World(), b = new World();
        for (World w : List.of(a, b)) {
            Component<Pos> pos = w.component(Pos.class);
            w.component(Vel.class);
            if (w == a) {
                w.spawn(new Pos(0));
                w.spawn(new Pos(1), new Vel(1));
            } else { // the same entities, but [Pos, Vel] made first
                long e0 = w.spawn();
                w.spawn(new Pos(1), new Vel(1));
                w.add(e0, pos, new Pos(0));
            }
        }
        assertNotEquals(a.stateHash(), b.stateHash(), "only the archetypes' order differs, and the hash sees it");
        List<Difference> diffs = WorldDiff.between(a, b, 10, new LinkedHashSet<>());
        assertEquals(List.of(new Difference(null, null, "archetype order", "[[Pos], [Pos, Vel]]", "[[Pos, Vel], [Pos]]")),
                diffs);
    }

    /**
     * An entity that gained a component and lost it again in one world only: the same entities, values and places,
     * but that world made the archetype [Pos, Vel] and emptied it. The state hash walks every archetype, empty ones
     * too, so it differs; the walk of the chunks skips empty ones, and the report named nothing.
     */
    @Test
    void anArchetypeMadeAndEmptiedInOneWorldOnlyIsNamedByItsComponents() {
        World a = new World(), b = new World();
        for (World w : List.of(a, b)) {
            w.component(Pos.class);
            Component<Vel> vel = w.component(Vel.class);
            long e = w.spawn(new Pos(0));
            if (w == b) {
                w.add(e, vel, new Vel(1));
                w.remove(e, vel);
            }
        }
        assertNotEquals(a.stateHash(), b.stateHash(), "only the emptied archetype differs, and the hash sees it");
        List<Difference> diffs = WorldDiff.between(a, b, 10, new LinkedHashSet<>());
        assertEquals(List.of(new Difference(null, null, "archetype [Pos, Vel]", "absent", "empty")), diffs);
        assertEquals("archetype [Pos, Vel]: absent in the reference, empty here", diffs.get(0).toString());
        assertEquals(List.of(new Difference(null, null, "archetype [Pos, Vel]", "empty", "absent")),
                WorldDiff.between(b, a, 10, new LinkedHashSet<>()));
    }

    /**
     * Both worlds made [Pos, Vel] and emptied it, but one before [Pos] (and [Vel] on the way): the archetype one
     * world only has, then the order of every archetype both have, the empty ones marked.
     */
    @Test
    void anEmptyArchetypeMadeInAnotherOrderIsNamedInTheOrder() {
        World a = new World(), b = new World();
        for (World w : List.of(a, b)) {
            Component<Pos> pos = w.component(Pos.class);
            Component<Vel> vel = w.component(Vel.class);
            if (w == a) {
                long e = w.spawn(new Pos(0));
                w.add(e, vel, new Vel(1));
                w.remove(e, vel);
            } else { // [Vel] and [Pos, Vel] made first, then [Pos]
                long e = w.spawn(new Vel(1));
                w.add(e, pos, new Pos(0));
                w.remove(e, vel);
            }
        }
        assertNotEquals(a.stateHash(), b.stateHash());
        List<Difference> diffs = WorldDiff.between(a, b, 10, new LinkedHashSet<>());
        assertEquals(List.of(new Difference(null, null, "archetype [Vel]", "absent", "empty"),
                new Difference(null, null, "archetype order", "[[] (empty), [Pos], [Pos, Vel] (empty)]",
                        "[[] (empty), [Pos, Vel] (empty), [Pos]]")), diffs);
    }

    /** Three crates; at tick 2 crates 1 and 2 are despawned, 1 first unless {@code reversed}. */
    private static SimulationFactory game(boolean reversed) {
        return (workers, populate) -> {
            World world = new World();
            Component<Pos> pos = world.component(Pos.class);
            if (populate) {
                for (int i = 0; i < 3; i++) {
                    world.spawn(new Pos(i));
                }
            }
            return Simulation.builder(world).workers(workers).seed(1)
                    .systems(s -> s.system("clear").readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                        if (job.resource(Simulation.CLOCK).tick() == 2) {
                            long[] crates = new long[3];
                            w.query().with(pos).build().forEachReadOnly((v, row) -> crates[(int) v.get(pos, row).x()] = v.entity(row));
                            w.despawn(crates[reversed ? 2 : 1]);
                            w.despawn(crates[reversed ? 1 : 2]);
                        }
                    }))
                    .build();
        };
    }

    @Test
    void aGoldenRecordingNamesTheNextIdsWhenOnlyTheDespawnOrderChanged() {
        Path golden = dir.resolve("golden");
        GoldenRecording.record(game(false), InputScript.NONE, 5, golden);
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(golden, game(true)));
        String m = f.getMessage();
        assertEquals(2, f.tick(), m);
        assertTrue(m.contains("next ids: [1v2, 2v2, 3v1] in the reference, "
                + "[2v2, 1v2, 3v1] here"), m);
        assertFalse(f.differences().isEmpty(), m);
    }
}
