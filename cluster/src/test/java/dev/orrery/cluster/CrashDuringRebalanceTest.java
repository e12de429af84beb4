package dev.orrery.cluster;

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
 * A node crashed while Cluster Sharding rebalances worlds off it. A third node joins two
 * that hold eight worlds, so the coordinator starts moving worlds to it every rebalance
 * round (250 ms here); one of the two is crashed the moment the third is up. Until the
 * crashed node is unreachable (2.5 s) the coordinator keeps starting rebalances from it;
 * such a rebalance waits for the crashed node's acknowledgement, and once the node is
 * downed Pekko 1.2 goes on to wait for a hand-off that will never come, for the whole
 * {@code pekko.cluster.sharding.handoff-timeout} (60 s by default), and the shard's worlds
 * stand still that long. {@link ClusterNode} sets the timeout short; every world of the
 * crashed node must tick again within the failover bound. With Pekko's log at WARN
 * ({@code -Dorg.slf4j.simpleLogger.defaultLogLevel=warn} in {@code orrery.test.jvm.flags}) each
 * run shows the coordinator giving up on three such rebalances ("deallocation didn't complete
 * within [5.000 s]"); with Pekko's 60 s one world stood still 61.6 s.
 */
class CrashDuringRebalanceTest {
    @Test
    void worldsOfANodeCrashedInTheMiddleOfARebalanceTickAgainWithinTheFailoverBound(@TempDir Path dir)
            throws Exception {
        try (ClusterHarness cluster = new ClusterHarness(dir, 8,
                "pekko.cluster.sharding.rebalance-interval = 250ms")) {
            List<ClusterNode> nodes = cluster.startNodes(2);
            ClusterNode a = nodes.get(0);
            ClusterNode b = nodes.get(1);
            ClusterHarness.Client client = cluster.new Client(Duration.ofMillis(50));
            client.start();
            Map<String, WorldStatus> before;
            Map<String, Integer> perNode;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            do { // a rebalance round moves worlds to the second node if the first got them all
                before = cluster.statuses(s -> s.tick() > 10, Duration.ofSeconds(60));
                perNode = ClusterHarness.worldsPerNode(before);
            } while (perNode.getOrDefault(b.address(), 0) < 2 && System.nanoTime() < deadline);
            assertTrue(perNode.getOrDefault(b.address(), 0) > 1, "the second node holds worlds: " + perNode);

            cluster.start();
            a.awaitMembersUp(3, Duration.ofSeconds(30)); // the coordinator (on the oldest) may rebalance now
            long crashedAt = cluster.crash(b);
            Map<String, WorldStatus> after = cluster.statuses(s -> !s.node().equals(b.address()),
                    Duration.ofSeconds(90));
            ThreeNodeClusterTest.Failover crash = ThreeNodeClusterTest.Failover.measure(before, after, b, crashedAt);
            client.stop(Duration.ofSeconds(60));
            String verified = cluster.verify(client);
            System.out.printf("CrashDuringRebalanceTest: worlds per node before %s; the crash moved %d worlds, ticking "
                    + "again after at most %d ms%n%s%s", perNode, crash.moved(), crash.maxMillis(), crash.report(),
                    verified);
            assertTrue(crash.moved() > 0, "the crashed node held worlds");
            assertTrue(crash.maxMillis() <= ThreeNodeClusterTest.FAILOVER_BOUND_MILLIS, "the crashed node's worlds "
                    + "tick again within " + ThreeNodeClusterTest.FAILOVER_BOUND_MILLIS + " ms:\n" + crash.report()
                    + String.join("\n", cluster.log));
        }
    }
}
