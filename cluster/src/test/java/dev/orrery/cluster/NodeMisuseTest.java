package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldStatus;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a newcomer meets when a node is used wrongly, each answered at once with one message
 * that names the thing and the fix: a world id the store cannot keep a world under, a node
 * used after it stopped, a node whose seed does not answer, and settings no node could run
 * with. One node per test, in this JVM.
 */
class NodeMisuseTest {
    private static final Duration ASK = Duration.ofSeconds(2);
    /** Far longer than any answer here should take, even on a loaded machine. */
    private static final long ANSWER_SECONDS = 8;
    /**
     * The ask of a good world's first status: it starts the world (joins, allocates the shard,
     * opens the store), which a loaded machine can stretch past {@link #ASK}; not an "at once" case.
     */
    private static final Duration FIRST_ASK = Duration.ofSeconds(30);

    @Test
    void aWorldIdTheStoreCannotKeepIsRefusedAtOnceRatherThanRetriedForEver(@TempDir Path dir) throws Exception {
        try (ClusterHarness cluster = new ClusterHarness(dir, 1)) {
            ClusterNode node = cluster.startNodes(1).get(0);
            for (String bad : List.of("match 17", "a/b", "")) {
                InputReply reply = node.submit(bad, ClusterNode.newClientId(), 1, 0, DriftWorld.PUSH,
                        DriftWorld.push(1), ASK).toCompletableFuture().get(ANSWER_SECONDS, TimeUnit.SECONDS);
                assertTrue(reply.refused(), "'" + bad + "': " + reply.describe());
                assertTrue(reply.describe().contains("world id '" + bad + "' cannot name a folder")
                        && reply.describe().contains("letters, digits"), reply.describe());
                IllegalArgumentException status = assertThrows(IllegalArgumentException.class,
                        () -> node.status(bad, ASK));
                assertTrue(status.getMessage().contains("'" + bad + "'"), status.getMessage());
                assertThrows(IllegalArgumentException.class, () -> node.hold(bad, true, ASK));
            }
            // a client gets the refusal once, rather than sending the input again for its whole retryFor (2 minutes)
            WorldClient client = new WorldClient(node);
            InputReply viaClient = client.send("match 17", 0, DriftWorld.PUSH, DriftWorld.push(2)).toCompletableFuture()
                    .get(ANSWER_SECONDS, TimeUnit.SECONDS);
            assertTrue(viaClient.refused(), viaClient.describe());
            assertEquals(0, client.retries());
            // a good id still works, and no world was started under a bad one
            assertEquals("world-0", node.status("world-0", FIRST_ASK).toCompletableFuture().get(60, TimeUnit.SECONDS)
                    .worldId());
            assertTrue(cluster.log.stream().noneMatch(l -> l.contains("failed to open")), String.join("\n", cluster.log));
        }
    }

    @Test
    void aStoppedNodeSaysSoAtOnceAndClosingTwiceIsHarmless(@TempDir Path dir) throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        ClusterHarness cluster = new ClusterHarness(dir, 1);
        ClusterNode node = cluster.startNodes(1).get(0);
        node.status("world-0", FIRST_ASK).toCompletableFuture().get(60, TimeUnit.SECONDS);
        cluster.live.remove(node);
        node.close(); // leaves: the world is handed off, then the actor system terminates
        assertTrue(node.isTerminated(), "close() returns once the node's actor system has terminated");
        node.close(); // twice: harmless
        node.leave().toCompletableFuture().get(ANSWER_SECONDS, TimeUnit.SECONDS); // and leave() after it completes
        WorldStopSignalsTest.awaitTrue(() -> WorldStopSignalsTest.newThreads(before, ClusterNode.SYSTEM_NAME + "-")
                .isEmpty(), () -> "threads of the closed node left: "
                + WorldStopSignalsTest.newThreads(before, ClusterNode.SYSTEM_NAME + "-"));
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress("127.0.0.1", node.port())); // the port is free again
        }

        String stopped = "node " + node.hostPort() + " has stopped";
        for (CompletionStage<WorldStatus> ask : List.of(node.status("world-0", ASK), node.hold("world-0", true, ASK))) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> ask.toCompletableFuture().get(ANSWER_SECONDS, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(e.getCause().getMessage().startsWith(stopped) && e.getCause().getMessage().contains(
                    "through another node"), e.getCause().getMessage());
        }
        InputReply reply = node.submit("world-0", ClusterNode.newClientId(), 1, 0, DriftWorld.PUSH, DriftWorld.push(1),
                ASK).toCompletableFuture().get(ANSWER_SECONDS, TimeUnit.SECONDS);
        assertTrue(reply.unknown() && reply.describe().contains(stopped)
                && reply.describe().contains("send it through another node"), reply.describe());
        // a client of the stopped node fails its input with the node's message, rather than resend it for its whole
        // retryFor (2 minutes) to a node that will never answer otherwise
        WorldClient client = new WorldClient(node);
        long sent = System.nanoTime();
        InputReply viaClient = client.send("world-0", 0, DriftWorld.PUSH, DriftWorld.push(2)).toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertTrue(viaClient.unknown() && viaClient.describe().contains(stopped)
                && viaClient.describe().contains("send it through another node"), viaClient.describe());
        assertTrue(System.nanoTime() - sent < TimeUnit.SECONDS.toNanos(30), "failed at once, not after retryFor");
        assertEquals(0, client.retries(), "not sent again to a stopped node");
        assertEquals(1, client.unknown());
        long start = System.nanoTime();
        IllegalStateException await = assertThrows(IllegalStateException.class,
                () -> node.awaitMembersUp(1, Duration.ofSeconds(60)));
        assertTrue(await.getMessage().startsWith(stopped), await.getMessage());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "refused at once, not after the timeout");
    }

    @Test
    void aNodeWhoseSeedDoesNotAnswerNamesTheSeedInsteadOfWaitingSilently(@TempDir Path dir) throws Exception {
        int nobody;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            nobody = s.getLocalPort(); // free again once closed: no node answers there
        }
        String seed = "127.0.0.1:" + nobody;
        ClusterNode node = ClusterNode.start(NodeSettings.local(0, List.of(seed)), new ClusterHarness(dir, 1).store(),
                new DriftWorld(10), line -> { });
        try {
            TimeoutException await = assertThrows(TimeoutException.class,
                    () -> node.awaitMembersUp(1, Duration.ofSeconds(1)));
            assertTrue(await.getMessage().contains("no seed node (" + seed + ") let it in")
                    && await.getMessage().contains("without seeds"), await.getMessage());
            ExecutionException status = assertThrows(ExecutionException.class,
                    () -> node.status("world-0", Duration.ofSeconds(1)).toCompletableFuture().get(ANSWER_SECONDS,
                            TimeUnit.SECONDS));
            assertInstanceOf(TimeoutException.class, status.getCause());
            assertTrue(status.getCause().getMessage().contains("world world-0 did not answer")
                    && status.getCause().getMessage().contains(seed), status.getCause().getMessage());
            InputReply reply = node.submit("world-0", ClusterNode.newClientId(), 1, 0, DriftWorld.PUSH,
                    DriftWorld.push(1), Duration.ofSeconds(1)).toCompletableFuture().get(ANSWER_SECONDS,
                    TimeUnit.SECONDS);
            assertTrue(reply.unknown() && reply.describe().contains(seed), reply.describe());
            // it holds no world: closing it does not wait out Pekko's leaving phases (9 s) for a cluster it is not in
            long start = System.nanoTime();
            node.close();
            assertTrue(node.isTerminated());
            long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(closeMillis < 6000, "close() of a node that never joined took " + closeMillis + " ms");
        } finally {
            node.crash().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A newcomer's second node with the seed written {@code localhost:port} while the first
     * advertises itself as 127.0.0.1 (as {@code NodeSettings.local} does) never joins: Pekko
     * tells nodes apart by the host as written, so the seed node drops the join. The message
     * used to say to check that a node runs there and is reachable, which it is; it now names
     * the spelling to use. A timed-out ask used to read "node H:P it has not joined".
     */
    @Test
    void aSeedSpelledLocalhostForANodeOn127001IsNamedWithTheSpellingToUse(@TempDir Path dir) throws Exception {
        ClusterHarness cluster = new ClusterHarness(dir, 1);
        ClusterNode seedNode = ClusterNode.start(NodeSettings.local(0, List.of()), cluster.store(), new DriftWorld(10),
                line -> { });
        ClusterNode node = null;
        try {
            seedNode.awaitMembersUp(1, Duration.ofSeconds(30));
            String written = "localhost:" + seedNode.port();
            node = ClusterNode.start(NodeSettings.local(0, List.of(written)), cluster.store(), new DriftWorld(10),
                    line -> { });
            ClusterNode joining = node;
            TimeoutException await = assertThrows(TimeoutException.class,
                    () -> joining.awaitMembersUp(2, Duration.ofSeconds(3)));
            assertTrue(await.getMessage().contains("give the seed as " + seedNode.hostPort())
                    && await.getMessage().contains(written), await.getMessage());
            InputReply reply = node.submit("world-0", ClusterNode.newClientId(), 1, 0, DriftWorld.PUSH,
                    DriftWorld.push(1), Duration.ofSeconds(1)).toCompletableFuture().get(ANSWER_SECONDS,
                    TimeUnit.SECONDS);
            assertTrue(reply.unknown() && reply.describe().contains("node " + node.hostPort() + " has not joined")
                    && reply.describe().contains("give the seed as " + seedNode.hostPort()), reply.describe());
        } finally {
            if (node != null) {
                node.crash().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
            seedNode.crash().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void extraConfigurationWithAValueNoNodeCanReadIsRefusedAtStartNamingTheKey(@TempDir Path dir) throws Exception {
        // each parses, so NodeSettings takes it; before, the first two started a node whose every world failed to be
        // created (hundreds of Pekko ERROR lines a second, asks timed out), the third failed with Pekko's 'cannot
        // create children while terminating', the others with Typesafe's bare message naming neither setting nor fix
        List<String> keys = List.of("orrery.world-dispatcher.thread-pool-executor.fixed-pool-size",
                "orrery.world-dispatcher.executor", "pekko.cluster.split-brain-resolver.stable-after",
                "pekko.cluster.sharding.handoff-timeout", "pekko.actor.default-dispatcher.fork-join-executor.parallelism-min");
        for (String key : keys) {
            NodeSettings settings = NodeSettings.local(0, List.of()).withConfig("pekko.loglevel = OFF\n" + key + " = lots");
            long start = System.nanoTime();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterNode.start(settings,
                    new ClusterHarness(dir, 1).store(), new DriftWorld(10), line -> { }), key);
            assertTrue(e.getMessage().contains("NodeSettings.extraConfig sets " + key + " = lots (line 2)")
                    && e.getMessage().contains("remove the key"), e.getMessage());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), key + ": refused at start");
        }
        // a good value of the same keys still starts
        ClusterNode node = ClusterNode.start(NodeSettings.local(0, List.of()).withConfig(
                "orrery.world-dispatcher.thread-pool-executor.fixed-pool-size = 2\n"
                + "pekko.cluster.sharding.handoff-timeout = 4s"), new ClusterHarness(dir, 1).store(), new DriftWorld(10),
                line -> { });
        try {
            assertEquals("world-0", node.status("world-0", FIRST_ASK).toCompletableFuture().get(60, TimeUnit.SECONDS)
                    .worldId());
        } finally {
            node.crash().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void splitBrainResolverSettingsPekkoReadsOnlyOnceTheClusterRunsAreRefusedAtStartNamingTheKey(@TempDir Path dir) {
        // Pekko reads the resolver's strategy (and the chosen strategy's settings) only when the node's downing actor
        // starts, inside the running cluster: before, a typo there started a node that could never down a crashed
        // member, and its worlds never moved off one
        String sbr = "pekko.cluster.split-brain-resolver.";
        List<List<String>> cases = List.of(
                List.of("pekko.loglevel = OFF\n" + sbr + "active-strategy = keep-majorty",
                        sbr + "active-strategy = keep-majorty (line 2)"),
                List.of("pekko.loglevel = OFF\n" + sbr + "active-strategy = static-quorum\n" + sbr
                        + "static-quorum.quorum-size = 0", sbr + "static-quorum.quorum-size = 0 (line 3)"));
        for (List<String> c : cases) {
            NodeSettings settings = NodeSettings.local(0, List.of()).withConfig(c.get(0));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ClusterNode.start(settings,
                    new ClusterHarness(dir, 1).store(), new DriftWorld(10), line -> { }).crash(), c.get(1));
            assertTrue(e.getMessage().contains("split-brain resolver")
                    && e.getMessage().contains("NodeSettings.extraConfig sets " + c.get(1))
                    && e.getMessage().contains("remove the key"), e.getMessage());
        }
    }

    @Test
    void settingsNoNodeCouldRunWithAreRefusedNamingTheValue() {
        for (String seed : List.of("127.0.0.1:0", "127.0.0.1:99999")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> NodeSettings.local(0, List.of(seed)));
            assertTrue(e.getMessage().contains("'" + seed + "'") && e.getMessage().contains("1 to 65535"),
                    e.getMessage());
        }
        IllegalArgumentException host = assertThrows(IllegalArgumentException.class,
                () -> new NodeSettings(" ", 0, List.of(), 30, 100, NodeSettings.Failover.fast(),
                        ClusterHarness.WORLDS, ""));
        assertTrue(host.getMessage().contains("cluster host is empty"), host.getMessage());
        IllegalArgumentException hocon = assertThrows(IllegalArgumentException.class,
                () -> NodeSettings.local(0, List.of()).withConfig("pekko.cluster {"));
        assertTrue(hocon.getMessage().contains("NodeSettings.extraConfig") && hocon.getMessage().contains("not HOCON"),
                hocon.getMessage());
        assertFalse(NodeSettings.local(0, List.of("127.0.0.1:25520")).seeds().isEmpty());
    }
}
