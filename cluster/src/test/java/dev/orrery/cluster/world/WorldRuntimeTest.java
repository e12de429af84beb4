package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.DriftWorldAccess;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.JournalSegment;
import dev.orrery.cluster.store.SnapshotInfo;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.ecs.SnapshotException;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A world's incarnations without actors: crash (abandon) and reopen, clean hand-over, a
 * fenced old writer, and a damaged history; each time the world's hash is compared with
 * one straight run of the same inputs on one simulation.
 */
class WorldRuntimeTest {
    private static final String WORLD = "w-1";
    private static final WorldBlueprint BLUEPRINT = new DriftWorldAccess().blueprint();

    @TempDir
    Path dir;

    /** Inputs stamped per tick by the incarnations, for the reference run. */
    private final Map<Long, List<Integer>> script = new TreeMap<>();
    private int nextInput;

    private static final long CLIENT = 77;

    /** Every snapshot kept, so the whole history replays from tick 0. */
    private static WorldSettings every(int ticks) {
        return WorldSettings.defaults().withSnapshotEvery(ticks).withKeepSnapshots(0);
    }

    private long run(WorldRuntime w, int ticks) throws IOException {
        long last = -1;
        for (int i = 0; i < ticks; i++) {
            int n = (int) (w.currentTick() % 3);
            for (int k = 0; k < n; k++) {
                int id = nextInput++;
                assertEquals(WorldRuntime.Offer.Verdict.QUEUED,
                        w.offer(CLIENT, id + 1, 1, DriftWorldAccess.PUSH, DriftWorldAccess.push(id)).verdict());
                script.computeIfAbsent(w.currentTick(), t -> new ArrayList<>()).add(id);
            }
            last = w.tick();
        }
        return last;
    }

    /** The hash after {@code ticks} ticks of one straight run with the scripted inputs. */
    private long reference(long ticks) {
        try (Simulation sim = BLUEPRINT.build(WORLD, true)) {
            sim.inputs(new ScriptedInputs(script, DriftWorldAccess.PUSH, DriftWorldAccess::push));
            for (long t = 0; t < ticks; t++) {
                sim.tick();
            }
            return sim.world().stateHash();
        }
    }

    @Test
    void crashAndHandOverResumeWithTheHashesOfOneStraightRun() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime first = WorldRuntime.open(WORLD, store, BLUEPRINT, every(10));
        assertEquals(1, first.epoch());
        assertEquals(-1, first.recovery().snapshotTick());
        run(first, 35);
        first.abandon(); // a crash: snapshots at 10, 20, 30; ticks 30 to 34 only in the journal

        WorldRuntime second = WorldRuntime.open(WORLD, store, BLUEPRINT, every(10));
        assertEquals(2, second.epoch());
        assertEquals(30, second.recovery().snapshotTick());
        assertEquals(5, second.recovery().ticksReplayed());
        assertEquals(35, second.currentTick());
        assertEquals(reference(35), second.stateHash(), "restored and replayed world equals the straight run");
        run(second, 12);
        second.close(); // a hand-over: snapshot at 47

        WorldRuntime third = WorldRuntime.open(WORLD, store, BLUEPRINT, every(10));
        assertEquals(47, third.recovery().snapshotTick());
        assertEquals(0, third.recovery().ticksReplayed());
        run(third, 8);
        assertEquals(reference(55), third.stateHash());
        third.close();

        // the whole history, replayed on one simulation from tick 0, checks every journaled hash on the way
        HistoryReplay.Result straight = HistoryReplay.replay(store, WORLD, BLUEPRINT);
        assertEquals(55, straight.nextTick());
        assertEquals(0, straight.hashMismatches(), "journaled hashes that a straight replay does not reproduce");
        assertEquals(reference(55), straight.stateHash());
        assertEquals(script.get(40L), straight.inputIds().get(40L), "tick 40's inputs, journaled in order");
    }

    @Test
    void aLaterClaimFencesTheOldWriterAndItsLateTicksAreNotHistory() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime old = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0));
        run(old, 6);
        WorldRuntime current = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0)); // a move while the old one still runs
        assertEquals(6, current.currentTick());
        assertFalse(store.isCurrent(WORLD, old.epoch()));
        old.offer(9, 1, 9, DriftWorldAccess.PUSH, DriftWorldAccess.push(-1));
        FencedException fenced = assertThrows(FencedException.class, old::tick);
        assertTrue(fenced.getMessage().contains("epoch 1"), fenced.getMessage());
        assertThrows(FencedException.class, old::close, "a fenced writer stores no snapshot");
        old.abandon();
        run(current, 4);
        current.close();

        // the old writer journaled tick 6 after the claim: the new segment (start 6) cuts it off
        WorldRuntime reopened = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0));
        assertEquals(10, reopened.currentTick());
        assertEquals(reference(10), reopened.stateHash());
        reopened.close();
    }

    @Test
    void aSnapshotPastTheFenceIsIgnored() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime a = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0));
        run(a, 5);
        byte[] bogus = a.simulation().snapshot();
        WorldRuntime b = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0)); // starts its segment at tick 5
        store.writeSnapshot(WORLD, a.epoch(), 9, bogus); // as if the fenced writer snapshotted later
        assertTrue(JournalHistory.latestValidSnapshot(store, WORLD).isEmpty(), "epoch 1 may not snapshot past tick 5");
        store.writeSnapshot(WORLD, a.epoch(), 5, bogus);
        assertEquals(5, JournalHistory.latestValidSnapshot(store, WORLD).orElseThrow().tick());
        a.abandon();
        b.abandon();
    }

    @Test
    void aMissingSegmentIsReportedNotSkipped() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime a = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0));
        run(a, 4);
        a.abandon();
        WorldRuntime b = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0));
        run(b, 4);
        b.abandon();
        JournalSegment firstSegment = store.segments(WORLD).get(0);
        Files.delete(firstSegment.path());
        IOException e = assertThrows(IOException.class, () -> WorldRuntime.open(WORLD, store, BLUEPRINT, every(0)));
        assertTrue(e.getMessage().contains("jumps from tick 0 to tick 4"), e.getMessage());
    }

    /**
     * A stored snapshot whose bytes are damaged is refused with the engine's type for a snapshot
     * that cannot be read, whichever part is damaged: the header and the input window were an
     * {@code IOException} while the simulation's part was a {@code SnapshotException}.
     */
    @Test
    void aDamagedStoredSnapshotIsRefusedAsTheEngineRefusesADamagedSnapshot() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime a = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0));
        run(a, 4);
        a.close(); // a hand-off snapshot of tick 4
        SnapshotInfo snapshot = JournalHistory.latestValidSnapshot(store, WORLD).orElseThrow();
        byte[] good = store.readSnapshot(WORLD, snapshot);
        byte[] header = good.clone();
        header[11] = 9; // the format int after the 8-byte magic: 9, not 1
        int windowLength = java.nio.ByteBuffer.wrap(good, 12, 4).getInt();
        java.nio.ByteBuffer window = java.nio.ByteBuffer.allocate(good.length - windowLength + 2);
        window.put(good, 0, 12).putInt(2).put(new byte[] {0, 1}); // a window of 2 bytes: it ends inside its format int
        window.put(good, 16 + windowLength, good.length - 16 - windowLength); // the simulation's part intact
        for (byte[] damaged : List.of(header, window.array())) {
            store.writeSnapshot(WORLD, snapshot.epoch(), snapshot.tick(), damaged);
            SnapshotException e = assertThrows(SnapshotException.class,
                    () -> WorldRuntime.open(WORLD, store, BLUEPRINT, every(0)));
            assertTrue(e.getMessage().startsWith("world 'w-1': ") && e.getMessage().contains("damaged"),
                    e.getMessage());
        }
        store.writeSnapshot(WORLD, snapshot.epoch(), snapshot.tick(), good);
        WorldRuntime b = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0));
        assertEquals(4, b.recovery().snapshotTick(), "the good bytes restore");
        b.close();
    }

    /**
     * An actor's messages may run on any dispatcher thread: a hand-over ({@code close()}) on
     * another thread than the last tick's takes its snapshot there. The simulation refuses a
     * snapshot from a thread other than its tick thread, so the runtime hands the simulation to
     * the closing thread first, as its tick does; the snapshot is then stored and the next
     * holder replays nothing.
     */
    @Test
    void aHandOverOnAnotherThreadThanTheTicksStoresItsSnapshot() throws Exception {
        WorldStore store = new DirectoryWorldStore(dir);
        java.util.concurrent.ExecutorService actor = java.util.concurrent.Executors.newSingleThreadExecutor(
                r -> new Thread(r, "dispatcher-1"));
        WorldRuntime first;
        try {
            // Future.get is the happens-before edge an actor's message handling gives
            first = actor.submit(() -> {
                WorldRuntime w = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0));
                run(w, 6);
                return w;
            }).get(1, java.util.concurrent.TimeUnit.MINUTES);
        } finally {
            actor.shutdown();
        }
        first.close(); // on this thread: the hand-over snapshot at tick 6
        WorldRuntime second = WorldRuntime.open(WORLD, store, BLUEPRINT, every(0));
        assertEquals(6, second.recovery().snapshotTick(), "the hand-over's snapshot was stored");
        assertEquals(0, second.recovery().ticksReplayed());
        assertEquals(reference(6), second.stateHash());
        second.close();
    }

    record Pos(float x) {
    }

    /**
     * stateHash() reads the world on the calling thread: from another thread while the owner
     * ticks, it hashed a world part-way through the tick without a word. Now refused naming both
     * threads; the tick is held inside a system by a latch (no sleeps), so this holds however
     * loaded the machine is.
     */
    @Test
    void aStateHashFromAnotherThreadWhileTheWorldTicksIsRefusedNamingBothThreads() throws Exception {
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        WorldBlueprint blocking = (id, populate) -> {
            dev.orrery.ecs.World world = new dev.orrery.ecs.World();
            dev.orrery.ecs.component.Component<Pos> pos = world.component(Pos.class);
            dev.orrery.ecs.component.Field x = pos.field("x");
            Simulation sim = Simulation.builder(world).systems(s -> s
                    .system("move").query(world.query().with(pos).build()).writes(pos)
                    .forEachChunk(job -> job.chunk().writeFloats(x)[0]++)
                    .system("wait").readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                        if (job.resource(Simulation.CLOCK).tick() == 1) {
                            entered.countDown();
                            try {
                                release.await(1, java.util.concurrent.TimeUnit.MINUTES);
                            } catch (InterruptedException e) {
                                throw new AssertionError(e);
                            }
                        }
                    })).build();
            if (populate) {
                sim.world().spawn(new Pos(0));
            }
            return sim;
        };
        WorldStore store = new DirectoryWorldStore(dir);
        java.util.concurrent.ExecutorService actor = java.util.concurrent.Executors.newSingleThreadExecutor(
                r -> new Thread(r, "dispatcher-1"));
        try {
            WorldRuntime w = actor.submit(() -> WorldRuntime.open(WORLD, store, blocking, every(0)))
                    .get(1, java.util.concurrent.TimeUnit.MINUTES);
            java.util.concurrent.Future<Long> ticks = actor.submit(() -> {
                w.tick();
                return w.tick(); // tick 1 blocks until released
            });
            assertTrue(entered.await(1, java.util.concurrent.TimeUnit.MINUTES), "tick 1 never reached the latch");
            IllegalStateException e;
            try {
                e = assertThrows(IllegalStateException.class, w::stateHash);
            } finally {
                release.countDown();
            }
            assertTrue(e.getMessage().startsWith("WorldRuntime.stateHash() called on thread '"
                    + Thread.currentThread().getName() + "' while world 'w-1' ticks on thread 'dispatcher-1'")
                    && e.getMessage().contains("ClusterNode.status") && e.getMessage().contains("lastHash()")
                    && !e.getMessage().contains("GetStatus") && !e.getMessage().contains("WorldEntity"),
                    "names the way a user reads it, no type of the unexported sharding package: " + e.getMessage());
            assertEquals(1L, ticks.get(1, java.util.concurrent.TimeUnit.MINUTES));
            long between = actor.submit(w::stateHash).get(1, java.util.concurrent.TimeUnit.MINUTES);
            assertEquals(between, w.stateHash(), "between ticks, after the owner's edge, any one thread may hash");
            w.close();
        } finally {
            actor.shutdown();
        }
    }

    @Test
    void theStoreRefusesAWorldIdThatCannotNameAFolder() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.claim("../escape"));
        assertTrue(e.getMessage().contains("'../escape'"), e.getMessage());
    }
}
