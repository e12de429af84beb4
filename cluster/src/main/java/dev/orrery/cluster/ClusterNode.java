package dev.orrery.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.orrery.cluster.protocol.GetStatus;
import dev.orrery.cluster.protocol.Hold;
import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.ProtocolSerializer;
import dev.orrery.cluster.protocol.SubmitInput;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.sharding.WorldEntity;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.WorldBlueprint;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.pekko.Done;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.JoinSeedNodes;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * One node of an Orrery cluster: a Pekko actor system (Artery TCP) that joins the cluster,
 * hosts the worlds Cluster Sharding places on it (each a {@link WorldEntity} restored from
 * the shared {@link WorldStore}) and routes inputs by world id to whichever node holds the
 * world. A node that stops answering is marked unreachable and downed by Pekko's split-brain
 * resolver (keep-majority), as {@link NodeSettings.Failover} says, and its worlds reopen on
 * the survivors, whichever node it was (the oldest, which runs the shard coordinator,
 * included); worlds are remembered by sharding, so a moved world starts ticking on its new
 * node without waiting for an input. Run three nodes or more: with keep-majority, the
 * survivor of a two-node cluster stays up after a crash only if it has the lower address.
 *
 * <pre>{@code
 * WorldStore store = new DirectoryWorldStore(Path.of("/shared/worlds"));
 * ClusterNode node = ClusterNode.start(NodeSettings.local(25520, List.of()), store, blueprint);
 * long me = ClusterNode.newClientId();
 * node.submit("match-17", me, 1, 0, type, payload, Duration.ofSeconds(3))
 *     .thenAccept(reply -> ...);   // accepted at tick N, refused, or unknown: send again with sequence 1
 * }</pre>
 *
 * <p>What a person running the node needs to know (a member unreachable, downed, removed;
 * a world restored here with the ticks it replayed and the time it took, or handed off)
 * goes to the node's log sink, one line each: {@link System.Logger} at INFO by default, or
 * the sink given to {@link #start(NodeSettings, WorldStore, WorldBlueprint, Consumer)}.
 *
 * <p><b>Threading:</b> every method may be called from any thread; returned stages
 * complete on Pekko's threads, and the log sink is called on them.
 *
 * <p>(Just over 500 lines: the node's start-up (Pekko configuration from {@code NodeSettings}), its
 * questions to the worlds and its membership log are the one handle a user holds on a node; the
 * worlds' side is in {@code dev.orrery.cluster.sharding} and {@code dev.orrery.cluster.world}.)
 */
public final class ClusterNode implements AutoCloseable {
    /** The actor system's name: every node of a cluster uses it. */
    public static final String SYSTEM_NAME = "orrery";
    /**
     * The dispatcher worlds run on (4 threads; set
     * {@code orrery.world-dispatcher.thread-pool-executor.fixed-pool-size} in
     * {@link NodeSettings#extraConfig()} for more).
     */
    public static final String WORLD_DISPATCHER = "orrery.world-dispatcher";

    private static final System.Logger LOG = System.getLogger(ClusterNode.class.getName());
    private static final SecureRandom IDS = new SecureRandom();

    private final ActorSystem<Void> system;
    private final ClusterSharding sharding;
    private final NodeSettings settings;
    private final int maxPayload;

    private ClusterNode(ActorSystem<Void> system, NodeSettings settings) {
        this.system = system;
        this.settings = settings;
        this.sharding = ClusterSharding.get(system);
        this.maxPayload = ProtocolSerializer.maxPayload(system);
    }

    /**
     * Starts a node whose log lines go to {@link System.Logger} ({@code dev.orrery.cluster.ClusterNode}, INFO).
     *
     * @see #start(NodeSettings, WorldStore, WorldBlueprint, Consumer)
     */
    public static ClusterNode start(NodeSettings settings, WorldStore store, WorldBlueprint blueprint) {
        return start(settings, store, blueprint, line -> LOG.log(System.Logger.Level.INFO, line));
    }

    /**
     * Starts a node: binds, joins {@code settings.seeds()} (or starts a cluster when there
     * are none), registers the world entity with sharding and tells {@code log} what happens
     * to members and worlds, one line each.
     *
     * @throws IllegalArgumentException if {@code settings.extraConfig()} sets
     *     {@code pekko.cluster.min-nr-of-members} above 1 (see the message), or a protocol
     *     limit out of range
     * @throws org.apache.pekko.remote.RemoteTransportException (from Pekko) if the port is taken
     */
    public static ClusterNode start(NodeSettings settings, WorldStore store, WorldBlueprint blueprint,
            Consumer<String> log) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(blueprint, "blueprint");
        Objects.requireNonNull(log, "log");
        Config config = config(settings);
        int minMembers = config.getInt("pekko.cluster.min-nr-of-members");
        if (minMembers > 1) {
            throw new IllegalArgumentException("pekko.cluster.min-nr-of-members = " + minMembers + " would strand the "
                    + "worlds of a crashed oldest node: the shard coordinator restarts on the next-oldest node and "
                    + "places no shard until that many nodes have registered again. Leave it at 1 and wait with "
                    + "ClusterNode.awaitMembersUp(" + minMembers + ", timeout) before sending the first inputs");
        }
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), SYSTEM_NAME, config);
        try {
            ProtocolSerializer.maxPayload(system); // a bad limit fails here, with its key, not inside Pekko
            Cluster cluster = Cluster.get(system);
            system.systemActorOf(MemberLog.create(log, settings), "orrery-member-log", Props.empty());
            if (settings.seeds().isEmpty()) {
                cluster.manager().tell(Join.create(cluster.selfMember().address()));
            } else {
                List<Address> seeds = new ArrayList<>();
                for (String seed : settings.seeds()) {
                    int colon = seed.lastIndexOf(':');
                    seeds.add(new Address("pekko", SYSTEM_NAME, seed.substring(0, colon),
                            Integer.parseInt(seed.substring(colon + 1))));
                }
                cluster.manager().tell(new JoinSeedNodes(seeds));
            }
            Duration period = Duration.ofNanos((long) (1e9 / settings.tickHz()));
            ClusterSharding.get(system).init(Entity.of(WorldEntity.TYPE_KEY,
                    ctx -> WorldEntity.create(ctx.getEntityId(), store, blueprint, period, settings.world(), log))
                    .withStopMessage(WorldEntity.handOff())
                    .withEntityProps(DispatcherSelector.fromConfig(WORLD_DISPATCHER)));
            return new ClusterNode(system, settings);
        } catch (RuntimeException e) {
            system.terminate();
            throw e;
        }
    }

    /**
     * The node's configuration: {@code settings.extraConfig()} over Orrery's settings over
     * Pekko's defaults. Orrery's settings are the failover of {@link NodeSettings.Failover}
     * (failure detector, split-brain resolver, removal margin) and sharding tuned to restart
     * a lost node's worlds within seconds.
     */
    static Config config(NodeSettings s) {
        NodeSettings.Failover f = s.failover();
        String hocon = String.join("\n",
                "pekko.loglevel = WARNING",
                "pekko.stdout-loglevel = WARNING",
                "pekko.log-dead-letters = off",
                "pekko.log-dead-letters-during-shutdown = off",
                "pekko.actor.provider = cluster",
                "pekko.actor.serializers.orrery-world = \"dev.orrery.cluster.protocol.ProtocolSerializer\"",
                "pekko.actor.serialization-bindings { \"dev.orrery.cluster.protocol.WorldMessage\" = orrery-world }",
                ProtocolSerializer.MAX_PAYLOAD_KEY + " = " + ProtocolSerializer.DEFAULT_MAX_PAYLOAD,
                ProtocolSerializer.MAX_TEXT_KEY + " = " + ProtocolSerializer.DEFAULT_MAX_TEXT,
                "pekko.remote.artery.transport = tcp",
                "pekko.remote.artery.canonical.hostname = \"" + s.host() + "\"",
                "pekko.remote.artery.canonical.port = " + s.port(),
                "pekko.cluster.jmx.enabled = off",
                "pekko.cluster.log-info = off",
                // Failure detection: a node whose heartbeats stop is unreachable acceptablePause + heartbeatInterval
                // after the last one, however irregular they were before (a deadline, not phi accrual, whose time
                // to detect grows with the jitter a loaded machine puts on heartbeats).
                "pekko.cluster.failure-detector.implementation-class = \"org.apache.pekko.remote.DeadlineFailureDetector\"",
                "pekko.cluster.failure-detector.heartbeat-interval = " + ms(f.heartbeatInterval()),
                "pekko.cluster.failure-detector.acceptable-heartbeat-pause = " + ms(f.acceptablePause()),
                "pekko.cluster.failure-detector.expected-response-after = " + ms(f.heartbeatInterval()),
                "pekko.cluster.unreachable-nodes-reaper-interval = 250ms",
                "pekko.cluster.gossip-interval = 500ms",
                "pekko.cluster.leader-actions-interval = 250ms",
                // Downing: keep-majority once membership is stable for stableAfter. A cluster whose view keeps
                // changing is not downed whole (down-all-when-unstable): the store's epochs fence a stale holder.
                "pekko.cluster.downing-provider-class = \"org.apache.pekko.cluster.sbr.SplitBrainResolverProvider\"",
                "pekko.cluster.split-brain-resolver.active-strategy = keep-majority",
                "pekko.cluster.split-brain-resolver.stable-after = " + ms(f.stableAfter()),
                "pekko.cluster.split-brain-resolver.down-all-when-unstable = off",
                // Sharding (and the coordinator singleton) wait this long after a removal before starting the
                // removed node's shards elsewhere; by default it is stableAfter again.
                "pekko.cluster.down-removal-margin = " + ms(f.removalMargin()),
                "pekko.cluster.sharding.number-of-shards = " + s.shards(),
                // Worlds tick on their own timers: sharding must restart them on their new node by itself.
                "pekko.cluster.sharding.remember-entities = on",
                "pekko.cluster.sharding.remember-entities-store = ddata",
                // The store is the durable truth; the remembered set only lives as long as the cluster.
                "pekko.cluster.sharding.distributed-data.durable.keys = []",
                "pekko.cluster.sharding.entity-restart-backoff = 1s",
                // A rebalance that starts off a node in the seconds between its crash and its being found
                // unreachable waits for that node's hand-off acknowledgement; when the node is downed, Pekko 1.2
                // counts it as acknowledged, sends the hand-off to the dead node and waits for its answer until
                // this timeout (60 s by default), and the shard's worlds stand still that long
                // (CrashDuringRebalanceTest). A world hands off in well under a second; the entities of a shard
                // handing off are stopped after max(timeout - 5 s, 1 s) once they had the stop message.
                "pekko.cluster.sharding.handoff-timeout = 5s",
                // Remembered worlds are read with a majority: of 2 of 3 nodes, not (Pekko's default for clusters
                // under 5 nodes) all of them, so a crashed node does not hold up the shards moving off it.
                "pekko.cluster.sharding.distributed-data.majority-min-cap = 1",
                "pekko.cluster.sharding.waiting-for-state-timeout = 5s",
                // The coordinator writes its state to a majority and retries after this long: a write under way
                // when a node crashes may count the dead node (one that joined moments before is not counted yet),
                // and every shard waits for the retry (5 s by default).
                "pekko.cluster.sharding.updating-state-timeout = 2s",
                "pekko.cluster.sharding.shard-failure-backoff = 2s",
                // A region registers with a new coordinator (and asks for shard homes) this often.
                "pekko.cluster.sharding.retry-interval = 500ms",
                "pekko.cluster.sharding.coordinator-failure-backoff = 1s",
                "pekko.cluster.singleton.hand-over-retry-interval = 500ms",
                // Worlds tick (and force their journals) on their own threads, never on the dispatcher that
                // runs cluster heartbeats: a busy world must not make its node look dead.
                "orrery.world-dispatcher.type = Dispatcher",
                "orrery.world-dispatcher.executor = thread-pool-executor",
                "orrery.world-dispatcher.thread-pool-executor.fixed-pool-size = 4",
                "orrery.world-dispatcher.throughput = 1",
                // A crash is simulated by terminating without leaving; leaving is explicit (leave()).
                "pekko.coordinated-shutdown.run-by-actor-system-terminate = off");
        return ConfigFactory.parseString(s.extraConfig())
                .withFallback(ConfigFactory.parseString(hocon))
                .withFallback(ConfigFactory.load(ClusterNode.class.getClassLoader()));
    }

    private static String ms(Duration d) {
        return d.toMillis() + "ms";
    }

    /** A new random client id for {@link #submit} (never 0): one per client session, never shared. */
    public static long newClientId() {
        long id;
        do {
            id = IDS.nextLong();
        } while (id == 0);
        return id;
    }

    /** The settings the node started with. */
    public NodeSettings settings() {
        return settings;
    }

    /** The Artery TCP port the node is bound to (the free one picked when the settings said 0). */
    public int port() {
        return system.address().getPort().orElseThrow();
    }

    /** The node's address as {@code host:port}, what other nodes name as a seed. */
    public String hostPort() {
        return settings.host() + ":" + port();
    }

    /** The node's full address ({@code pekko://orrery@host:port}), as {@link WorldStatus#node()} gives it. */
    public String address() {
        return system.address().toString();
    }

    /** The actor system, for callers that add their own actors or read cluster state. */
    public ActorSystem<Void> system() {
        return system;
    }

    /** The largest input payload this node sends ({@value ProtocolSerializer#MAX_PAYLOAD_KEY}). */
    public int maxPayloadBytes() {
        return maxPayload;
    }

    /** Members of the cluster this node sees as up. */
    public int membersUp() {
        int n = 0;
        for (Member m : Cluster.get(system).state().getMembers()) {
            if (m.status() == MemberStatus.up()) {
                n++;
            }
        }
        return n;
    }

    /** Whether this node is the oldest member up (it runs the shard coordinator). */
    public boolean isOldest() {
        Member oldest = null;
        for (Member m : Cluster.get(system).state().getMembers()) {
            if (m.status() == MemberStatus.up() && (oldest == null || m.isOlderThan(oldest))) {
                oldest = m;
            }
        }
        return oldest != null && oldest.address().equals(Cluster.get(system).selfMember().address());
    }

    /**
     * Whether this node sees every member up and reachable: none joining, leaving, downed or
     * unreachable (after a crash, true again once the crashed node is downed and removed).
     */
    public boolean membershipSettled() {
        ClusterEvent.CurrentClusterState state = Cluster.get(system).state();
        if (!state.getUnreachable().isEmpty()) {
            return false;
        }
        for (Member m : state.getMembers()) {
            if (m.status() != MemberStatus.up()) {
                return false;
            }
        }
        return true;
    }

    /** Whether the node's actor system has stopped (it left, crashed, or was downed). */
    public boolean isTerminated() {
        return system.whenTerminated().isCompleted();
    }

    /**
     * Waits until this node sees {@code members} members up.
     *
     * @throws TimeoutException if it does not within {@code timeout}
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitMembersUp(int members, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (membersUp() < members) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("node " + hostPort() + " sees " + membersUp() + " members up, not " + members
                        + ", after " + timeout.toMillis() + " ms; check that the seed nodes run and are reachable");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    /**
     * Sends input {@code sequence} of client {@code clientId} to world {@code worldId},
     * wherever it runs (starting it if it is not running). The stage always completes
     * normally, with the world's answer in three words (see {@link InputReply}): accepted at
     * tick N once durable, refused when it will never apply, or unknown (no answer within
     * {@code timeout}, or the world is moving or busy): send it again with the same client id
     * and sequence until it is accepted or refused. A payload over
     * {@link #maxPayloadBytes()} is refused here, without sending.
     *
     * @param clientId the client's id ({@link #newClientId()}), the de-duplication key with {@code sequence}
     * @param sequence the input's number among this client's inputs to this world, from 1
     * @param client the client number the simulation sees
     */
    public CompletionStage<InputReply> submit(String worldId, long clientId, long sequence, int client, int type,
            byte[] payload, Duration timeout) {
        if (sequence < 1) {
            throw new IllegalArgumentException("input sequence " + sequence + " is not 1 or more; number each "
                    + "world's inputs 1, 2, 3, ...");
        }
        if (payload.length > maxPayload) {
            return CompletableFuture.completedFuture(InputReply.refused(worldId, clientId, sequence, -1, "payload of "
                    + payload.length + " bytes is over " + ProtocolSerializer.MAX_PAYLOAD_KEY + " = " + maxPayload
                    + "; send less, or raise the limit on every node"));
        }
        byte[] copy = payload.clone();
        CompletionStage<InputReply> asked;
        try {
            asked = sharding.entityRefFor(WorldEntity.TYPE_KEY, worldId)
                    .ask(replyTo -> new SubmitInput(clientId, sequence, client, type, copy, replyTo), timeout);
        } catch (RuntimeException stopped) {
            // the actor system is terminating: nothing was sent from here
            return CompletableFuture.completedFuture(InputReply.unknown(worldId, clientId, sequence, -1, "node "
                    + hostPort() + " has stopped (" + stopped.getMessage() + "); send it through another node"));
        }
        return guard(asked, timeout).handle((reply, failure) -> failure == null ? reply : InputReply.unknown(worldId,
                clientId, sequence, -1, "no answer within " + timeout.toMillis() + " ms (" + rootCause(failure)
                        + "): the world may be moving or its node down"));
    }

    /**
     * An ask's stage that completes even if this node's actor system stops meanwhile (its
     * scheduler, which times asks out, stops with it): failed with a timeout a second after
     * {@code timeout}, on the JDK's own timer.
     */
    private static <T> CompletableFuture<T> guard(CompletionStage<T> asked, Duration timeout) {
        return asked.toCompletableFuture().copy().orTimeout(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
    }

    private static String rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName();
    }

    /**
     * Asks world {@code worldId} where it runs and how far it is (starting it if it is not
     * running); the stage fails with a timeout if no answer comes within {@code timeout}.
     */
    public CompletionStage<WorldStatus> status(String worldId, Duration timeout) {
        return ask(() -> sharding.entityRefFor(WorldEntity.TYPE_KEY, worldId).ask(GetStatus::new, timeout), timeout);
    }

    /** Stops ({@code hold} true) or restarts world {@code worldId}'s ticking; see {@link Hold}. */
    public CompletionStage<WorldStatus> hold(String worldId, boolean hold, Duration timeout) {
        return ask(() -> sharding.entityRefFor(WorldEntity.TYPE_KEY, worldId).ask(r -> new Hold(hold, r), timeout),
                timeout);
    }

    /** An ask that fails (never hangs, never throws) when this node has stopped. */
    private static <T> CompletionStage<T> ask(java.util.function.Supplier<CompletionStage<T>> ask, Duration timeout) {
        try {
            return guard(ask.get(), timeout);
        } catch (RuntimeException stopped) {
            return CompletableFuture.failedFuture(stopped);
        }
    }

    /**
     * Leaves the cluster gracefully: the node's worlds are handed off (each closed with a
     * snapshot and reopened elsewhere with nothing to replay; on the last node, reopened when
     * a node next starts with the store), then the actor system terminates. The stage
     * completes when it has.
     */
    public CompletionStage<Done> leave() {
        return CoordinatedShutdown.get(system).run(CoordinatedShutdown.clusterLeavingReason(), java.util.Optional.empty())
                .thenCompose(done -> system.getWhenTerminated());
    }

    /**
     * Stops the node abruptly, as a crash would: no leave, no hand-off, no snapshot; the
     * other nodes find it unreachable, down it and reopen its worlds from their last
     * snapshots and journals. For tests and drills.
     */
    public CompletionStage<Done> crash() {
        system.terminate();
        return system.getWhenTerminated();
    }

    /** Leaves gracefully and waits up to 30 s for it. */
    @Override
    public void close() {
        try {
            leave().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | TimeoutException e) {
            system.terminate();
        }
    }

    @Override
    public String toString() {
        return "ClusterNode[" + address() + "]";
    }

    /** Tells the log sink what happens to members, in words a person running the node can act on. */
    private static final class MemberLog {
        static Behavior<ClusterEvent.ClusterDomainEvent> create(Consumer<String> log, NodeSettings s) {
            NodeSettings.Failover f = s.failover();
            return Behaviors.setup(ctx -> {
                Cluster cluster = Cluster.get(ctx.getSystem());
                cluster.subscriptions().tell(Subscribe.create(ctx.getSelf(), ClusterEvent.ClusterDomainEvent.class));
                Address self = cluster.selfMember().address();
                java.util.Set<Address> up = new java.util.HashSet<>();
                return Behaviors.receive(ClusterEvent.ClusterDomainEvent.class)
                        .onMessage(ClusterEvent.MemberUp.class, e -> {
                            up.add(e.member().address());
                            log.accept("member " + hostPort(e.member()) + " is up" + (e.member().address().equals(self)
                                    ? " (this node)" : "") + "; " + up.size() + " up");
                            return Behaviors.same();
                        })
                        .onMessage(ClusterEvent.UnreachableMember.class, e -> {
                            log.accept("member " + hostPort(e.member()) + " is unreachable (no heartbeat for "
                                    + f.acceptablePause().plus(f.heartbeatInterval()).toMillis() + " ms); if the cluster's view stays the same for "
                                    + f.stableAfter().toMillis() + " ms the split-brain resolver downs it and its worlds "
                                    + "reopen on the others; if it is alive, check its network and load");
                            return Behaviors.same();
                        })
                        .onMessage(ClusterEvent.ReachableMember.class, e -> {
                            log.accept("member " + hostPort(e.member()) + " is reachable again");
                            return Behaviors.same();
                        })
                        .onMessage(ClusterEvent.MemberDowned.class, e -> {
                            up.remove(e.member().address());
                            log.accept(e.member().address().equals(self)
                                    ? "this node was downed (the others could not reach it): it stops, its worlds "
                                    + "reopen on the others; restart it to rejoin"
                                    : "member " + hostPort(e.member()) + " was downed: its worlds reopen on the "
                                    + "others from their last snapshot and journal, after "
                                    + f.removalMargin().toMillis() + " ms");
                            return Behaviors.same();
                        })
                        .onMessage(ClusterEvent.MemberLeft.class, e -> {
                            up.remove(e.member().address());
                            log.accept("member " + hostPort(e.member()) + " is leaving: its worlds are handed off "
                                    + "with a snapshot");
                            return Behaviors.same();
                        })
                        .onMessage(ClusterEvent.MemberRemoved.class, e -> {
                            boolean leaving = !up.contains(self); // this node's own leave empties its view: no news
                            up.remove(e.member().address());
                            if (e.member().address().equals(self) || leaving) {
                                return Behaviors.same();
                            }
                            log.accept("member " + hostPort(e.member()) + " removed; " + up.size() + " up"
                                    + (up.size() < 3 && up.contains(self) ? " (fewer than 3: with keep-majority one more "
                                    + "crash may stop the cluster; start another node)" : ""));
                            return Behaviors.same();
                        })
                        .onAnyMessage(e -> Behaviors.same())
                        .build();
            });
        }

        private static String hostPort(Member m) {
            return m.address().getHost().orElse("?") + ":" + m.address().getPort().orElse(0);
        }
    }
}
