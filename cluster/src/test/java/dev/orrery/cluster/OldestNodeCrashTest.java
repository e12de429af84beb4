package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.protocol.WorldStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the oldest of three nodes, the one running the shard coordinator, under a client
 * that retries every input until it is answered: its worlds must tick again on the two
 * survivors within {@link ThreeNodeClusterTest#FAILOVER_BOUND_MILLIS} (the coordinator moves
 * to the next-oldest node first), every acknowledged input must have applied exactly once at
 * its acknowledged tick, no refused input may have applied, and every world must end with
 * the hash of a straight replay of its journal. A fourth node then joins, and worlds go on.
 */
class OldestNodeCrashTest {
    @Test
    void theOldestNodesWorldsTickAgainOnTheSurvivorsAndEveryInputAppliesOnce(@TempDir Path dir) throws Exception {
        try (ClusterHarness cluster = new ClusterHarness(dir, 9)) {
            cluster.startNodes(3);
            ClusterHarness.Client client = cluster.new Client(Duration.ofMillis(25));
            client.start();
            Map<String, WorldStatus> placed = cluster.statuses(s -> s.tick() > 10, Duration.ofSeconds(60));
            ClusterNode oldest = cluster.oldest();
            assertTrue(placed.values().stream().anyMatch(s -> s.node().equals(oldest.address())),
                    "the oldest node holds worlds: " + placed.values());
            TimeUnit.MILLISECONDS.sleep(1000);

            Map<String, WorldStatus> before = cluster.statuses(s -> true, Duration.ofSeconds(30));
            long crashedAt = cluster.crash(oldest);
            Map<String, WorldStatus> after = cluster.statuses(s -> !s.node().equals(oldest.address()),
                    Duration.ofSeconds(60));
            ThreeNodeClusterTest.Failover failover = ThreeNodeClusterTest.Failover.measure(before, after, oldest, crashedAt);
            assertFalse(cluster.live.contains(oldest));

            ClusterNode d = cluster.start(); // the cluster heals: a new node joins the survivors
            d.awaitMembersUp(3, Duration.ofSeconds(30));
            cluster.statuses(s -> s.tick() > 0, Duration.ofSeconds(30));
            TimeUnit.MILLISECONDS.sleep(1000);
            client.stop(Duration.ofSeconds(60));

            String verified = cluster.verify(client);
            System.out.printf("OldestNodeCrashTest: %d inputs accepted, %d refused, %d retries; crash of the oldest node "
                    + "moved %d worlds, ticking again after at most %d ms (max %d ticks replayed)%n%s%s--- node log ---%n%s%n",
                    client.acked.size(), client.refused.size(), client.client.retries(), failover.moved(),
                    failover.maxMillis(), failover.maxReplayed(), failover.report(), verified, String.join("\n", cluster.log));
            assertTrue(failover.moved() > 0, "the oldest node held worlds");
            assertTrue(client.refused.isEmpty(), client.refused.size() + " inputs refused, first: " + client.refused.peek());
            assertTrue(failover.maxMillis() <= ThreeNodeClusterTest.FAILOVER_BOUND_MILLIS, "the oldest node's worlds tick "
                    + "again within " + ThreeNodeClusterTest.FAILOVER_BOUND_MILLIS + " ms:\n" + failover.report());
        }
    }
}
