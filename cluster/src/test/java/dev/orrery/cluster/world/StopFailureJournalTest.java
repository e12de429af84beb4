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
import dev.orrery.engine.Durability;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A world hosted in the cluster under {@code FailurePolicy.STOP} whose system throws on an
 * input: the failing tick's inputs are journaled (and forced) before the tick throws, as the
 * engine's {@code RunRecorder} journals them, so the journal holds what made the tick fail;
 * reopening the world fails the same way at the same tick, and a blueprint that no longer
 * throws replays them and answers their retries with that tick.
 */
class StopFailureJournalTest {
    private static final String WORLD = "stops-1";
    private static final long CLIENT = 41;
    private static final int ADD = 1;
    /** An input the "apply" system throws on (when the blueprint is built to). */
    private static final int POISON = 2;
    private static final int FAILING_TICK = 5;

    record Pos(float x) {
    }

    @TempDir
    Path dir;

    /**
     * Ten entities; "apply" adds each input's first payload byte to every x and throws on an
     * input of type {@link #POISON} when {@code throwsOnPoison}; hashed every tick; STOP.
     */
    private static SimulationBuilder builder(boolean populate, boolean throwsOnPoison) {
        return builder(populate, throwsOnPoison, -1);
    }

    /** As {@link #builder(boolean, boolean)}, and "apply" throws at tick {@code throwsAt} too (-1: never). */
    private static SimulationBuilder builder(boolean populate, boolean throwsOnPoison, long throwsAt) {
        World world = new World(1024);
        Component<Pos> pos = world.component(Pos.class);
        if (populate) {
            world.entity().with(pos, new Pos(0)).spawnMany(10);
        }
        Field px = pos.field("x");
        SimulationBuilder b = Simulation.builder(world).seed(5).workers(1).hashEvery(1)
                .onSystemFailure(FailurePolicy.STOP);
        Resources res = b.resources();
        return b.systems(s -> s.system("apply").query(world.query().with(pos).build()).writes(pos)
                .readsResource(Simulation.INPUTS, Simulation.CLOCK).forEachChunk(job -> {
                    InputBatch in = res.get(Simulation.INPUTS);
                    if (res.get(Simulation.CLOCK).tick() == throwsAt) {
                        throw new IllegalStateException("apply cannot run tick " + throwsAt);
                    }
                    float add = 0;
                    for (int k = 0; k < in.size(); k++) {
                        if (in.type(k) == POISON && throwsOnPoison) {
                            throw new IllegalStateException("apply cannot take a poison input (tick "
                                    + res.get(Simulation.CLOCK).tick() + ")");
                        }
                        add += in.payloadByte(k, 0);
                    }
                    float[] x = job.chunk().writeFloats(px);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        x[i] += add;
                    }
                }));
    }

    private static WorldBlueprint blueprint(boolean throwsOnPoison) {
        return (worldId, populate) -> builder(populate, throwsOnPoison).build();
    }

    private static WorldSettings settings() {
        return WorldSettings.defaults().withSnapshotEvery(0).withKeepSnapshots(0);
    }

    /**
     * Ticks 0 to 4 with one input each (sequences 1 to 5), then offers an input (sequence 6)
     * and a poison one (sequence 7) for tick 5, which throws; the world is let go as its actor
     * lets it go when a tick throws.
     */
    private WorldStore failAtTickFive() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime w = WorldRuntime.open(WORLD, store, blueprint(true), settings());
        for (int t = 0; t < FAILING_TICK; t++) {
            assertEquals(WorldRuntime.Offer.Verdict.QUEUED, w.offer(CLIENT, t + 1, 1, ADD, new byte[] {1}).verdict());
            w.tick();
        }
        assertEquals(WorldRuntime.Offer.Verdict.QUEUED, w.offer(CLIENT, 6, 1, ADD, new byte[] {3}).verdict());
        assertEquals(WorldRuntime.Offer.Verdict.QUEUED, w.offer(CLIENT, 7, 1, POISON, new byte[] {4}).verdict());
        SystemFailedException e = assertThrows(SystemFailedException.class, w::tick);
        assertEquals("apply", e.system());
        w.abandon(); // as WorldEntity does: the tick threw, the actor restarts (PreRestart abandons)
        return store;
    }

    /**
     * The type and last payload byte of each input journaled in {@code journal} for tick
     * {@code failing}, which must be its last tick and carry no hash.
     */
    private static List<String> failingTick(Path journal, long failing) throws IOException {
        JournalTick tick = new JournalTick();
        long last = -1;
        List<String> out = new ArrayList<>();
        try (JournalReader reader = JournalReader.openAllowingCut(journal)) {
            while (reader.nextTick(tick)) {
                last = tick.tick();
                if (last == failing) {
                    assertFalse(tick.hasHash(), "a failed tick has no hash: " + tick);
                    InputBatch in = tick.inputs();
                    for (int k = 0; k < in.size(); k++) {
                        // the cluster's journal holds 16 bytes of client id and sequence before the client's payload
                        out.add("type " + in.type(k) + " byte " + in.payloadByte(k, in.payloadLength(k) - 1));
                    }
                }
            }
        }
        assertEquals(failing, last, journal + ": the last tick journaled is not the failing tick");
        return out;
    }

    @Test
    void theFailingTicksInputsAreJournaledAsTheEnginesRecorderJournalsThem() throws IOException {
        WorldStore store = failAtTickFive();
        assertEquals(1, store.segments(WORLD).size());
        List<String> cluster = failingTick(store.segments(WORLD).get(0).path(), FAILING_TICK);
        assertEquals(List.of("type " + ADD + " byte 3", "type " + POISON + " byte 4"), cluster,
                "the inputs that made tick 5 fail, in the world's journal");

        // The engine's recording of the same run: its journal holds the failed tick's inputs too.
        Path recording = dir.resolve("recording");
        try (Simulation sim = builder(true, true).build();
             RunRecorder rec = RunRecorder.start(sim, recording, InputPipeline.builder(), Durability.EVERY_TICK)) {
            for (int t = 0; t < FAILING_TICK; t++) {
                assertTrue(rec.inputs().tryPublish(1, ADD, new byte[] {1}, 0, 1));
                sim.tick();
            }
            assertTrue(rec.inputs().tryPublish(1, ADD, new byte[] {3}, 0, 1));
            assertTrue(rec.inputs().tryPublish(1, POISON, new byte[] {4}, 0, 1));
            assertThrows(SystemFailedException.class, sim::tick);
        }
        assertEquals(failingTick(recording.resolve(RunRecorder.JOURNAL), FAILING_TICK), cluster,
                "the world's journal holds the failing tick as the engine's recording does");
    }

    @Test
    void reopeningFailsTheSameWayAtTheSameTickAndAFixedBlueprintReplaysTheFailingTicksInputs() throws IOException {
        WorldStore store = failAtTickFive();
        SystemFailedException again = assertThrows(SystemFailedException.class,
                () -> WorldRuntime.open(WORLD, store, blueprint(true), settings()),
                "the replay of the journaled tick 5 throws as the live tick did");
        assertEquals("apply", again.system());
        assertTrue(again.getCause().getMessage().contains("(tick " + FAILING_TICK + ")"), again.getMessage());
        SystemFailedException verified = assertThrows(SystemFailedException.class,
                () -> WorldVerifier.verify(store, WORLD, blueprint(true)), "the verifier reproduces the failure");
        assertTrue(verified.getCause().getMessage().contains("(tick " + FAILING_TICK + ")"), verified.getMessage());
        // the exception names the system; the note beside it the tick, the journal's last (the one that failed live)
        ReplayedTickFailure where = ReplayedTickFailure.in(again).orElseThrow(() -> new AssertionError(
                "no ReplayedTickFailure suppressed in " + again));
        assertEquals(FAILING_TICK, where.tick());
        assertTrue(where.lastJournaled(), where.getMessage());
        assertTrue(where.getMessage().contains("journaled tick " + FAILING_TICK) && where.getMessage().contains(
                "SKIP_TICK"), where.getMessage());

        // A blueprint that takes the poison input replays tick 5 with both inputs; their retries are answered with it.
        WorldRuntime fixed = WorldRuntime.open(WORLD, store, blueprint(false), settings());
        assertEquals(FAILING_TICK + 1, fixed.currentTick(), "ticks 0 to 5 replayed");
        for (long seq = 6; seq <= 7; seq++) {
            WorldRuntime.Offer retry = fixed.offer(CLIENT, seq, 1, seq == 6 ? ADD : POISON, new byte[] {(byte) (seq - 3)});
            assertEquals(WorldRuntime.Offer.Verdict.APPLIED, retry.verdict(), "sequence " + seq);
            assertEquals(FAILING_TICK, retry.tick(), "sequence " + seq);
        }
        assertEquals(5 * 1 + 3 + 4, xOfFirst(fixed), "every input applied once, tick 5's in the replay");
        fixed.close();
        assertTrue(WorldVerifier.verify(store, WORLD, blueprint(false)).ok());
    }

    @Test
    void aBlueprintThatThrowsAtAnEarlierTickIsNotTakenForTheTickThatFailedUnderStop() throws IOException {
        WorldStore store = failAtTickFive();
        // a blueprint other than the world's: it throws at tick 2, which ran without failing when it was journaled
        SystemFailedException e = assertThrows(SystemFailedException.class, () -> WorldRuntime.open(WORLD, store,
                (worldId, populate) -> builder(populate, true, 2).build(), settings()));
        ReplayedTickFailure where = ReplayedTickFailure.in(e).orElseThrow(() -> new AssertionError(
                "no ReplayedTickFailure suppressed in " + e));
        assertEquals(2, where.tick());
        assertFalse(where.lastJournaled(), where.getMessage());
        assertTrue(where.getMessage().contains("not the one the world ran with"), where.getMessage());
    }

    @Test
    void theVerifierNamesTheTickThatFailsInItsReplayAsOpenDoes() throws IOException {
        WorldStore store = failAtTickFive();
        SystemFailedException verified = assertThrows(SystemFailedException.class,
                () -> WorldVerifier.verify(store, WORLD, blueprint(true)));
        ReplayedTickFailure where = ReplayedTickFailure.in(verified).orElseThrow(() -> new AssertionError(
                "no ReplayedTickFailure suppressed in the verifier's " + verified));
        assertEquals(FAILING_TICK, where.tick());
        assertTrue(where.lastJournaled(), where.getMessage());

        SystemFailedException earlier = assertThrows(SystemFailedException.class, () -> WorldVerifier.verify(store,
                WORLD, (worldId, populate) -> builder(populate, true, 2).build()));
        ReplayedTickFailure other = ReplayedTickFailure.in(earlier).orElseThrow(() -> new AssertionError(
                "no ReplayedTickFailure suppressed in the verifier's " + earlier));
        assertEquals(2, other.tick());
        assertFalse(other.lastJournaled(), other.getMessage());
    }

    private static float xOfFirst(WorldRuntime w) {
        World world = w.simulation().world();
        Component<Pos> pos = world.component(Pos.class);
        float[] out = new float[1];
        world.query().with(pos).build().forEachChunk(c -> out[0] = c.readFloats(pos.field("x"))[0]);
        return out[0];
    }
}
