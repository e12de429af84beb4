package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.protocol.WorldStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three nodes on 127.0.0.1, nine worlds spread over them by Cluster Sharding, a client
 * retrying every input (through any live node) until it is answered; a node other than the
 * oldest is crashed, then the other one leaves gracefully. Every world must end on the
 * oldest node with the state hash of one straight run of its journaled inputs on one
 * simulation (every journaled hash on the way checked too), every acknowledged input must
 * have applied exactly once, at the tick its acknowledgement gave, and the crashed node's
 * worlds must tick again within 10 s. {@link OldestNodeCrashTest} crashes the oldest.
 *
 * <p>What one JVM cannot show is a crash in the middle of a journal write; the journal's
 * reader handles a torn tail and is tested for that in the engine.
 */
class ThreeNodeClusterTest {
    /** The failover bound the documentation states for loopback. */
    static final long FAILOVER_BOUND_MILLIS = 10_000;

    @Test
    void worldsSurviveACrashAndAGracefulLeaveWithTheHashesOfOneNode(@TempDir Path dir) throws Exception {
        try (ClusterHarness cluster = new ClusterHarness(dir, 9)) {
            List<ClusterNode> nodes = cluster.startNodes(3);
            ClusterNode a = nodes.get(0);
            ClusterNode b = nodes.get(1);
            ClusterNode c = nodes.get(2);
            assertTrue(a.isOldest(), "the first node is the oldest");
            ClusterHarness.Client client = cluster.new Client(Duration.ofMillis(25));
            client.start();

            Map<String, WorldStatus> placed = cluster.statuses(s -> s.tick() > 10, Duration.ofSeconds(60));
            Map<String, Integer> perNode = ClusterHarness.worldsPerNode(placed);
            assertTrue(perNode.size() >= 2, "worlds spread over the nodes: " + perNode);
            ClusterNode victim = perNode.getOrDefault(c.address(), 0) >= perNode.getOrDefault(b.address(), 0) ? c : b;
            ClusterNode leaver = victim == c ? b : c;
            assertTrue(perNode.getOrDefault(victim.address(), 0) > 0, "the crashed node holds worlds: " + perNode);
            TimeUnit.MILLISECONDS.sleep(500);

            Map<String, WorldStatus> beforeCrash = cluster.statuses(s -> true, Duration.ofSeconds(30));
            long crashedAt = cluster.crash(victim);
            Map<String, WorldStatus> afterCrash = cluster.statuses(s -> !s.node().equals(victim.address()),
                    Duration.ofSeconds(60));
            Failover crash = Failover.measure(beforeCrash, afterCrash, victim, crashedAt);
            assertTrue(crash.moved() > 0, "the crashed node held worlds");
            TimeUnit.MILLISECONDS.sleep(1000);

            Map<String, WorldStatus> beforeLeave = cluster.statuses(s -> true, Duration.ofSeconds(30));
            long leftAt = System.currentTimeMillis();
            cluster.leave(leaver);
            Map<String, WorldStatus> afterLeave = cluster.statuses(s -> s.node().equals(a.address()), Duration.ofSeconds(60));
            StringBuilder leave = new StringBuilder();
            long leaveMoved = 0;
            for (WorldStatus before : beforeLeave.values()) {
                WorldStatus after = afterLeave.get(before.worldId());
                if (before.node().equals(leaver.address())) {
                    leaveMoved++;
                    assertEquals(0, after.ticksReplayed(), "a hand-off snapshots, so nothing is replayed: " + after);
                    leave.append(String.format("  leave: %s restored from its hand-off snapshot at tick %d in %.1f ms, "
                            + "ticking again %d ms after leave() began%n", after.worldId(), after.snapshotTick(),
                            after.openMillis(), after.resumedAtMillis() - leftAt));
                }
            }
            assertTrue(leaveMoved > 0, "the leaving node held worlds: " + beforeLeave.values());
            TimeUnit.MILLISECONDS.sleep(500);
            client.stop(Duration.ofSeconds(60));

            String verified = cluster.verify(client);
            System.out.printf("ThreeNodeClusterTest: %d inputs accepted, %d refused, %d retries; crash of a non-oldest node "
                    + "moved %d worlds, ticking again after at most %d ms; leave moved %d worlds%n%s%s%s",
                    client.acked.size(), client.refused.size(), client.client.retries(), crash.moved(), crash.maxMillis(),
                    leaveMoved, crash.report(), leave, verified);
            assertTrue(client.acked.size() > 9 * 20, "the client got inputs through: " + client.acked.size());
            assertTrue(client.refused.isEmpty(), client.refused.size() + " inputs refused, first: " + client.refused.peek());
            assertTrue(crash.maxMillis() <= FAILOVER_BOUND_MILLIS, "the crashed node's worlds tick again within "
                    + FAILOVER_BOUND_MILLIS + " ms:\n" + crash.report() + String.join("\n", cluster.log));
        }
    }

    /** How the worlds of a crashed node moved: how many, and how long until each ticked again. */
    record Failover(long moved, long maxMillis, long maxReplayed, String report) {
        static Failover measure(Map<String, WorldStatus> before, Map<String, WorldStatus> after, ClusterNode victim,
                long crashedAt) {
            long moved = 0;
            long maxMillis = 0;
            long maxReplayed = 0;
            StringBuilder report = new StringBuilder();
            for (WorldStatus b : before.values()) {
                WorldStatus a = after.get(b.worldId());
                if (!b.node().equals(victim.address())) {
                    continue;
                }
                moved++;
                assertTrue(a.epoch() > b.epoch(), "a moved world claims a new epoch: " + a);
                assertTrue(a.tick() >= b.tick(), "a moved world resumes where it left: " + b + " -> " + a);
                maxReplayed = Math.max(maxReplayed, a.ticksReplayed());
                maxMillis = Math.max(maxMillis, a.resumedAtMillis() - crashedAt);
                report.append(String.format("  crash: %s replayed %d ticks from snapshot %d in %.1f ms, ticking again "
                        + "%d ms after the crash%n", a.worldId(), a.ticksReplayed(), a.snapshotTick(), a.openMillis(),
                        a.resumedAtMillis() - crashedAt));
            }
            return new Failover(moved, maxMillis, maxReplayed, report.toString());
        }
    }
}
