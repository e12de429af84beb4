package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.store.JournalSegment;
import dev.orrery.cluster.store.SnapshotInfo;
import dev.orrery.cluster.store.WorldStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The world entity's stop paths other than a sharding hand-off, driven for real: the node's
 * actor system terminating under its worlds ({@code PostStop}), a supervisor restart after a
 * tick failed ({@code PreRestart}), an entity whose start failed after it opened its world
 * (no behaviour yet to get either signal) and the JVM shutdown hook's coordinated shutdown
 * of the last node. Each time what {@code WorldEntity} promises is checked: the incarnation lets
 * its world go (its journal file closed, its simulation's worker threads stopped, nothing
 * ticking), the next incarnation recovers from the snapshot and journal the abandoned one
 * left (a periodic snapshot and the journal after it; a hand-off snapshot and nothing to
 * replay when the node shut down in order) with the hashes of one straight run, and every
 * input the client sent through it applied exactly once, at the tick it was acknowledged
 * with.
 *
 * <p>Worlds tick on two workers here, so each simulation has a thread of its own
 * ({@code orrery-worker-1}) that only its close stops: a leaked incarnation shows as a thread
 * left over, and as a journal file still open (read from {@code /proc/self/fd}; the tests
 * need Linux).
 */
class WorldStopSignalsTest {
    private static final String WORKER_THREADS = "orrery-worker-";
    /** Every thread of a node's actor system is named after the system ({@code orrery-...}), as are the workers. */
    private static final String NODE_THREADS = ClusterNode.SYSTEM_NAME + "-";
    private static final Duration SETTLE = Duration.ofSeconds(60);

    @Test
    void aNodeWhoseActorSystemStopsUnderItsWorldsLetsThemGoAndTheNextNodeRecoversThemExactly(@TempDir Path dir)
            throws Exception {
        assumeProcFd();
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (ClusterHarness cluster = new ClusterHarness(dir, 3, "", 2)) {
            ClusterNode a = cluster.startNodes(1).get(0);
            ClusterHarness.Client client = cluster.new Client(Duration.ofMillis(25));
            client.start();
            Map<String, WorldStatus> running = cluster.statuses(s -> s.tick() > 60, SETTLE);
            awaitTrue(() -> openJournals(dir).size() == 3, () -> "one journal segment open per world: "
                    + openJournals(dir));
            assertEquals(3, newThreads(before, WORKER_THREADS).size(), "one worker thread per world's simulation: "
                    + newThreads(before, WORKER_THREADS));

            cluster.crash(a); // the actor system terminates: every world entity gets PostStop, no hand-off
            // the entities stopped (PostStop) before the actor system's termination completed
            assertEquals(List.of(), openFilesUnder(dir), "store files still open after the node stopped");
            awaitTrue(() -> newThreads(before, NODE_THREADS).isEmpty(), () -> "threads of the stopped node left: "
                    + newThreads(before, NODE_THREADS));
            Map<Path, Long> journals = journalSizes(cluster.store(), 3);
            TimeUnit.MILLISECONDS.sleep(500);
            assertEquals(journals, journalSizes(cluster.store(), 3), "nothing journaled after the node stopped");
            WorldStore store = cluster.store();
            for (String world : running.keySet()) {
                for (SnapshotInfo s : store.snapshots(world)) {
                    assertEquals(0, s.tick() % 40, world + ": only periodic snapshots (every 40 ticks), no hand-off "
                            + "snapshot from a stop that let the world go: " + s);
                }
            }

            ClusterNode b = cluster.start(); // the worlds' next node, over the same store
            Map<String, WorldStatus> after = cluster.statuses(s -> s.node().equals(b.address())
                    && s.tick() > running.get(s.worldId()).tick() + 20, SETTLE);
            for (WorldStatus s : after.values()) {
                WorldStatus was = running.get(s.worldId());
                assertEquals(was.epoch() + 1, s.epoch(), "one new incarnation: " + was + " -> " + s);
                assertEquals(0, s.snapshotTick() % 40, "restored from a periodic snapshot: " + s);
                assertTrue(s.snapshotTick() + s.ticksReplayed() >= was.tick(), "the periodic snapshot and the "
                        + "journal after it reach every tick the stopped node ran: " + was + " -> " + s);
            }
            client.stop(SETTLE);
            String verified = cluster.verify(client);
            System.out.printf("WorldStopSignalsTest (actor system stopped): %d inputs accepted, %d retries%n%s",
                    client.acked.size(), client.client.retries(), verified);
            assertTrue(client.refused.isEmpty(), "refused: " + client.refused);
            assertTrue(client.unknown.isEmpty(), "inputs the client gave up on: " + client.unknown);
            assertTrue(client.acked.size() > 3 * 20, "inputs went through: " + client.acked.size());
        }
    }

    @Test
    void aWorldWhoseTickFailsIsLetGoBeforeItsSupervisorReopensItAndNoInputIsLost(@TempDir Path dir)
            throws Exception {
        assumeProcFd();
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (ClusterHarness cluster = new ClusterHarness(dir, 2, "", 2)) {
            SnapshotFailsOnce store = new SnapshotFailsOnce(cluster.store(), ClusterHarness.world(0), 80);
            cluster.start(store).awaitMembersUp(1, SETTLE);
            ClusterHarness.Client client = cluster.new Client(Duration.ofMillis(25));
            client.start();
            // world-0's tick 79 is journaled, its snapshot at 80 fails: the tick throws, the supervisor restarts it
            Map<String, WorldStatus> after = cluster.statuses(s -> s.tick() > 130, SETTLE);
            assertEquals(1, store.failures.get(), "the snapshot at tick 80 failed once");
            WorldStatus failed = after.get(ClusterHarness.world(0));
            assertEquals(2, failed.epoch(), "reopened once, in a new epoch: " + failed);
            assertEquals(40, failed.snapshotTick(), "restored from the last snapshot before the failure: " + failed);
            assertEquals(40, failed.ticksReplayed(), "replayed the journal to tick 79, the failed tick, which was "
                    + "durable: " + failed);
            assertEquals(1, after.get(ClusterHarness.world(1)).epoch(), "the other world ran on");
            assertTrue(cluster.log.stream().anyMatch(l -> l.contains("world world-0 failed to store a tick here")),
                    String.join("\n", cluster.log));

            // the failed incarnation let its journal go (PreRestart) before its successor opened
            List<Path> open = openJournals(dir);
            assertTrue(open.stream().noneMatch(p -> p.toString().contains(ClusterHarness.world(0) + "/")
                    && p.getFileName().toString().startsWith("1-")), "world-0's failed epoch 1 holds no journal open: "
                    + open);
            assertTrue(open.stream().anyMatch(p -> p.toString().contains(ClusterHarness.world(0) + "/")
                    && p.getFileName().toString().startsWith("2-")), "world-0 journals in its new epoch: " + open);
            awaitTrue(() -> newThreads(before, WORKER_THREADS).size() == 2, () -> "one worker thread per running "
                    + "world, the failed incarnation's stopped: " + newThreads(before, WORKER_THREADS));

            client.stop(SETTLE);
            String verified = cluster.verify(client);
            System.out.printf("WorldStopSignalsTest (tick failed): %d inputs accepted, %d retries%n%s",
                    client.acked.size(), client.client.retries(), verified);
            assertTrue(client.refused.isEmpty(), "refused: " + client.refused);
            assertTrue(client.unknown.isEmpty(), "inputs the client gave up on: " + client.unknown);
        }
        awaitTrue(() -> newThreads(before, NODE_THREADS).isEmpty(), () -> "threads left after the node stopped: "
                + newThreads(before, NODE_THREADS));
    }

    @Test
    void theLastNodeShutDownByTheJvmHookHandsItsWorldsOffWithASnapshot(@TempDir Path dir) throws Exception {
        assumeProcFd();
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (ClusterHarness cluster = new ClusterHarness(dir, 2, "", 2)) {
            ClusterNode a = cluster.startNodes(1).get(0);
            assertTrue(a.system().settings().config().getBoolean("pekko.coordinated-shutdown.run-by-jvm-shutdown-hook"),
                    "a JVM shutting down (SIGTERM) runs the node's coordinated shutdown");
            ClusterHarness.Client client = cluster.new Client(Duration.ofMillis(25));
            client.start();
            cluster.statuses(s -> s.tick() > 50, SETTLE);
            client.stop(SETTLE);
            Map<String, WorldStatus> held = cluster.holdAll();

            // what Pekko's JVM shutdown hook runs, on this node only
            cluster.live.remove(a);
            CoordinatedShutdown.get(a.system()).run(CoordinatedShutdown.jvmExitReason(), java.util.Optional.empty()).toCompletableFuture()
                    .get(60, TimeUnit.SECONDS);
            a.system().getWhenTerminated().toCompletableFuture().get(60, TimeUnit.SECONDS);
            for (WorldStatus s : held.values()) {
                assertTrue(cluster.log.stream().anyMatch(l -> l.contains("world " + s.worldId() + " handed off from "
                        + "here at tick " + s.tick() + " with a snapshot")), s + "\n" + String.join("\n", cluster.log));
            }
            // the entities stopped (PostStop) before the actor system's termination completed
            assertEquals(List.of(), openFilesUnder(dir), "store files still open after the node stopped");
            awaitTrue(() -> newThreads(before, NODE_THREADS).isEmpty(), () -> "threads of the stopped node left: "
                    + newThreads(before, NODE_THREADS));

            ClusterNode b = cluster.start();
            Map<String, WorldStatus> after = cluster.statuses(s -> s.node().equals(b.address()), SETTLE);
            for (WorldStatus s : after.values()) {
                WorldStatus was = held.get(s.worldId());
                assertEquals(was.epoch() + 1, s.epoch(), "one new incarnation: " + was + " -> " + s);
                assertEquals(was.tick(), s.snapshotTick(), "reopened from its hand-off snapshot: " + s);
                assertEquals(0, s.ticksReplayed(), "nothing to replay after a hand-off: " + s);
            }
            String verified = cluster.verify(held, client);
            System.out.printf("WorldStopSignalsTest (JVM hook): %d inputs accepted%n%s", client.acked.size(), verified);
            assertTrue(client.refused.isEmpty(), "refused: " + client.refused);
        }
    }

    @Test
    void aWorldWhoseEntityFailsToStartAfterItOpenedLetsItGoBeforeItIsRetried(@TempDir Path dir) throws Exception {
        assumeProcFd();
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (ClusterHarness cluster = new ClusterHarness(dir, 1, "", 2)) {
            AtomicInteger failures = new AtomicInteger();
            // the node's log sink is the caller's code: here it fails once, on the line of the world's first start
            ClusterNode a = ClusterNode.start(cluster.settings(List.of()), cluster.store(), new DriftWorld(200, 2),
                    line -> {
                        cluster.log.add(line);
                        if (line.contains("started fresh") && failures.getAndIncrement() == 0) {
                            throw new IllegalStateException("log sink failing (injected)");
                        }
                    });
            cluster.live.add(a);
            WorldStatus s = cluster.statuses(st -> st.tick() > 10, SETTLE).get(ClusterHarness.world(0));
            assertEquals(2, failures.get(), "the first start failed after opening the world, the retry started it");
            assertEquals(2, s.epoch(), "the retry opened the world in a new epoch: " + s);
            List<Path> open = openJournals(dir);
            assertTrue(open.stream().noneMatch(p -> p.getFileName().toString().startsWith("1-")), "the failed start's "
                    + "incarnation (epoch 1) holds no journal open: " + open);
            awaitTrue(() -> newThreads(before, WORKER_THREADS).size() == 1, () -> "one worker thread, the running "
                    + "world's: " + newThreads(before, WORKER_THREADS));
        }
        awaitTrue(() -> newThreads(before, NODE_THREADS).isEmpty(), () -> "threads left after the node stopped: "
                + newThreads(before, NODE_THREADS));
    }

    /** Linux's view of this process's open files, which the resource checks read. */
    private static void assumeProcFd() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "needs /proc/self/fd (Linux)");
    }

    /** Files under {@code dir} this process holds open. */
    static List<Path> openFilesUnder(Path dir) {
        List<Path> open = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            Path root = dir.toRealPath();
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (target.startsWith(root)) {
                        open.add(target);
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor closed while listed
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot list /proc/self/fd: " + e, e);
        }
        return open;
    }

    /** Journal segments under {@code dir} this process holds open. */
    static List<Path> openJournals(Path dir) {
        List<Path> open = openFilesUnder(dir);
        open.removeIf(p -> !p.getFileName().toString().endsWith(".journal"));
        return open;
    }

    /** Names of live threads named {@code prefix}... that were not running in {@code before}. */
    static List<String> newThreads(Set<Thread> before, String prefix) {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && !before.contains(t) && t.getName().startsWith(prefix)) {
                names.add(t.getName());
            }
        }
        return names;
    }

    /** Every journal segment's size in the store. */
    private static Map<Path, Long> journalSizes(WorldStore store, int worlds) throws IOException {
        Map<Path, Long> sizes = new HashMap<>();
        for (int w = 0; w < worlds; w++) {
            for (JournalSegment s : store.segments(ClusterHarness.world(w))) {
                sizes.put(s.path(), Files.size(s.path()));
            }
        }
        return sizes;
    }

    /** Waits (up to a minute: the machine may be loaded) until {@code condition} holds. */
    static void awaitTrue(Supplier<Boolean> condition, Supplier<String> message) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (!condition.get()) {
            assertTrue(System.nanoTime() < deadline, message);
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    /** The shared store, whose write of {@code world}'s snapshot at {@code tick} fails once, as a full disk would. */
    static final class SnapshotFailsOnce implements WorldStore {
        private final WorldStore store;
        private final String world;
        private final long tick;
        final AtomicInteger failures = new AtomicInteger();
        private final Set<String> failed = new HashSet<>();

        SnapshotFailsOnce(WorldStore store, String world, long tick) {
            this.store = store;
            this.world = world;
            this.tick = tick;
        }

        @Override
        public synchronized void writeSnapshot(String worldId, long epoch, long at, byte[] snapshot) throws IOException {
            if (worldId.equals(world) && at == tick && failed.add(worldId)) {
                failures.incrementAndGet();
                throw new IOException("no space left on device (injected at " + worldId + "'s snapshot of tick "
                        + at + ")");
            }
            store.writeSnapshot(worldId, epoch, at, snapshot);
        }

        @Override
        public long claim(String worldId) throws IOException {
            return store.claim(worldId);
        }

        @Override
        public boolean isCurrent(String worldId, long epoch) throws IOException {
            return store.isCurrent(worldId, epoch);
        }

        @Override
        public List<SnapshotInfo> snapshots(String worldId) throws IOException {
            return store.snapshots(worldId);
        }

        @Override
        public byte[] readSnapshot(String worldId, SnapshotInfo snapshot) throws IOException {
            return store.readSnapshot(worldId, snapshot);
        }

        @Override
        public List<JournalSegment> segments(String worldId) throws IOException {
            return store.segments(worldId);
        }

        @Override
        public void deleteSnapshot(String worldId, SnapshotInfo snapshot) throws IOException {
            store.deleteSnapshot(worldId, snapshot);
        }

        @Override
        public void deleteSegment(String worldId, JournalSegment segment) throws IOException {
            store.deleteSegment(worldId, segment);
        }

        @Override
        public void forgetEpochsBefore(String worldId, long epoch) throws IOException {
            store.forgetEpochsBefore(worldId, epoch);
        }

        @Override
        public Path newSegment(String worldId, long epoch, long startTick) throws IOException {
            return store.newSegment(worldId, epoch, startTick);
        }
    }
}
