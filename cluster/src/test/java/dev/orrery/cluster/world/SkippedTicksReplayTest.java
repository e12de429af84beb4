package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.ReplayDivergenceException;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalRecordKind;
import dev.orrery.scheduler.Resources;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A world hosted in the cluster under {@code FailurePolicy.SKIP_TICK} whose system throws on
 * one tick: a node's replay of its journal ({@link WorldRuntime#open}) and a
 * {@link WorldVerifier} check the journaled skips as a {@code JournalInputSource} replay does.
 * The throwing system changes nothing when it does not throw, so a tick skipped and the same
 * tick run leave the same state hash: only the skip check can tell them apart.
 */
class SkippedTicksReplayTest {
    private static final String WORLD = "skips-1";
    private static final int TICKS = 10;

    record Pos(float x) {
    }

    @TempDir
    Path dir;

    /**
     * Ten entities that "step" moves by {@code step} each tick; "fragile" reads them and throws
     * on tick {@code failAt} (never when -1); the state hash every {@code hashEvery} ticks.
     */
    private static WorldBlueprint fragile(long failAt, int hashEvery, float step) {
        return fragile(failAt, hashEvery, step, FailurePolicy.SKIP_TICK);
    }

    /** {@link #fragile(long, int, float)} under {@code policy}. */
    private static WorldBlueprint fragile(long failAt, int hashEvery, float step, FailurePolicy policy) {
        return (worldId, populate) -> {
            World world = new World(1024);
            Component<Pos> pos = world.component(Pos.class);
            if (populate) {
                world.entity().with(pos, new Pos(0)).spawnMany(10);
            }
            Field px = pos.field("x");
            SimulationBuilder b = Simulation.builder(world).seed(3).workers(1).hashEvery(hashEvery)
                    .onSystemFailure(policy);
            Resources res = b.resources();
            Simulation sim = b.systems(s -> s
                    .system("step").query(world.query().with(pos).build()).writes(pos).forEachChunk(job -> {
                        float[] x = job.chunk().writeFloats(px);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            x[i] += step;
                        }
                    })
                    .system("fragile").query(world.query().with(pos).build()).reads(pos)
                    .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                        if (res.get(Simulation.CLOCK).tick() == failAt) {
                            throw new IllegalStateException("fragile fails at tick " + failAt);
                        }
                    })).build();
            sim.failureListener((tick, failure, first) -> { }); // expected failures: no log line
            return sim;
        };
    }

    private static WorldBlueprint fragile(long failAt) {
        return fragile(failAt, 1, 1f);
    }

    /** No periodic snapshot: a reopen after a crash replays the journal from tick 0. */
    private static WorldSettings settings() {
        return WorldSettings.defaults().withSnapshotEvery(0).withKeepSnapshots(0);
    }

    /** Runs a world of {@code blueprint} for {@code ticks} ticks and crashes it (nothing but the journal is stored). */
    private WorldStore recordAndCrash(WorldBlueprint blueprint, int ticks) throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime w = WorldRuntime.open(WORLD, store, blueprint, settings());
        for (int i = 0; i < ticks; i++) {
            w.tick();
        }
        w.abandon();
        return store;
    }

    @Test
    void aTickSkippedWhileRecordingReplaysSkippedAtTheSameTick() throws IOException {
        WorldStore store = recordAndCrash(fragile(5), TICKS);
        WorldRuntime reopened = WorldRuntime.open(WORLD, store, fragile(5), settings());
        assertEquals(TICKS, reopened.recovery().ticksReplayed());
        assertEquals(1, reopened.simulation().skippedTicks(), "the replay skipped tick 5 as the recording did");
        reopened.close();

        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, fragile(5));
        assertTrue(r.ok(), r.describe());
        assertEquals(1, r.skipsMatched(), r.describe());
        assertEquals(0, r.skipMismatches(), r.describe());
        assertTrue(r.describe().contains("1 of 1 journaled skipped ticks matched"), r.describe());
    }

    @Test
    void aReplayThatRunsATickTheRecordingSkippedIsRefusedNamingTheTickAndTheSystem() throws IOException {
        WorldStore store = recordAndCrash(fragile(5), TICKS);
        // the system no longer throws: the state hashes all match (it writes nothing), the skip does not
        ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                () -> WorldRuntime.open(WORLD, store, fragile(-1), settings()));
        assertEquals(5, e.tick());
        assertTrue(e.getMessage().startsWith("world 'skips-1': replay of tick 5 from "), e.getMessage());
        assertTrue(e.getMessage().contains("the recording skipped the tick (system 'fragile' threw) but the replay "
                + "ran it"), e.getMessage());
        assertTrue(e.getMessage().contains("the blueprint differs from the one the world ran with"), e.getMessage());
        // it throws at another tick: the first difference, tick 5, is named
        ReplayDivergenceException later = assertThrows(ReplayDivergenceException.class,
                () -> WorldRuntime.open(WORLD, store, fragile(7), settings()));
        assertEquals(5, later.tick(), later.getMessage());

        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, fragile(-1));
        assertFalse(r.ok(), r.describe());
        assertEquals(1, r.skipMismatches(), r.describe());
        assertEquals(0, r.hashMismatches(), "only the skip differs: " + r.describe());
        assertTrue(r.describe().startsWith("FAILED"), r.describe());
        assertTrue(r.describe().contains("first at tick 5: the recording skipped the tick (system 'fragile' threw) "
                + "but the replay ran it"), r.describe());
    }

    /**
     * "seeder" spawns one entity a tick and "reader" reads them, so a sync point before
     * "reader" applies the spawn; an onAdd hook there throws on tick {@code failAt} (never when -1).
     */
    private static WorldBlueprint hooked(long failAt) {
        return (worldId, populate) -> {
            World world = new World(1024);
            Component<Pos> pos = world.component(Pos.class);
            SimulationBuilder b = Simulation.builder(world).seed(3).workers(1).hashEvery(1)
                    .onSystemFailure(FailurePolicy.SKIP_TICK);
            Resources res = b.resources();
            world.observe(pos).onAdd((w, e, commands) -> {
                if (res.value(Simulation.CLOCK).tick() == failAt) {
                    throw new IllegalStateException("the hook refuses at tick " + failAt);
                }
            });
            Simulation sim = b.systems(s -> s
                    .system("seeder").spawns(pos).forEachRange(() -> 1,
                            (job, from, to) -> job.commands().add(job.commands().spawn(), pos, new Pos(0)))
                    .system("reader").query(world.query().with(pos).build()).reads(pos).forEachChunk(job -> { }))
                    .build();
            sim.failureListener((tick, failure, first) -> { }); // expected failures: no log line
            return sim;
        };
    }

    @Test
    void aTickASyncPointSkippedIsNamedAsTheSyncPointItIsNotAsASystem() throws IOException {
        WorldStore store = recordAndCrash(hooked(5), TICKS);
        ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                () -> WorldRuntime.open(WORLD, store, hooked(-1), settings()));
        assertEquals(5, e.tick(), e.getMessage());
        // was: "(system 'sync point before system 'reader'' threw)", where SkipComparison says "the ... failed"
        assertTrue(e.getMessage().contains("the recording skipped the tick (the sync point before system 'reader' "
                + "failed) but the replay ran it"), e.getMessage());
        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, hooked(-1));
        assertTrue(r.describe().contains("first at tick 5: the recording skipped the tick (the sync point before "
                + "system 'reader' failed) but the replay ran it"), r.describe());
    }

    @Test
    void aReplayThatSkipsATickTheRecordingRanIsRefusedNamingTheTickAndTheSystem() throws IOException {
        WorldStore store = recordAndCrash(fragile(-1), TICKS);
        ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                () -> WorldRuntime.open(WORLD, store, fragile(7), settings()));
        assertEquals(7, e.tick());
        assertTrue(e.getMessage().contains("replay of tick 7 from ")
                && e.getMessage().contains("the recording ran the tick but the replay skipped it (system 'fragile' "
                        + "threw)"), e.getMessage());

        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, fragile(7));
        assertFalse(r.ok(), r.describe());
        assertEquals(1, r.skipMismatches(), r.describe());
        assertTrue(r.describe().contains("first at tick 7: the recording ran the tick but the replay skipped it "
                + "(system 'fragile' threw)"), r.describe());
    }

    @Test
    void aSkipNoteACrashMayHaveLostIsLetPassAsTheEngineLetsItPass() throws IOException {
        WorldStore store = recordAndCrash(fragile(-1), 6);
        // the crash cut the segment right after tick 5's end: its skip note and hash may be what it lost
        Path segment = store.segments(WORLD).get(0).path();
        long cutAt = -1;
        try (JournalReader reader = JournalReader.openAllowingCut(segment)) {
            boolean afterEnd = false;
            while (reader.nextRecord()) {
                if (afterEnd) {
                    cutAt = reader.recordOffset();
                    break;
                }
                afterEnd = reader.kind() == JournalRecordKind.TICK_END && reader.tick() == 5;
            }
        }
        assertTrue(cutAt > 0, "tick 5's hash follows its end");
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.truncate(cutAt);
        }
        WorldRuntime reopened = WorldRuntime.open(WORLD, store, fragile(5), settings());
        assertEquals(6, reopened.currentTick());
        assertEquals(1, reopened.simulation().skippedTicks());
        reopened.close();
    }

    @Test
    void theVerifierChecksEveryJournaledHashWhateverTheBlueprintsHashEvery() throws IOException {
        WorldStore store = recordAndCrash(fragile(-1), TICKS); // hashed every tick
        // a blueprint that hashes at no tick of its own and steps twice as far: every journaled hash differs
        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, fragile(-1, 0, 2f));
        assertEquals(TICKS, r.hashesChecked(), r.describe());
        assertFalse(r.ok(), r.describe());
        assertEquals(0, r.firstMismatchTick(), r.describe());
    }

    @Test
    void aTickSkippedUnderSkipTickReplaysUnderThatPolicyWhateverTheBlueprintNowSaysAsRunReplayerDoes()
            throws IOException {
        WorldStore store = recordAndCrash(fragile(5), TICKS);
        // the blueprint now stops on a failure: the journal's tick 5 was skipped under SKIP_TICK and replays so
        WorldBlueprint stops = fragile(5, 1, 1f, FailurePolicy.STOP);
        WorldRuntime reopened = WorldRuntime.open(WORLD, store, stops, settings());
        assertEquals(TICKS, reopened.currentTick());
        assertEquals(1, reopened.simulation().skippedTicks(), "tick 5 replayed skipped, as journaled");
        assertEquals(FailurePolicy.STOP, reopened.simulation().failurePolicy(), "live ticks run under the blueprint's");
        reopened.close();
        Path newest = store.segments(WORLD).get(store.segments(WORLD).size() - 1).path();
        try (JournalReader reader = JournalReader.openAllowingCut(newest)) {
            assertEquals(FailurePolicy.STOP, reader.failurePolicy(), "the new segment notes the blueprint's policy");
        }

        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, stops);
        assertTrue(r.ok(), r.describe());
        assertEquals(1, r.skipsMatched(), r.describe());
    }

    @Test
    void aWorldWhoseTickFailedUnderStopOpensOnceItsBlueprintSkipsTheTick() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime stopped = WorldRuntime.open(WORLD, store, fragile(5, 1, 1f, FailurePolicy.STOP), settings());
        for (int i = 0; i < 5; i++) {
            stopped.tick();
        }
        assertThrows(dev.orrery.scheduler.SystemFailedException.class, stopped::tick);
        stopped.abandon(); // as the world's actor does when a tick throws
        WorldRuntime reopened = WorldRuntime.open(WORLD, store, fragile(5), settings());
        long replayed = reopened.currentTick();
        while (reopened.currentTick() < TICKS) {
            reopened.tick();
        }
        assertEquals(1, reopened.simulation().skippedTicks(), "tick 5 skipped, replayed (" + replayed + ") or live");
        reopened.close();
        assertTrue(WorldVerifier.verify(store, WORLD, fragile(5)).ok());
    }
}
