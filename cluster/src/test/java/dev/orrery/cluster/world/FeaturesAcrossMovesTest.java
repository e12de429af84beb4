package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.engine.ReplayDivergenceException;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A world that uses the engine's other features ({@link FeatureWorld}: a resource with a
 * codec, events in flight, a pending state transition, a fixed step's accumulator, the
 * counter-based random source, sparse components, a {@code ChildOf} hierarchy walked by level,
 * named instances from a template, a change filter and a removal log, a reference component
 * with a codec, optionally a named sparse instance beside a table one of its record) moved by hand-off and
 * by crash, with inputs arriving while it moves: after each move its state hash and its whole
 * snapshot (world, resources, flow state) equal those of one straight run of the same inputs.
 */
class FeaturesAcrossMovesTest {
    private static final String WORLD = "features-1";
    private static final long CLIENT = 41;

    @TempDir
    Path dir;

    /** Inputs stamped per tick by the incarnations, for the reference run. */
    private final Map<Long, List<Integer>> script = new TreeMap<>();
    private int nextInput;

    /** A snapshot every 7 ticks: each right after a tick that requested a transition (t % 7 == 6). */
    private static WorldSettings settings() {
        return WorldSettings.defaults().withSnapshotEvery(7).withKeepSnapshots(0);
    }

    private void run(WorldRuntime w, int ticks) throws IOException {
        for (int i = 0; i < ticks; i++) {
            offerNew(w, (int) (w.currentTick() % 3));
            w.tick();
        }
    }

    /** Offers {@code n} new inputs for the next tick and scripts them for the reference run. */
    private List<Integer> offerNew(WorldRuntime w, int n) {
        List<Integer> ids = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            int id = nextInput++;
            assertEquals(WorldRuntime.Offer.Verdict.QUEUED,
                    w.offer(CLIENT, id + 1, 1, FeatureWorld.SPAWN, FeatureWorld.spawn(id)).verdict());
            script.computeIfAbsent(w.currentTick(), t -> new ArrayList<>()).add(id);
            ids.add(id);
        }
        return ids;
    }

    /** One straight run of {@code ticks} ticks with the scripted inputs. */
    private Simulation reference(WorldBlueprint blueprint, long ticks) {
        Simulation sim = blueprint.build(WORLD, true);
        sim.inputs(new ScriptedInputs(script, FeatureWorld.SPAWN, FeatureWorld::spawn));
        for (long t = 0; t < ticks; t++) {
            sim.tick();
        }
        return sim;
    }

    private void assertSameAsStraightRun(WorldBlueprint blueprint, WorldRuntime moved, String when) {
        try (Simulation straight = reference(blueprint, moved.currentTick())) {
            assertEquals(straight.world().stateHash(), moved.stateHash(), when + ": state hash");
            assertArrayEquals(straight.snapshot(), moved.simulation().snapshot(),
                    when + ": the whole snapshot (world, resources with codecs, events, states, fixed step)");
        }
    }

    @Test
    void everyFeatureContinuesBitForBitThroughAHandOffAndACrash() throws IOException {
        WorldBlueprint blueprint = new FeatureWorld(false);
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime first = WorldRuntime.open(WORLD, store, blueprint, settings());
        run(first, 7);
        // a transition requested in tick 6 is pending, tick 6's hit is unread, the accumulator is part-full
        try (Simulation check = reference(blueprint, 7)) {
            assertEquals(FeatureWorld.Mode.STORM, check.resources().get(FeatureWorld.MODE).requested());
            assertTrue(check.resources().get(FeatureWorld.PHYSICS_CLOCK).accumulated() > 0);
            FeatureWorld.Tally t = check.resources().get(FeatureWorld.TALLY);
            assertTrue(t.hits > 0 && t.changedChunks > 0 && t.removedSeen > 0, "events, change filter, removal log");
        }
        // two inputs arrive while the world moves: queued on the old holder, never ticked there
        long seqA = nextInput + 1;
        assertEquals(WorldRuntime.Offer.Verdict.QUEUED,
                first.offer(CLIENT, seqA, 1, FeatureWorld.SPAWN, FeatureWorld.spawn(nextInput)).verdict());
        assertEquals(WorldRuntime.Offer.Verdict.QUEUED,
                first.offer(CLIENT, seqA + 1, 1, FeatureWorld.SPAWN, FeatureWorld.spawn(nextInput + 1)).verdict());
        first.close(); // a hand-off: snapshot at tick 7; the queued inputs are dropped, not applied

        WorldRuntime second = WorldRuntime.open(WORLD, store, blueprint, settings());
        assertEquals(0, second.recovery().ticksReplayed());
        assertSameAsStraightRun(blueprint, second, "after the hand-off");
        List<Integer> retried = offerNew(second, 2);               // the client sends both again, same sequences
        assertEquals(List.of((int) seqA - 1, (int) seqA), retried);
        second.tick();
        assertEquals(new WorldRuntime.Offer(WorldRuntime.Offer.Verdict.APPLIED, 7, ""),
                second.offer(CLIENT, seqA, 1, FeatureWorld.SPAWN, FeatureWorld.spawn((int) seqA - 1)));
        run(second, 23);
        // an input applied and journaled in tick 31 whose answer is lost in the crash
        List<Integer> lost = offerNew(second, 1);
        long lostTick = second.tick();
        second.abandon(); // a crash at tick 32: snapshot at 28, ticks 28 to 31 only in the journal

        WorldRuntime third = WorldRuntime.open(WORLD, store, blueprint, settings());
        assertEquals(28, third.recovery().snapshotTick());
        assertEquals(4, third.recovery().ticksReplayed());
        assertSameAsStraightRun(blueprint, third, "after the crash");
        assertEquals(new WorldRuntime.Offer(WorldRuntime.Offer.Verdict.APPLIED, lostTick, ""),
                third.offer(CLIENT, lost.get(0) + 1, 1, FeatureWorld.SPAWN, FeatureWorld.spawn(lost.get(0))),
                "a retry after the crash is answered with the tick it applied in, and not applied again");
        run(third, 10);
        assertSameAsStraightRun(blueprint, third, "10 ticks after the crash");
        third.close();

        HistoryReplay.Result straight = HistoryReplay.replay(store, WORLD, blueprint);
        assertEquals(0, straight.hashMismatches(), "journaled hashes that a straight replay does not reproduce");
        WorldVerifier.Report report = WorldVerifier.verify(store, WORLD, blueprint);
        assertTrue(report.ok(), report.describe());
        assertEquals(nextInput, report.inputsApplied(), "every input applied once: " + report.describe());
    }

    /**
     * What a name look-up answers on every entity, by index: for each
     * instance name the column found ({@code findComponent}), the fields of "Mist" and "Veil"
     * read by name, and the names the entity holds, in order, as the refusal of an unknown name
     * lists them. Also counts the holders of the sparse "Mist" and whether the "Veil" lamp holds it.
     */
    private static List<String> nameLookUps(World world, int[] mistHolders) {
        PropertyHandle mistRadius = world.property(FeatureWorld.MIST, "radius");
        List<String> out = new ArrayList<>();
        for (int index = 0; index < world.entityCount(); index++) {
            long e = Entity.of(index, 1);   // FeatureWorld never despawns (a query loop would advance the change clock)
            assertTrue(world.isAlive(e), Entity.toString(e));
            StringBuilder line = new StringBuilder().append(e);
            for (String name : List.of(FeatureWorld.MIST, FeatureWorld.VEIL, "Fog", "Halo", "Buff", "Pos")) {
                Component<?> c = world.findComponent(e, name);
                line.append(' ').append(name).append('=').append(c == null ? "-" : c + "#" + c.id() + "/" + c.storage());
            }
            if (world.findComponent(e, FeatureWorld.MIST) != null) {
                mistHolders[0]++;
                line.append(" mist=").append(world.getProperty(e, FeatureWorld.MIST, "radius")).append(',')
                        .append(world.getProperty(e, FeatureWorld.MIST, "hue")).append(',')
                        .append(Float.floatToRawIntBits(mistRadius.getFloat(e)));
                if (world.findComponent(e, FeatureWorld.VEIL) != null) {
                    mistHolders[1]++;
                }
            }
            if (world.findComponent(e, FeatureWorld.VEIL) != null) {
                line.append(" veil=").append(world.getProperty(e, FeatureWorld.VEIL, "radius"));
            }
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                    () -> world.getProperty(e, "NoSuchName", "x"));
            line.append(' ').append(unknown.getMessage());               // lists the names the entity holds, in order
            out.add(line.toString());
        }
        return out;
    }

    private void assertSameNameLookUps(WorldBlueprint blueprint, WorldRuntime moved, String when) {
        try (Simulation straight = reference(blueprint, moved.currentTick())) {
            int[] expectedHolders = new int[2];
            int[] movedHolders = new int[2];
            List<String> expected = nameLookUps(straight.world(), expectedHolders);
            assertTrue(expectedHolders[0] > 1 && expectedHolders[1] == 1,
                    when + ": the straight run has lamps with Mist, the Veil lamp among them: " + expected);
            assertEquals(expected, nameLookUps(moved.simulation().world(), movedHolders), when + ": name look-ups");
        }
    }

    @Test
    void aNamedSparseInstanceAnswersByNameAfterAHandOffAndACrash() throws IOException {
        WorldBlueprint blueprint = new FeatureWorld(false, true, true);
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime first = WorldRuntime.open(WORLD, store, blueprint, settings());
        run(first, 7);
        first.close(); // a hand-off: snapshot at tick 7, the Veil lamp holding Mist since tick 3

        WorldRuntime second = WorldRuntime.open(WORLD, store, blueprint, settings());
        assertEquals(0, second.recovery().ticksReplayed());
        assertSameAsStraightRun(blueprint, second, "after the hand-off");
        assertSameNameLookUps(blueprint, second, "after the hand-off");
        run(second, 25);
        second.abandon(); // a crash at tick 32: snapshot at 28, ticks 28 to 31 (Mist set by name) only in the journal

        WorldRuntime third = WorldRuntime.open(WORLD, store, blueprint, settings());
        assertEquals(28, third.recovery().snapshotTick());
        assertEquals(4, third.recovery().ticksReplayed());
        assertSameAsStraightRun(blueprint, third, "after the crash");
        assertSameNameLookUps(blueprint, third, "after the crash");
        third.close();
    }

    @Test
    void stateInAResourceWithoutACodecIsNamedWhenAMoveLosesIt() throws IOException {
        WorldBlueprint blueprint = new FeatureWorld(true);
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime first = WorldRuntime.open(WORLD, store, blueprint, settings());
        assertEquals(List.of("Counter"), ResourcesLeftOut.of(first.simulation()), "what a node names on a restore");
        run(first, 9);
        first.close();
        // a hand-off cannot tell: the counter restarts from the blueprint's value, and nothing is replayed to check
        WorldRuntime second = WorldRuntime.open(WORLD, store, blueprint, settings());
        assertEquals(0, second.simulation().resources().get(FeatureWorld.COUNTER).value);
        run(second, 20);
        second.abandon();
        // a crash replays journaled ticks from a snapshot, which restarts the counter again: the hashes differ, and
        // the node says so with the engine's type for a replay that diverges (an IllegalStateException before)
        ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                () -> WorldRuntime.open(WORLD, store, blueprint, settings()));
        assertTrue(e.tick() > 9 && e.recordedHash() != e.replayedHash(), e.getMessage());
        assertTrue(e.getMessage().startsWith("world 'features-1': replay of tick " + e.tick() + " from ")
                && e.getMessage().contains(" gave state hash 0x" + Long.toHexString(e.replayedHash()) + " but 0x"
                        + Long.toHexString(e.recordedHash()) + " was journaled"), e.getMessage());
        assertTrue(e.getMessage().contains("resource put without a codec")
                && e.getMessage().contains("(this world's: Counter)")
                && e.getMessage().contains("SimulationBuilder.resource(key, value, codec)"), e.getMessage());
        WorldVerifier.Report report = WorldVerifier.verify(store, WORLD, blueprint);
        assertEquals(9, report.firstMismatchTick(), "the tick the hand-off restarted the counter at");
        assertTrue(report.describe().contains("(this world's: Counter)"), report.describe());
    }

    @Test
    void aWorldWhoseResourcesAllHaveCodecsLeavesNoneOut() throws IOException {
        WorldRuntime w = WorldRuntime.open(WORLD, new DirectoryWorldStore(dir), new FeatureWorld(false), settings());
        assertEquals(List.of(), ResourcesLeftOut.of(w.simulation()), "states, fixed steps and events get codecs");
        w.close();
    }

    @Test
    void aWorldThatCannotTakeASnapshotIsRefusedBeforeItsFirstTick() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        // a reference component without its codec: before, the world ran until its first periodic snapshot (tick
        // 7, already journaled), failed, reopened, replayed from tick 0 and failed again at tick 7, for ever
        // the engine's type for a simulation that cannot take a snapshot (an IllegalStateException before), its refusal
        // the cause
        SnapshotException e = assertThrows(SnapshotException.class,
                () -> WorldRuntime.open(WORLD, store, new FeatureWorld(false, false), settings()));
        assertTrue(e.getCause() instanceof SnapshotException, String.valueOf(e.getCause()));
        assertTrue(e.getMessage().contains("world 'features-1' cannot run in a cluster")
                && e.getMessage().contains("reference component Label")
                && e.getMessage().contains("referenceCodec(Label.class, ...)"), e.getMessage());
        assertEquals(List.of(), store.segments(WORLD), "no tick journaled");
    }
}
