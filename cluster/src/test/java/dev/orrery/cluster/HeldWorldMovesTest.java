package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.protocol.WorldStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code Hold} promises when a held world moves: the hold belongs to the node that held
 * it, so a world handed off (here: its node leaves) starts ticking again on its new node,
 * from the state it was held in (its hand-off snapshot, nothing replayed), while worlds that
 * stay put stay held. The cluster tests' final check relies on it: a world a late rebalance
 * moves after its hold is checked through that hand-off snapshot.
 */
class HeldWorldMovesTest {
    @Test
    void aHeldWorldThatMovesTicksOnAtItsNewNodeFromTheStateItWasHeldIn(@TempDir Path dir) throws Exception {
        try (ClusterHarness cluster = new ClusterHarness(dir, 6)) {
            // three nodes, as the documentation asks: with two, the node left once read the worlds it had to restart
            // from a majority that counted the leaving node, and waited out Pekko's 5 s timeout (seen in CI)
            ClusterNode b = cluster.startNodes(3).get(1);
            ClusterHarness.Client client = cluster.new Client(Duration.ofMillis(50));
            client.start();
            cluster.statuses(s -> s.tick() > 10, Duration.ofSeconds(60));
            client.stop(Duration.ofSeconds(60));

            Map<String, WorldStatus> held = cluster.holdAll();
            Set<String> onB = new HashSet<>();
            held.values().stream().filter(s -> s.node().equals(b.address())).forEach(s -> onB.add(s.worldId()));
            assertFalse(onB.isEmpty(), "the leaving node holds worlds: " + held.values());
            cluster.leave(b);
            Map<String, WorldStatus> after = cluster.statuses(s -> !s.node().equals(b.address())
                    && (!onB.contains(s.worldId()) || s.tick() > held.get(s.worldId()).tick()), Duration.ofSeconds(60));
            for (WorldStatus s : after.values()) {
                WorldStatus before = held.get(s.worldId());
                if (onB.contains(s.worldId())) {
                    assertFalse(s.held(), "a held world that moved ticks again on its new node: " + s);
                    assertTrue(s.epoch() > before.epoch(), "it moved: " + before + " -> " + s);
                    assertEquals(before.tick(), s.snapshotTick(), "it reopened from its hand-off snapshot: " + s);
                    assertEquals(0, s.ticksReplayed(), "nothing to replay after a hand-off: " + s);
                } else {
                    assertTrue(s.held(), "a world that stayed put stays held: " + s);
                    assertEquals(before.tick(), s.tick(), "a held world does not tick: " + before + " -> " + s);
                }
            }

            String verified = cluster.verify(held, client);
            System.out.printf("HeldWorldMovesTest: %d inputs accepted; moved while held: %s%n%s", client.acked.size(),
                    onB, verified);
            for (String world : onB) {
                assertTrue(verified.contains(world + " held at tick " + held.get(world).tick() + " "), "the final "
                        + "check took " + world + "'s held state from its hand-off snapshot:\n" + verified);
            }
            assertTrue(client.acked.size() > 6 * 10, "inputs went through: " + client.acked.size());
        }
    }
}
