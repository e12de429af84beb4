package dev.orrery.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.orrery.cluster.protocol.GetStatus;
import dev.orrery.cluster.protocol.Hold;
import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.SubmitInput;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.sharding.WorldEntity;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.WorldBlueprint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.Done;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.typed.javadsl.ClusterSharding;
import org.apache.pekko.cluster.sharding.typed.javadsl.Entity;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.cluster.typed.JoinSeedNodes;

/**
 * One node of an Orrery cluster: a Pekko actor system (Artery TCP) that joins the cluster,
 * hosts the worlds Cluster Sharding places on it (each a {@link WorldEntity} restored from
 * the shared {@link WorldStore}) and routes inputs by world id to whichever node holds the
 * world. Unreachable nodes are downed by Pekko's split-brain resolver (keep-majority) after
 * {@link NodeSettings#downAfter()}, and their worlds reopen elsewhere; worlds are
 * remembered by sharding, so a moved world starts ticking on its new node without waiting
 * for an input.
 *
 * <pre>{@code
 * WorldStore store = new DirectoryWorldStore(Path.of("/shared/worlds"));
 * ClusterNode node = ClusterNode.start(NodeSettings.local(25520, List.of()), store, blueprint);
 * node.submit("match-17", client, type, payload, Duration.ofSeconds(3))
 *     .thenAccept(reply -> ...);   // accepted: durable in match-17's journal
 * }</pre>
 *
 * <p><b>Threading:</b> every method may be called from any thread; returned stages
 * complete on Pekko's threads.
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

    private final ActorSystem<Void> system;
    private final ClusterSharding sharding;
    private final NodeSettings settings;

    private ClusterNode(ActorSystem<Void> system, NodeSettings settings) {
        this.system = system;
        this.settings = settings;
        this.sharding = ClusterSharding.get(system);
    }

    /**
     * Starts a node: binds, joins {@code settings.seeds()} (or starts a cluster when there
     * are none) and registers the world entity with sharding.
     *
     * @throws org.apache.pekko.remote.RemoteTransportException (from Pekko) if the port is taken
     */
    public static ClusterNode start(NodeSettings settings, WorldStore store, WorldBlueprint blueprint) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(blueprint, "blueprint");
        ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), SYSTEM_NAME, config(settings));
        try {
            Cluster cluster = Cluster.get(system);
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
                    ctx -> WorldEntity.create(ctx.getEntityId(), store, blueprint, period, settings.snapshotEvery()))
                    .withStopMessage(WorldEntity.handOff())
                    .withEntityProps(DispatcherSelector.fromConfig(WORLD_DISPATCHER)));
            return new ClusterNode(system, settings);
        } catch (RuntimeException e) {
            system.terminate();
            throw e;
        }
    }

    /** The node's configuration: {@code settings.extraConfig()} over Orrery's settings over Pekko's defaults. */
    static Config config(NodeSettings s) {
        String hocon = String.join("\n",
                "pekko.loglevel = WARNING",
                "pekko.stdout-loglevel = WARNING",
                "pekko.log-dead-letters = off",
                "pekko.log-dead-letters-during-shutdown = off",
                "pekko.actor.provider = cluster",
                "pekko.actor.serializers.orrery-world = \"dev.orrery.cluster.protocol.ProtocolSerializer\"",
                "pekko.actor.serialization-bindings { \"dev.orrery.cluster.protocol.WorldMessage\" = orrery-world }",
                "pekko.remote.artery.transport = tcp",
                "pekko.remote.artery.canonical.hostname = \"" + s.host() + "\"",
                "pekko.remote.artery.canonical.port = " + s.port(),
                "pekko.cluster.jmx.enabled = off",
                "pekko.cluster.downing-provider-class = \"org.apache.pekko.cluster.sbr.SplitBrainResolverProvider\"",
                "pekko.cluster.split-brain-resolver.active-strategy = keep-majority",
                "pekko.cluster.split-brain-resolver.stable-after = " + (long) (s.downAfter() * 1000) + "ms",
                "pekko.cluster.sharding.number-of-shards = " + s.shards(),
                // Worlds tick on their own timers: sharding must restart them on their new node by itself.
                "pekko.cluster.sharding.remember-entities = on",
                "pekko.cluster.sharding.remember-entities-store = ddata",
                // The store is the durable truth; the remembered set only lives as long as the cluster.
                "pekko.cluster.sharding.distributed-data.durable.keys = []",
                "pekko.cluster.sharding.entity-restart-backoff = 1s",
                // Remembered worlds are read with a majority: of 2 of 3 nodes, not (Pekko's default for clusters
                // under 5 nodes) all of them, so a crashed node does not hold up the shards moving off it.
                "pekko.cluster.sharding.distributed-data.majority-min-cap = 1",
                "pekko.cluster.sharding.waiting-for-state-timeout = 5s",
                "pekko.cluster.sharding.shard-failure-backoff = 2s",
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
     * Sends an input to world {@code worldId}, wherever it runs (starting it if it is not
     * running). The stage completes with the world's reply: accepted once durable in its
     * journal, or refused (send again); it fails with a timeout if no reply comes (the world
     * is moving: send again).
     */
    public CompletionStage<InputReply> submit(String worldId, int client, int type, byte[] payload, Duration timeout) {
        byte[] copy = payload.clone();
        return sharding.entityRefFor(WorldEntity.TYPE_KEY, worldId)
                .ask(replyTo -> new SubmitInput(client, type, copy, replyTo), timeout);
    }

    /** Asks world {@code worldId} where it runs and how far it is (starting it if it is not running). */
    public CompletionStage<WorldStatus> status(String worldId, Duration timeout) {
        return sharding.entityRefFor(WorldEntity.TYPE_KEY, worldId).ask(GetStatus::new, timeout);
    }

    /** Stops ({@code hold} true) or restarts world {@code worldId}'s ticking; see {@link Hold}. */
    public CompletionStage<WorldStatus> hold(String worldId, boolean hold, Duration timeout) {
        return sharding.entityRefFor(WorldEntity.TYPE_KEY, worldId).ask(r -> new Hold(hold, r), timeout);
    }

    /**
     * Leaves the cluster gracefully: the node's worlds are handed off (each closed with a
     * snapshot and reopened elsewhere with nothing to replay), then the actor system
     * terminates. The stage completes when it has.
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
}
