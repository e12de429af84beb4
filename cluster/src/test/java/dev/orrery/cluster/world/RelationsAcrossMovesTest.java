package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Relations x a world moved between nodes: pairs of a relation with several targets per holder
 * (the marker column holds only the first), the order of a parent's children (changed by
 * children leaving and coming back), the pairs' sequence numbers and a named instance on the
 * same entities, through a hand-off (snapshot only) and a crash (snapshot then journal
 * replay). {@code FeaturesAcrossMovesTest} moves a {@code ChildOf} tree whose order never
 * changes and no other relation. Every tick of the moved world must equal one straight run:
 * state hash, whole snapshot, and each entity's targets and children in order.
 */
class RelationsAcrossMovesTest {
    private static final String WORLD = "relations-1";

    record Pos(float x) {
    }

    record Tint(int rgb) {
    }

    @TempDir
    Path dir;

    /** Ship 0 with 12 crew; each tick some crew leave and rejoin (now last), some like or stop liking others. */
    private static final WorldBlueprint BLUEPRINT = (worldId, populate) -> {
        World world = new World(256);
        Component<Pos> pos = world.component(Pos.class);
        Component<Tint> hull = world.component(Tint.class, "Hull");
        Relation childOf = world.relations().childOf();
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        if (populate) {
            long ship = world.spawn(new Pos(0));
            world.add(ship, hull, new Tint(7));
            for (int i = 0; i < 12; i++) {
                long e = world.spawn(new Pos(i + 1));
                world.relations().add(e, childOf, ship);
                if (i % 3 == 0) {
                    world.add(e, hull, new Tint(i));
                }
            }
        }
        return Simulation.builder(world).seed(worldId.hashCode()).workers(1).hashEvery(1)
                .systems(s -> s.system("crew").readsResource(Simulation.CLOCK).readsResource(Simulation.RANDOM)
                        .exclusive((w, job) -> {
                            long t = job.resource(Simulation.CLOCK).tick();
                            CounterRandom rnd = job.resource(Simulation.RANDOM);
                            long ship = w.relations().parent(w.relations().pairs(childOf)[0]);
                            long[] crew = w.relations().children(ship);
                            for (long e : crew) {
                                float r = rnd.nextFloat(t, e, 0);
                                if (r < 0.15f) {                      // leaves and rejoins: now the last child
                                    w.relations().remove(e, childOf, ship);
                                    w.relations().add(e, childOf, ship);
                                }
                                long other = crew[(int) (rnd.nextFloat(t, e, 1) * crew.length)];
                                if (other != e && rnd.nextFloat(t, e, 2) < 0.3f) {
                                    if (!w.relations().add(e, likes, other)) {
                                        w.relations().remove(e, likes, other);
                                    }
                                }
                                if (r > 0.9f) {
                                    if (w.has(e, hull)) {
                                        w.remove(e, hull);
                                    } else {
                                        w.add(e, hull, new Tint((int) t));
                                    }
                                }
                            }
                        }))
                .build();
    };

    /** Every entity's children and Likes targets in order, and its Hull, by id. */
    private static List<String> relationsOf(World world) {
        Relation likes = world.relations().byName("Likes");
        Relation childOf = world.relations().childOf();
        Component<?> hull = world.columns().stream().filter(c -> c.name().equals("Hull")).findFirst().orElseThrow();
        List<String> out = new ArrayList<>();
        world.query().build().forEachReadOnly((v, row) -> {
            long e = v.entity(row);
            out.add(e + " children=" + Arrays.toString(world.relations().holders(childOf, e)) + " likes="
                    + Arrays.toString(world.relations().targets(e, likes)) + " hull=" + world.has(e, hull));
        });
        out.sort(null);
        return out;
    }

    private static void assertSameAsStraightRun(WorldRuntime moved, String when) {
        try (Simulation straight = BLUEPRINT.build(WORLD, true)) {
            for (long t = 0; t < moved.currentTick(); t++) {
                straight.tick();
            }
            List<String> expected = relationsOf(straight.world());
            assertTrue(expected.stream().anyMatch(l -> l.contains("likes=[") && l.matches(".*likes=\\[\\d+, \\d+.*")),
                    when + ": some holder likes two or more: " + expected);
            long[] children = straight.world().relations().children(straight.world().relations()
                    .parent(straight.world().relations().pairs(straight.world().relations().childOf())[0]));
            long[] sorted = children.clone();
            Arrays.sort(sorted);
            assertTrue(!Arrays.equals(sorted, children), when + ": the children are out of spawn order");
            assertEquals(expected, relationsOf(moved.simulation().world()), when + ": children and targets in order");
            assertEquals(straight.world().stateHash(), moved.stateHash(), when + ": state hash");
            assertArrayEquals(straight.snapshot(), moved.simulation().snapshot(), when + ": the whole snapshot");
        }
    }

    private static void run(WorldRuntime w, int ticks) throws IOException {
        for (int i = 0; i < ticks; i++) {
            w.tick();
        }
    }

    @Test
    void pairsTheirOrderAndNamedInstancesContinueThroughAHandOffAndACrash() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldSettings settings = WorldSettings.defaults().withSnapshotEvery(7).withKeepSnapshots(0);
        WorldRuntime first = WorldRuntime.open(WORLD, store, BLUEPRINT, settings);
        run(first, 9);
        first.close();                                               // a hand-off: snapshot at tick 9

        WorldRuntime second = WorldRuntime.open(WORLD, store, BLUEPRINT, settings);
        assertEquals(0, second.recovery().ticksReplayed());
        assertSameAsStraightRun(second, "after the hand-off");
        run(second, 14);
        second.abandon();                                            // a crash at tick 23: snapshot at 21, 2 replayed

        WorldRuntime third = WorldRuntime.open(WORLD, store, BLUEPRINT, settings);
        assertTrue(third.recovery().ticksReplayed() > 0, "the crash replays journaled ticks");
        assertSameAsStraightRun(third, "after the crash");
        run(third, 5);
        assertSameAsStraightRun(third, "5 ticks after the crash");
        third.close();

        HistoryReplay.Result straight = HistoryReplay.replay(store, WORLD, BLUEPRINT);
        assertEquals(0, straight.hashMismatches(), "journaled hashes that a straight replay does not reproduce");
        WorldVerifier.Report report = WorldVerifier.verify(store, WORLD, BLUEPRINT);
        assertTrue(report.ok(), report.describe());
    }
}
