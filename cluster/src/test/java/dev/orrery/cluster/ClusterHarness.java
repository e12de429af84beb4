package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.HistoryReplay;
import dev.orrery.cluster.world.WorldSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Nodes of one cluster in this JVM over a shared store directory, with what the cluster tests
 * need around them: a client that retries every input until it is answered accepted or
 * refused (through whichever node is alive), a watch on every world's progress that measures
 * the longest time a world stood still, and the final check of every world against a
 * straight replay of its journal and of every acknowledged input against the journal.
 *
 * <p>Each node is a Pekko actor system with its own Artery TCP port; a crash terminates one
 * without leaving (see {@link ClusterNode#crash()}). Everything between the nodes goes over
 * TCP through the world protocol's serializer, as between processes.
 *
 * <p><b>Threading:</b> the test thread drives it; the client and the watch run on their own
 * threads and Pekko's.
 */
final class ClusterHarness implements AutoCloseable {
    static final Duration ASK = Duration.ofSeconds(2);
    /** Worlds tick at 40 Hz and snapshot every 40 ticks; every snapshot is kept so journals replay from tick 0. */
    static final WorldSettings WORLDS = WorldSettings.defaults().withSnapshotEvery(40).withKeepSnapshots(0);

    final Path dir;
    final int worlds;
    private final String extraConfig;
    private final int workers;
    final List<ClusterNode> live = new CopyOnWriteArrayList<>();
    final ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
    private final AtomicInteger nextRoute = new AtomicInteger();
    private final long started = System.nanoTime();

    ClusterHarness(Path dir, int worlds) {
        this(dir, worlds, "");
    }

    /** Nodes with {@code extraConfig} (HOCON) laid over their configuration. */
    ClusterHarness(Path dir, int worlds, String extraConfig) {
        this(dir, worlds, extraConfig, 1);
    }

    /**
     * Nodes with {@code extraConfig} (HOCON) laid over their configuration, whose worlds tick
     * on {@code workers} workers each (above 1, every world's simulation has threads of its own).
     */
    ClusterHarness(Path dir, int worlds, String extraConfig, int workers) {
        this.dir = dir;
        this.worlds = worlds;
        this.extraConfig = extraConfig;
        this.workers = workers;
    }

    static String world(int w) {
        return "world-" + w;
    }

    NodeSettings settings(List<String> seeds) {
        return NodeSettings.local(0, seeds).withTicks(40, 40).withWorld(WORLDS).withSharding(30, 1.5)
                .withConfig(extraConfig);
    }

    /** Starts a node joining the live ones (or a new cluster when none is live). */
    ClusterNode start() {
        return start(store());
    }

    /** Starts a node over {@code store} (the shared directory, perhaps wrapped) joining the live ones. */
    ClusterNode start(WorldStore store) {
        List<String> seeds = new ArrayList<>();
        for (ClusterNode n : live) {
            seeds.add(n.hostPort());
        }
        ClusterNode[] self = new ClusterNode[1];
        ClusterNode node = ClusterNode.start(settings(seeds), store, new DriftWorld(200, workers), line -> log.add(
                String.format("%6.1f s %s %s", (System.nanoTime() - started) / 1e9,
                        self[0] == null ? "new node" : self[0].hostPort(), line)));
        self[0] = node;
        live.add(node);
        return node;
    }

    /**
     * Starts a cluster of {@code n} nodes: the first alone (it becomes the oldest), then the
     * others joining it; returns them in start order once every one sees {@code n} members up.
     */
    List<ClusterNode> startNodes(int n) throws InterruptedException, TimeoutException {
        List<ClusterNode> nodes = new ArrayList<>();
        nodes.add(start());
        nodes.get(0).awaitMembersUp(1, Duration.ofSeconds(20));
        while (nodes.size() < n) {
            nodes.add(start());
        }
        awaitUp(n, Duration.ofSeconds(30));
        return nodes;
    }

    /** A store over the shared directory, one per node, as separate processes would open it. */
    DirectoryWorldStore store() {
        try {
            return new DirectoryWorldStore(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until every live node sees {@code n} members up. */
    void awaitUp(int n, Duration timeout) throws InterruptedException, TimeoutException {
        for (ClusterNode node : live) {
            node.awaitMembersUp(n, timeout);
        }
    }

    /** The live node that is the oldest member (it runs the shard coordinator). */
    ClusterNode oldest() {
        for (ClusterNode n : live) {
            if (n.isOldest()) {
                return n;
            }
        }
        throw new AssertionError("no live node is the oldest member: " + live);
    }

    /** Crashes {@code node} (no leave, no hand-off) and returns when its actor system has stopped. */
    long crash(ClusterNode node) throws Exception {
        live.remove(node);
        long at = System.currentTimeMillis();
        node.crash().toCompletableFuture().get(20, TimeUnit.SECONDS);
        return at;
    }

    /** Makes {@code node} leave gracefully and returns when it has. */
    void leave(ClusterNode node) throws Exception {
        live.remove(node);
        node.leave().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    /** A live node, another one each call; a node that stopped meanwhile is skipped. */
    ClusterNode any() {
        for (int i = 0; i < 2 * Math.max(1, live.size()); i++) {
            List<ClusterNode> now = live;
            if (now.isEmpty()) {
                break;
            }
            ClusterNode n = now.get(Math.floorMod(nextRoute.getAndIncrement(), now.size()));
            if (!n.isTerminated()) {
                return n;
            }
        }
        throw new IllegalStateException("no live node");
    }

    /** The client route: each attempt through a live node, round robin. */
    CompletableFuture<InputReply> submit(String worldId, long clientId, long sequence, int client, int type,
            byte[] payload, Duration timeout) {
        try {
            return any().submit(worldId, clientId, sequence, client, type, payload, timeout).toCompletableFuture();
        } catch (IllegalStateException none) {
            return CompletableFuture.completedFuture(InputReply.unknown(worldId, clientId, sequence, -1, "no node"));
        }
    }

    /** Every world's status, asked through live nodes until {@code done} holds for each, within {@code timeout}. */
    Map<String, WorldStatus> statuses(Predicate<WorldStatus> done, Duration timeout) throws InterruptedException {
        Map<String, WorldStatus> out = new HashMap<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (out.size() < worlds) {
            for (int w = 0; w < worlds; w++) {
                if (out.containsKey(world(w))) {
                    continue;
                }
                try {
                    WorldStatus s = any().status(world(w), ASK).toCompletableFuture().get(5, TimeUnit.SECONDS);
                    if (done.test(s)) {
                        out.put(world(w), s);
                    }
                } catch (ExecutionException | TimeoutException | IllegalStateException e) {
                    // the world is moving, or the node asked just stopped: ask again
                }
            }
            assertTrue(System.nanoTime() < deadline, "worlds not settled after " + timeout.toSeconds() + " s: "
                    + out.keySet() + "\n" + String.join("\n", log));
            TimeUnit.MILLISECONDS.sleep(50);
        }
        return out;
    }

    /** How many of {@code statuses}' worlds each node holds, by node address. */
    static Map<String, Integer> worldsPerNode(Map<String, WorldStatus> statuses) {
        Map<String, Integer> perNode = new HashMap<>();
        statuses.values().forEach(s -> perNode.merge(s.node(), 1, Integer::sum));
        return perNode;
    }

    /** One acknowledged input. */
    record Acked(String world, long clientId, long sequence, int id, long tick) {
    }

    /** Sends one input per world every {@code period} through {@link WorldClient}, which retries each until answered. */
    final class Client {
        final WorldClient client = new WorldClient(ClusterHarness.this::submit, ASK, Duration.ofMinutes(5), 200);
        final ConcurrentLinkedQueue<Acked> acked = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<InputReply> refused = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<InputReply> unknown = new ConcurrentLinkedQueue<>();
        final AtomicInteger nextId = new AtomicInteger();
        final AtomicInteger open = new AtomicInteger();
        final Duration period;
        volatile boolean running = true;
        final Thread thread = new Thread(this::loop, "cluster-test-client");

        Client(Duration period) {
            this.period = period;
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void loop() {
            while (running) {
                for (int w = 0; w < worlds; w++) {
                    send(world(w), nextId.getAndIncrement());
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(period.toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        /** Per world, inputs sent and not yet answered: the loop skips a world with many (it is moving). */
        final Map<String, AtomicInteger> openPerWorld = new ConcurrentHashMap<>();

        void send(String world, int id) {
            AtomicInteger mine = openPerWorld.computeIfAbsent(world, w -> new AtomicInteger());
            if (mine.get() >= 150) {
                return; // the world is moving: no more than the client keeps unanswered (WorldClient refuses past 200)
            }
            mine.incrementAndGet();
            open.incrementAndGet();
            client.send(world, 1, DriftWorld.PUSH, DriftWorld.push(id)).whenComplete((r, e) -> {
                if (r.accepted()) {
                    acked.add(new Acked(world, r.clientId(), r.sequence(), id, r.tick()));
                } else if (r.refused()) {
                    refused.add(r);
                } else {
                    unknown.add(r);
                }
                mine.decrementAndGet();
                open.decrementAndGet();
            });
        }

        /** Stops sending and waits until every input sent is answered. */
        void stop(Duration timeout) throws InterruptedException {
            running = false;
            thread.join();
            long deadline = System.nanoTime() + timeout.toNanos();
            while (open.get() > 0 && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(20);
            }
            assertEquals(0, open.get(), "inputs still unanswered " + timeout.toSeconds() + " s after the client "
                    + "stopped");
        }
    }

    /** Watches every world's tick through live nodes and keeps, per world, the longest time it did not advance. */
    final class Watch {
        final Map<String, long[]> lastAdvance = new ConcurrentHashMap<>(); // {tick, millis}
        final Map<String, Long> longestStall = new ConcurrentHashMap<>();
        final Map<String, String> stallWhen = new ConcurrentHashMap<>();
        volatile boolean running = true;
        final Thread thread = new Thread(this::loop, "cluster-test-watch");

        Watch() {
            thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        private final Map<String, CompletableFuture<WorldStatus>> inFlight = new ConcurrentHashMap<>();

        /** Asks every world (one ask per world at a time) every 100 ms; each answer is observed when it arrives. */
        private void loop() {
            while (running) {
                for (int w = 0; w < worlds; w++) {
                    String id = world(w);
                    CompletableFuture<WorldStatus> pending = inFlight.get(id);
                    if (pending != null && !pending.isDone()) {
                        continue;
                    }
                    try {
                        CompletableFuture<WorldStatus> ask = any().status(id, Duration.ofMillis(1500))
                                .toCompletableFuture();
                        inFlight.put(id, ask);
                        ask.thenAccept(this::observe);
                    } catch (IllegalStateException none) {
                        // no live node this instant
                    }
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private synchronized void observe(WorldStatus s) {
            long now = System.currentTimeMillis();
            long[] last = lastAdvance.get(s.worldId());
            if (last == null) {
                lastAdvance.put(s.worldId(), new long[] {s.tick(), now});
            } else if (s.tick() > last[0]) {
                long stall = now - last[1];
                if (stall > longestStall.getOrDefault(s.worldId(), 0L)) {
                    longestStall.put(s.worldId(), stall);
                    stallWhen.put(s.worldId(), String.format("%.1f s", (now - stall - startedMillis()) / 1000.0));
                }
                last[0] = s.tick();
                last[1] = now;
            }
        }

        long longest() {
            long max = 0;
            for (long v : longestStall.values()) {
                max = Math.max(max, v);
            }
            return max;
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }
    }

    private long startedMillis() {
        return System.currentTimeMillis() - (System.nanoTime() - started) / 1_000_000;
    }

    /** {@link #holdAll()}, then {@link #verify(Map, Client)}. */
    String verify(Client client) throws Exception {
        return verify(holdAll(), client);
    }

    /** Holds every world (through live nodes, retried while it moves) and returns its status at the hold. */
    Map<String, WorldStatus> holdAll() throws InterruptedException {
        Map<String, WorldStatus> held = new HashMap<>();
        for (int w = 0; w < worlds; w++) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try {
                    WorldStatus s = any().hold(world(w), true, ASK).toCompletableFuture().get(5, TimeUnit.SECONDS);
                    assertTrue(s.held());
                    held.put(s.worldId(), s);
                    break;
                } catch (ExecutionException | TimeoutException e) {
                    assertTrue(System.nanoTime() < deadline, world(w) + " does not answer a hold");
                }
            }
        }
        return held;
    }

    /**
     * Stops every node (so the store holds the final history), then checks each world held
     * in {@code held} against a straight replay of its whole journal (hashes on the way and
     * at the end), every acknowledged input against the journal (applied once, at the
     * acknowledged tick), and every refused input as never applied.
     *
     * <p>A hold lasts only as long as the world stays on its node ({@code Hold}): a rebalance
     * still under way after the last join may hand a held world off, and the world ticks on
     * at its new node until the nodes stop. Its journal then goes past the tick of its hold;
     * the held state is checked through the hand-off snapshot its holder wrote at that tick,
     * which the replay compares with its own state there (the report says so for that world).
     *
     * @return a report line per world
     */
    String verify(Map<String, WorldStatus> held, Client client) throws Exception {
        close();
        StringBuilder report = new StringBuilder();
        DirectoryWorldStore store = store();
        Map<String, HistoryReplay.Result> replays = new HashMap<>();
        for (WorldStatus s : held.values()) {
            HistoryReplay.Result r = HistoryReplay.replay(store, s.worldId(), new DriftWorld(200));
            replays.put(s.worldId(), r);
            report.append("  ").append(r.report().describe()).append('\n');
            assertEquals(-1, r.report().fromSnapshot(), s.worldId() + ": the whole history is replayed");
            assertEquals(0, r.hashMismatches(), s.worldId() + ": journaled hashes or snapshots one straight run does "
                    + "not reproduce");
            assertEquals(0, r.report().duplicateInputs(), s.worldId() + ": inputs applied twice");
            if (r.nextTick() == s.tick()) {
                assertEquals(s.stateHash(), r.stateHash(), s.worldId() + ": final hash of one straight run");
                continue;
            }
            assertTrue(r.nextTick() > s.tick(), s.worldId() + ": the journal history (to tick " + r.nextTick()
                    + ") reaches the tick the world was held at, " + s.tick());
            OptionalLong handedOff = HistoryReplay.snapshotHash(store, s.worldId(), s.epoch(), s.tick(),
                    new DriftWorld(200));
            assertTrue(handedOff.isPresent(), s.worldId() + " went on past the tick it was held at (" + s.tick()
                    + ", epoch " + s.epoch() + ", to tick " + r.nextTick() + ") without the hand-off snapshot of a move");
            assertEquals(s.stateHash(), handedOff.getAsLong(), s.worldId() + ": the held state, as handed off at tick "
                    + s.tick() + " and checked against the replay there");
            report.append(String.format("    %s held at tick %d (epoch %d), handed off at that tick, ticked on to %d%n",
                    s.worldId(), s.tick(), s.epoch(), r.nextTick()));
        }
        for (Acked ack : client.acked) {
            Long tick = replays.get(ack.world()).applied().get(List.of(ack.clientId(), ack.sequence()));
            assertEquals(Long.valueOf(ack.tick()), tick, "acknowledged input " + ack + " applied once, at its tick");
        }
        for (InputReply r : client.refused) {
            assertTrue(!replays.get(r.worldId()).applied().containsKey(List.of(r.clientId(), r.sequence())),
                    "refused input " + r + " never applied");
        }
        return report.toString();
    }

    /** Waits until every live node sees exactly the live nodes up (a crashed one downed and removed). */
    void awaitSettled(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean settled = true;
            for (ClusterNode n : live) {
                settled &= n.membersUp() == live.size() && n.membershipSettled();
            }
            if (settled) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "the cluster did not settle within " + timeout.toSeconds()
                    + " s\n" + String.join("\n", log));
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    @Override
    public void close() {
        for (ClusterNode n : live) {
            n.crash().toCompletableFuture().join();
        }
        live.clear();
    }
}
