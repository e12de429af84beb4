package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.world.HistoryReplay;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes on 127.0.0.1, nine worlds spread over them by Cluster Sharding, a client
 * sending inputs through the first node the whole time; one node is crashed, then another
 * leaves gracefully. Every world must end on the last node with the state hash of one
 * straight run of its journaled inputs on one simulation (every journaled hash on the way
 * checked too), and every acknowledged input must be in its journal at the tick and
 * sequence its acknowledgement gave.
 *
 * <p>The nodes are three Pekko actor systems in this JVM, each with its own Artery TCP port,
 * cluster membership, failure detector, shard region and world actors: everything between
 * them (joining, heartbeats, shard hand-off, asks and replies) goes over TCP through the
 * world protocol's serializer, as between processes. The crash terminates one actor system
 * without leaving the cluster: its world actors stop without a snapshot or a clean journal
 * end (as a killed process leaves them, up to the last forced tick), the survivors lose its
 * heartbeats, and the split-brain resolver downs it. What one JVM cannot show is a crash in
 * the middle of a journal write; the journal's reader handles a torn tail and is tested for
 * that in the engine.
 */
class ThreeNodeClusterTest {
    private static final int WORLDS = 9;
    private static final Duration ASK = Duration.ofSeconds(2);
    private static final String FAST_FAILURE_DETECTION = String.join("\n",
            "pekko.cluster.failure-detector.heartbeat-interval = 300ms",
            "pekko.cluster.failure-detector.acceptable-heartbeat-pause = 2s",
            // a loaded test machine may delay heartbeats; never down the survivors for it
            "pekko.cluster.split-brain-resolver.down-all-when-unstable = off");

    @TempDir
    Path dir;

    private final List<ClusterNode> nodes = new ArrayList<>();

    /** One acknowledged input. */
    private record Acked(String world, int id, long tick, int sequence) {
    }

    /** The client: one input per world every 25 ms through node A; a refused or unanswered input is sent again. */
    private final class Client {
        final ClusterNode via;
        final ConcurrentLinkedQueue<Acked> acked = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<int[]> retry = new ConcurrentLinkedQueue<>();
        final AtomicInteger nextId = new AtomicInteger();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicLong resent = new AtomicLong();
        volatile boolean running = true;
        final Thread thread = new Thread(this::loop, "cluster-test-client");

        Client(ClusterNode via) {
            this.via = via;
        }

        void loop() {
            while (running) {
                for (int w = 0; w < WORLDS; w++) {
                    send(w, nextId.getAndIncrement());
                }
                for (int[] r; (r = retry.poll()) != null; ) {
                    resent.incrementAndGet();
                    send(r[0], r[1]);
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(25);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void send(int w, int id) {
            inFlight.incrementAndGet();
            via.submit(world(w), 1, DriftWorld.PUSH, DriftWorld.push(id), ASK).whenComplete((InputReply r, Throwable e) -> {
                if (e == null && r.accepted()) {
                    acked.add(new Acked(world(w), id, r.tick(), r.sequence()));
                } else if (running) {
                    retry.add(new int[] {w, id});
                }
                inFlight.decrementAndGet();
            });
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (inFlight.get() > 0 && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(20);
            }
        }
    }

    private static String world(int w) {
        return "world-" + w;
    }

    private ClusterNode start(List<String> seeds) {
        NodeSettings s = NodeSettings.local(0, seeds).withTicks(40, 20).withSharding(30, 1.0)
                .withConfig(FAST_FAILURE_DETECTION);
        ClusterNode node = ClusterNode.start(s, store(), new DriftWorld(200));
        nodes.add(node);
        return node;
    }

    /** A store over the shared directory, one per node, as separate processes would open it. */
    private DirectoryWorldStore store() {
        try {
            return new DirectoryWorldStore(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Every world's status through {@code via}, retried while worlds move, until {@code done} holds for each. */
    private Map<String, WorldStatus> statuses(ClusterNode via, java.util.function.Predicate<WorldStatus> done)
            throws InterruptedException {
        Map<String, WorldStatus> out = new HashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (out.size() < WORLDS) {
            for (int w = 0; w < WORLDS; w++) {
                if (out.containsKey(world(w))) {
                    continue;
                }
                try {
                    WorldStatus s = via.status(world(w), ASK).toCompletableFuture().get(5, TimeUnit.SECONDS);
                    if (done.test(s)) {
                        out.put(world(w), s);
                    }
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    // the world is moving: ask again
                }
            }
            assertTrue(System.nanoTime() < deadline, "worlds not settled after 60 s: " + out.keySet());
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return out;
    }

    @AfterEach
    void stopNodes() {
        for (ClusterNode n : nodes) {
            n.crash().toCompletableFuture().join();
        }
    }

    @Test
    void worldsSurviveACrashAndAGracefulLeaveWithTheHashesOfOneNode() throws Exception {
        ClusterNode a = start(List.of());
        a.awaitMembersUp(1, Duration.ofSeconds(20));
        ClusterNode b = start(List.of(a.hostPort()));
        ClusterNode c = start(List.of(a.hostPort()));
        for (ClusterNode n : nodes) {
            n.awaitMembersUp(3, Duration.ofSeconds(20));
        }
        Client client = new Client(a);
        client.thread.start();

        Map<String, WorldStatus> placed = statuses(a, s -> s.tick() > 10);
        Map<String, Integer> perNode = new HashMap<>();
        placed.values().forEach(s -> perNode.merge(s.node(), 1, Integer::sum));
        assertTrue(perNode.size() >= 2, "worlds spread over the nodes: " + perNode);
        // crash the node with the most worlds other than A (A hosts the shard coordinator and the client)
        ClusterNode victim = perNode.getOrDefault(c.address(), 0) >= perNode.getOrDefault(b.address(), 0) ? c : b;
        ClusterNode leaver = victim == c ? b : c;
        assertTrue(perNode.getOrDefault(victim.address(), 0) > 0, "the crashed node holds worlds: " + perNode);
        TimeUnit.MILLISECONDS.sleep(500);

        Map<String, WorldStatus> beforeCrash = statuses(a, s -> true);
        long crashedAt = System.currentTimeMillis();
        victim.crash().toCompletableFuture().get(20, TimeUnit.SECONDS);
        nodes.remove(victim);
        Map<String, WorldStatus> afterCrash = statuses(a, s -> !s.node().equals(victim.address()));
        StringBuilder report = new StringBuilder();
        long crashMoved = 0;
        long maxReplayed = 0;
        long maxResume = 0;
        for (WorldStatus before : beforeCrash.values()) {
            WorldStatus after = afterCrash.get(before.worldId());
            if (before.node().equals(victim.address())) {
                crashMoved++;
                assertTrue(after.epoch() > before.epoch(), "a moved world claims a new epoch: " + after);
                assertTrue(after.tick() >= before.tick(), "a moved world resumes where it left: " + before + " -> " + after);
                maxReplayed = Math.max(maxReplayed, after.ticksReplayed());
                maxResume = Math.max(maxResume, after.resumedAtMillis() - crashedAt);
                report.append(String.format("  crash: %s replayed %d ticks from snapshot %d in %.1f ms, ticking again %d ms "
                        + "after the crash%n", after.worldId(), after.ticksReplayed(), after.snapshotTick(),
                        after.openMillis(), after.resumedAtMillis() - crashedAt));
            }
        }
        TimeUnit.MILLISECONDS.sleep(1000);

        Map<String, WorldStatus> beforeLeave = statuses(a, s -> true);
        long leftAt = System.currentTimeMillis();
        leaver.leave().toCompletableFuture().get(30, TimeUnit.SECONDS);
        nodes.remove(leaver);
        Map<String, WorldStatus> afterLeave = statuses(a, s -> s.node().equals(a.address()));
        long leaveMoved = 0;
        for (WorldStatus before : beforeLeave.values()) {
            WorldStatus after = afterLeave.get(before.worldId());
            if (before.node().equals(leaver.address())) {
                leaveMoved++;
                assertEquals(0, after.ticksReplayed(), "a hand-off snapshots, so nothing is replayed: " + after);
                report.append(String.format("  leave: %s restored from its hand-off snapshot at tick %d in %.1f ms, "
                        + "ticking again %d ms after leave() began%n", after.worldId(), after.snapshotTick(),
                        after.openMillis(), after.resumedAtMillis() - leftAt));
            }
        }
        assertTrue(leaveMoved > 0, "the leaving node held worlds: " + beforeLeave.values());
        TimeUnit.MILLISECONDS.sleep(500);
        client.stop();

        Map<String, WorldStatus> end = new HashMap<>();
        for (int w = 0; w < WORLDS; w++) {
            WorldStatus s = a.hold(world(w), true, ASK).toCompletableFuture().get(5, TimeUnit.SECONDS);
            assertTrue(s.held());
            end.put(s.worldId(), s);
        }
        System.out.printf("ThreeNodeClusterTest: %d inputs acknowledged (%d sent again after a refusal or timeout); "
                + "crash moved %d worlds, max %d ticks replayed, max %d ms to tick again; leave moved %d worlds%n%s",
                client.acked.size(), client.resent.get(), crashMoved, maxReplayed, maxResume, leaveMoved, report);

        DirectoryWorldStore store = store();
        Map<String, Map<Long, List<Integer>>> journaled = new HashMap<>();
        for (WorldStatus s : end.values()) {
            HistoryReplay.Result r = HistoryReplay.replay(store, s.worldId(), new DriftWorld(200));
            journaled.put(s.worldId(), r.inputIds());
            assertEquals(s.tick(), r.nextTick(), s.worldId() + ": the journal history reaches the tick the world is at");
            assertEquals(0, r.hashMismatches(), s.worldId() + ": journaled hashes one straight run does not reproduce");
            assertEquals(s.stateHash(), r.stateHash(), s.worldId() + ": final hash of one straight run");
            assertNotEquals(0, s.stateHash());
        }
        assertTrue(client.acked.size() > WORLDS * 20, "the client got inputs through: " + client.acked.size());
        for (Acked ack : client.acked) {
            List<Integer> ids = journaled.get(ack.world()).getOrDefault(ack.tick(), List.of());
            assertTrue(ack.sequence() < ids.size() && ids.get(ack.sequence()) == ack.id(),
                    "acknowledged input " + ack + " is in the journal at its tick and sequence (there: " + ids + ")");
        }
    }
}
