package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.engine.Simulation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's reports x relations: two worlds whose components agree but whose pairs differ (a
 * second target of a multi-target relation, which the marker column does not hold, or the
 * order of a parent's children) differ in their state hash only through the relation store.
 * The reports name the holder and the relation with both target lists (or the target and its
 * holders in order), where they used to list nothing and blame the entity table or the
 * archetype layout.
 */
class PairDifferencesTest {
    record Pos(float x) {}

    @TempDir
    Path dir;

    /**
     * Crew 2..5 under ship 0; at tick 2 crew member 2 comes to like 3 and then {@code second}
     * (crew[second]). The Likes marker holds the first target, the same in both versions.
     */
    private static SimulationFactory game(IntSupplier second) {
        return (workers, populate) -> {
            World world = new World();
            world.component(Pos.class);
            Relation childOf = world.relations().childOf();
            Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
            if (populate) {
                long ship = world.spawn(new Pos(0));
                world.spawn(new Pos(1));
                for (int i = 0; i < 4; i++) {
                    world.relations().add(world.spawn(new Pos(2 + i)), childOf, ship);
                }
            }
            return Simulation.builder(world).workers(workers).seed(1)
                    .systems(s -> s.system("befriend").readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                        if (job.resource(Simulation.CLOCK).tick() != 2) {
                            return;
                        }
                        long[] crew = w.relations().children(w.relations().parent(w.relations().pairs(childOf)[0]));
                        w.relations().add(crew[0], likes, crew[1]);
                        w.relations().add(crew[0], likes, crew[second.getAsInt()]);
                    }))
                    .build();
        };
    }

    @Test
    void aGoldenRecordingNamesTheHolderWhoseSecondTargetDiffers() {
        Path golden = dir.resolve("golden");
        GoldenRecording.record(game(() -> 2), InputScript.NONE, 5, golden);   // 2 likes 3, 4
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(golden, game(() -> 3)));  // 2 likes 3, 5
        String m = f.getMessage();
        assertEquals(2, f.tick(), m);
        assertTrue(m.contains("entity 2v1 Likes.targets: [3v1, 4v1] in the reference, [3v1, 5v1] here"), m);
        assertEquals(List.of(new Difference("2v1", "Likes", "targets", "[3v1, 4v1]", "[3v1, 5v1]")), f.differences(), m);
    }

    /** The game whose crew member 2 likes 3 and 4, for {@code CompareRecordings --game}. */
    public static final class LikesFour implements SimulationFactory {
        /** Needed by {@code --game}. */
        public LikesFour() {
        }

        @Override
        public Simulation create(int workers, boolean populate) {
            return game(() -> 2).create(workers, populate);
        }
    }

    @Test
    void compareRecordingsDoesNotBlameOnlyTheEntityTableAndListsThePairs() {
        Path four = dir.resolve("four"), five = dir.resolve("five");
        GoldenRecording.record(game(() -> 2), InputScript.NONE, 5, four);
        GoldenRecording.record(game(() -> 3), InputScript.NONE, 5, five);
        for (boolean withGame : new boolean[] {false, true}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            String[] args = withGame ? new String[] {"--game", LikesFour.class.getName(), four.toString(), five.toString()}
                    : new String[] {four.toString(), five.toString()};
            int status = CompareRecordings.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            String o = out.toString(StandardCharsets.UTF_8);
            assertEquals(1, status, o);
            assertTrue(o.contains("components: every column's values agree; the entity table, the archetype layout or "
                    + "a relation's pairs differ"), o);
            assertEquals(withGame, o.contains("entity 2v1 Likes.targets: [3v1, 4v1] in the reference, [3v1, 5v1] here"), o);
        }
    }

    @Test
    void aDeterminismCheckNamesPairsThatDifferFromOneRunToTheNext() {
        AtomicInteger shared = new AtomicInteger(1);                    // a counter kept outside the world
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> DeterminismCheck.of(game(() -> shared.getAndIncrement() % 3 + 1)).ticks(4).workers(1).run());
        String m = f.getMessage();
        assertTrue(m.contains("differences at the end of tick 2"), m);
        assertTrue(m.contains("entity 2v1 Likes.targets: [3v1"), m);
        assertFalse(m.contains("every entity holds the same components and values"), m);
        assertFalse(m.contains("components whose values differ: []"), m);
    }

    @Test
    void childrenInAnotherOrderAreNamedByTheirParent() {
        World a = new World(), b = new World();
        for (World w : List.of(a, b)) {
            Component<Pos> pos = w.component(Pos.class);
            Relation childOf = w.relations().childOf();
            long ship = w.spawn(new Pos(0));
            long x = w.spawn(new Pos(1)), y = w.spawn(new Pos(2));
            boolean reversed = w == b;
            w.relations().add(reversed ? y : x, childOf, ship);
            w.relations().add(reversed ? x : y, childOf, ship);
            assertEquals(2, w.relations().children(ship).length, pos.toString());
        }
        assertTrue(a.stateHash() != b.stateHash(), "only the children's order differs, and the hash sees it");
        LinkedHashSet<String> components = new LinkedHashSet<>();
        List<Difference> diffs = WorldDiff.between(a, b, 10, components);
        assertEquals(List.of(new Difference(Entity.toString(a.relations().parent(a.relations().pairs(a.relations().childOf())[0])),
                "ChildOf", "holders", "[1v1, 2v1]", "[2v1, 1v1]")), diffs);
        assertTrue(components.isEmpty(), "no component's values differ: " + components);
    }

    /**
     * Two holders' pairs made in another order (each holder's targets and each target's holders agree), or a pair
     * made and removed in one world only: the pairs' numbers, which the state hash covers (they order a parent's
     * children), differ and nothing else does. The report named at most a row the order moved, or nothing; it now
     * names the relation and its pairs, holder and target, in the order made, with the pairs made and removed
     * between them.
     */
    @Test
    void pairsMadeInAnotherOrderOrMadeAndRemovedAreNamedInTheOrderMade() {
        World a = new World(), b = new World();
        for (World w : List.of(a, b)) {
            w.component(Pos.class);
            Relation likes = w.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
            long h1 = w.spawn(new Pos(0)), t1 = w.spawn(new Pos(1)), h2 = w.spawn(new Pos(2)), t2 = w.spawn(new Pos(3));
            if (w == a) {
                w.relations().add(h1, likes, t1);
                w.relations().add(h2, likes, t2);
            } else {
                w.relations().add(h2, likes, t2);
                w.relations().add(h1, likes, t1);
            }
        }
        assertTrue(a.stateHash() != b.stateHash(), "only the order the pairs were made in differs, and the hash sees it");
        List<Difference> diffs = WorldDiff.between(a, b, 10, new LinkedHashSet<>());
        assertEquals(List.of(new Difference(null, "Likes", "pairs in the order made", "[(0v1, 1v1), (2v1, 3v1)]",
                "[(2v1, 3v1), (0v1, 1v1)]")), diffs);
        assertEquals("relation Likes, pairs in the order made: [(0v1, 1v1), (2v1, 3v1)] in the reference, "
                + "[(2v1, 3v1), (0v1, 1v1)] here", diffs.get(0).toString());

        World c = new World(), d = new World();
        for (World w : List.of(c, d)) {
            w.component(Pos.class);
            Relation likes = w.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
            long h = w.spawn(new Pos(0)), t1 = w.spawn(new Pos(1)), t2 = w.spawn(new Pos(2));
            w.relations().add(h, likes, t1);
            if (w == d) {
                w.relations().add(h, likes, t2);
                w.relations().remove(h, likes, t2);
            }
        }
        assertTrue(c.stateHash() != d.stateHash(), "only the pair made and removed differs, and the hash sees it");
        assertEquals(List.of(new Difference(null, "Likes", "pairs in the order made", "[(0v1, 1v1)]",
                "[(0v1, 1v1), 1 made and removed]")), WorldDiff.between(c, d, 10, new LinkedHashSet<>()));
    }
}
