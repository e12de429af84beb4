package dev.orrery.cluster;

import com.typesafe.config.Config;
import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.sharding.GetStatus;
import dev.orrery.cluster.sharding.Hold;
import dev.orrery.cluster.sharding.ProtocolSerializer;
import dev.orrery.cluster.sharding.SubmitInput;
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
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
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

/**
 * One node of an Orrery cluster: a Pekko actor system (Artery TCP) that joins the cluster,
 * hosts the worlds Cluster Sharding places on it (each a world entity actor restored from
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
 * <p>Its public signatures name only Orrery and JDK types (stages of {@code Void}, not of
 * Pekko's {@code Done}); Pekko stays inside the node.
 *
 * <p>A node used after it stopped (it left, crashed or was downed) says so at once: its asks
 * fail with an {@link IllegalStateException} naming it, its inputs are answered unknown with
 * "send it through another node". A world id the store cannot keep a world under
 * ({@link WorldStore#checkWorldId}) is refused before anything is sent. Its Pekko
 * configuration is built in {@code NodeConfig}, its membership lines in {@code MemberLog}.
 *
 * <p>(Over 500 lines on purpose: it is the cluster's front door, every call documented with its
 * tags and its refusals; the configuration and the membership lines sit in their own classes.)
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
    private final WorldStore store;
    private final int maxPayload;
    /** How to write a seed spelled otherwise than this node's host ({@link SeedSpelling}), or null. */
    private final String seedHint;

    private ClusterNode(ActorSystem<Void> system, NodeSettings settings, WorldStore store, String seedHint) {
        this.system = system;
        this.settings = settings;
        this.store = store;
        this.seedHint = seedHint;
        this.sharding = ClusterSharding.get(system);
        this.maxPayload = ProtocolSerializer.maxPayload(system);
    }

    /**
     * Starts a node whose log lines go to {@link System.Logger} ({@code dev.orrery.cluster.ClusterNode}, INFO).
     *
     * @param settings the node's address, seeds, rates and configuration
     * @param store where the worlds' snapshots and journals live; the same store on every node
     * @param blueprint builds a world's simulation; the same on every node
     * @return the started node; close it (or {@link #leave()}) when done
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
     * @param settings the node's address, seeds, rates and configuration
     * @param store where the worlds' snapshots and journals live; the same store on every node; not
     *     null
     * @param blueprint builds a world's simulation; the same on every node; not null
     * @param log receives one line per member or world event, on the node's threads; not null
     * @return the started node; close it (or {@link #leave()}) when done
     * @throws IllegalArgumentException if {@code settings.extraConfig()} sets
     *     {@code pekko.cluster.min-nr-of-members} above 1 (see the message), a protocol limit
     *     out of range, or a value the node cannot read (the message names the key and its line)
     * @throws org.apache.pekko.remote.RemoteTransportException (from Pekko) if the port is taken
     * @throws NullPointerException if {@code store}, {@code blueprint} or {@code log} is null
     */
    public static ClusterNode start(NodeSettings settings, WorldStore store, WorldBlueprint blueprint,
            Consumer<String> log) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(blueprint, "blueprint");
        Objects.requireNonNull(log, "log");
        Config config = NodeConfig.of(settings);
        int minMembers = config.getInt("pekko.cluster.min-nr-of-members");
        if (minMembers > 1) {
            throw new IllegalArgumentException("pekko.cluster.min-nr-of-members = " + minMembers + " would strand the "
                    + "worlds of a crashed oldest node: the shard coordinator restarts on the next-oldest node and "
                    + "places no shard until that many nodes have registered again. Leave it at 1 and wait with "
                    + "ClusterNode.awaitMembersUp(" + minMembers + ", timeout) before sending the first inputs");
        }
        ActorSystem<Void> system;
        try {
            system = ActorSystem.create(Behaviors.empty(), SYSTEM_NAME, config);
        } catch (RuntimeException e) {
            throw NodeConfig.explained(e, settings);
        }
        try {
            ProtocolSerializer.maxPayload(system); // a bad limit fails here, with its key, not inside Pekko
            NodeConfig.checkWorldDispatcher(system, settings); // here, not for each world as it starts
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
            return new ClusterNode(system, settings, store, SeedSpelling.hint(settings));
        } catch (RuntimeException e) {
            system.terminate();
            throw NodeConfig.explained(e, settings);
        }
    }

    /**
     * A new random client id for {@link #submit} (never 0): one per client session, never shared.
     *
     * @return a random id, never 0
     */
    public static long newClientId() {
        long id;
        do {
            id = IDS.nextLong();
        } while (id == 0);
        return id;
    }

    /**
     * The settings the node started with.
     *
     * @return the settings given to {@code start}
     */
    public NodeSettings settings() {
        return settings;
    }

    /**
     * The Artery TCP port the node is bound to (the free one picked when the settings said 0).
     *
     * @return the bound port, 1 to 65535
     */
    public int port() {
        return system.address().getPort().orElseThrow();
    }

    /**
     * The node's address as {@code host:port}, what other nodes name as a seed.
     *
     * @return {@code settings().host() + ":" + port()}
     */
    public String hostPort() {
        return settings.host() + ":" + port();
    }

    /**
     * The node's full address ({@code pekko://orrery@host:port}), as {@link WorldStatus#node()} gives it.
     *
     * @return the address, as Pekko writes it
     */
    public String address() {
        return system.address().toString();
    }

    /**
     * The actor system, for this package's tests (its configuration, a shutdown by another
     * reason). Not public: the node's methods answer what a user asks of the cluster
     * ({@link #membersUp()}, {@link #isOldest()}, {@link #membershipSettled()}), and its public
     * signatures name no Pekko type.
     *
     * @return the node's actor system, the same object for the node's life
     */
    ActorSystem<Void> system() {
        return system;
    }

    /**
     * The largest input payload this node sends ({@code orrery.protocol.max-payload-bytes} in
     * {@link NodeSettings#extraConfig()}; 16384 by default, at most 65520).
     *
     * @return the limit in bytes, from the node's configuration
     */
    public int maxPayloadBytes() {
        return maxPayload;
    }

    /**
     * Members of the cluster this node sees as up.
     *
     * @return the count, 0 before this node has joined, this node included once it is up
     */
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
     * Whether this node is the oldest member up (it runs the shard coordinator).
     *
     * @return true when no member up is older than this node; false before it is up
     */
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
     *
     * @return true when no member is unreachable and every member is up
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

    /**
     * Whether the node's actor system has stopped (it left, crashed, or was downed).
     *
     * @return true once the actor system has terminated; the node then takes no requests
     */
    public boolean isTerminated() {
        return system.whenTerminated().isCompleted();
    }

    /**
     * Waits until this node sees {@code members} members up.
     *
     * @param members how many members up to wait for, this node included
     * @param timeout how long to wait, not null
     * @throws TimeoutException if it does not within {@code timeout} (the message names the
     *     seeds a node that has not joined is waiting for)
     * @throws IllegalStateException if this node has stopped (it left, crashed or was downed)
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitMembersUp(int members, Duration timeout) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (membersUp() < members) {
            String stopped = stopped();
            if (stopped != null) {
                throw new IllegalStateException(stopped + ": it will see no member up again; start a new node");
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("node " + hostPort() + " sees " + membersUp() + " members up, not " + members
                        + ", after " + timeout.toMillis() + " ms; " + (joined() ? "start more nodes with this node as "
                        + "their seed, or wait longer" : "it " + notJoined()));
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    /** Whether this node is a member up (it joined its seeds, or started a cluster). */
    private boolean joined() {
        try {
            return Cluster.get(system).selfMember().status() == MemberStatus.up();
        } catch (RuntimeException stopped) {
            return false;
        }
    }

    /** Why a node that has not joined sees nothing yet, and what to check. */
    private String notJoined() {
        return settings.seeds().isEmpty() ? "has not started its cluster yet (check its load)"
                : "has not joined its cluster: no seed node (" + String.join(", ", settings.seeds())
                + ") let it in yet; " + (seedHint == null ? "" : seedHint + "; otherwise ") + "check that a node runs "
                + "at a seed address and is reachable from here, or start this node without seeds to begin a new "
                + "cluster";
    }

    /** Why this node can take no more requests (it left, crashed or was downed), or null while it runs. */
    private String stopped() {
        return isTerminated() ? "node " + hostPort() + " has stopped (it left, crashed or was downed)" : null;
    }

    /**
     * Why a request through this node failed if the node is the reason: {@link #stopped()},
     * or its coordinated shutdown (a leave, the JVM's shutdown hook) under way; null otherwise.
     * Requests are still sent while a node leaves (sharding routes them to the worlds' new
     * nodes until its region stops), so this only explains a failure.
     */
    private String stoppedOrLeaving() {
        String stopped = stopped();
        if (stopped == null && CoordinatedShutdown.get(system).getShutdownReason().isPresent()) {
            return "node " + hostPort() + " is shutting down (it is leaving)";
        }
        return stopped;
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
     * @param worldId  the world's id; one the store refuses ({@link WorldStore#checkWorldId}) is
     *     answered refused at once
     * @param clientId the client's id ({@link #newClientId()}), the de-duplication key with {@code sequence}
     * @param sequence the input's number among this client's inputs to this world, from 1
     * @param client   the client number the simulation sees
     * @param type     the command type the simulation sees, the application's own numbering
     * @param payload  the command's bytes, copied before this returns; not null
     * @param timeout  how long to wait for the world's answer before completing with unknown
     * @return a stage that always completes normally, with the world's answer or unknown
     * @throws IllegalArgumentException if {@code sequence} is below 1
     */
    public CompletionStage<InputReply> submit(String worldId, long clientId, long sequence, int client, int type,
            byte[] payload, Duration timeout) {
        if (sequence < 1) {
            throw new IllegalArgumentException("input sequence " + sequence + " is not 1 or more; number each "
                    + "world's inputs 1, 2, 3, ...");
        }
        String badId = badWorldId(worldId);
        if (badId != null) {
            return CompletableFuture.completedFuture(InputReply.refused(String.valueOf(worldId), clientId, sequence, -1,
                    badId));
        }
        String stopped = stopped();
        if (stopped != null) {
            return CompletableFuture.completedFuture(InputReply.unknown(worldId, clientId, sequence, -1, stopped
                    + "; send it through another node"));
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
        } catch (RuntimeException terminating) {
            // the actor system is terminating: nothing was sent from here
            return CompletableFuture.completedFuture(InputReply.unknown(worldId, clientId, sequence, -1, "node "
                    + hostPort() + " has stopped (" + terminating.getMessage() + "); send it through another node"));
        }
        return guard(asked, timeout).handle((reply, failure) -> failure == null ? reply : InputReply.unknown(worldId,
                clientId, sequence, -1, stoppedOrLeaving() != null
                        ? stoppedOrLeaving() + "; send it through another node"
                        : "no answer within " + timeout.toMillis() + " ms (" + rootCause(failure) + "): "
                        + (joined() ? "the world may be moving or its node down" : "node " + hostPort() + " "
                        + notJoined())));
    }

    /** Why {@code store} cannot keep a world under {@code worldId}, or null if it can. */
    private String badWorldId(String worldId) {
        try {
            store.checkWorldId(worldId);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
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
     * running); the stage fails with a timeout if no answer comes within {@code timeout}, and
     * with an {@link IllegalStateException} naming this node once it has stopped.
     *
     * @param worldId the world's id
     * @param timeout how long to wait for the answer, not null
     * @return a stage completed with where the world runs and its tick
     * @throws IllegalArgumentException if the store cannot keep a world under {@code worldId}
     *     ({@link WorldStore#checkWorldId})
     */
    public CompletionStage<WorldStatus> status(String worldId, Duration timeout) {
        store.checkWorldId(worldId);
        return ask(worldId, () -> sharding.entityRefFor(WorldEntity.TYPE_KEY, worldId).ask(GetStatus::new, timeout),
                timeout);
    }

    /**
     * Stops ({@code hold} true) or restarts world {@code worldId}'s ticking on the node that
     * holds it now, for a consistent end state in tests and tools: inputs sent while it is held
     * wait for its next tick, and a world that moves starts ticking again on its new node. The
     * stage fails as {@link #status}'s does.
     *
     * @param worldId the world's id
     * @param hold true to stop its ticking, false to restart it
     * @param timeout how long to wait for the answer, not null
     * @return a stage completed with the world's status after the change
     * @throws IllegalArgumentException if the store cannot keep a world under {@code worldId}
     */
    public CompletionStage<WorldStatus> hold(String worldId, boolean hold, Duration timeout) {
        store.checkWorldId(worldId);
        return ask(worldId, () -> sharding.entityRefFor(WorldEntity.TYPE_KEY, worldId).ask(r -> new Hold(hold, r),
                timeout), timeout);
    }

    /**
     * An ask that fails (never hangs, never throws) when this node has stopped, with an
     * {@link IllegalStateException} that says so rather than Pekko's words for it; a timeout
     * on a node that has not joined its cluster says that.
     */
    private <T> CompletionStage<T> ask(String worldId, java.util.function.Supplier<CompletionStage<T>> ask,
            Duration timeout) {
        String stopped = stopped();
        if (stopped != null) {
            return CompletableFuture.failedFuture(new IllegalStateException(stopped + "; ask world " + worldId
                    + " through another node, or start a new one"));
        }
        CompletableFuture<T> asked;
        try {
            asked = guard(ask.get(), timeout);
        } catch (RuntimeException e) {
            asked = CompletableFuture.failedFuture(e);
        }
        return asked.handle((value, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(value);
            }
            String now = stoppedOrLeaving();
            if (now != null) {
                return CompletableFuture.<T>failedFuture(new IllegalStateException(now + "; ask world " + worldId
                        + " through another node, or start a new one", failure));
            }
            if (!joined()) {
                return CompletableFuture.<T>failedFuture(new TimeoutException("world " + worldId + " did not answer "
                        + "within " + timeout.toMillis() + " ms: node " + hostPort() + " " + notJoined()));
            }
            return CompletableFuture.<T>failedFuture(failure);
        }).thenCompose(f -> f);
    }

    /**
     * Leaves the cluster gracefully: the node's worlds are handed off (each closed with a
     * snapshot and reopened elsewhere with nothing to replay; on the last node, reopened when
     * a node next starts with the store), then the actor system terminates. The stage
     * completes when it has. A node that never joined (its seeds did not answer) holds no
     * world: it terminates at once rather than wait out Pekko's leaving phases for a cluster
     * it is not in.
     *
     * @return a stage completed (with null) when the node's actor system has terminated
     */
    public CompletionStage<Void> leave() {
        if (!isTerminated() && CoordinatedShutdown.get(system).getShutdownReason().isEmpty()
                && !Cluster.get(system).state().getMembers().iterator().hasNext()) {
            system.terminate();
            return terminated();
        }
        return CoordinatedShutdown.get(system).run(CoordinatedShutdown.clusterLeavingReason(), java.util.Optional.empty())
                .thenCompose(done -> terminated());
    }

    /**
     * Stops the node abruptly, as a crash would: no leave, no hand-off, no snapshot; the
     * other nodes find it unreachable, down it and reopen its worlds from their last
     * snapshots and journals. For tests and drills.
     *
     * @return a stage completed (with null) when the node's actor system has terminated
     */
    public CompletionStage<Void> crash() {
        system.terminate();
        return terminated();
    }

    /** The actor system's termination as a JDK stage: Pekko's {@code Done} carries nothing a caller needs. */
    private CompletionStage<Void> terminated() {
        return system.getWhenTerminated().thenApply(done -> null);
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
