package dev.orrery.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.orrery.cluster.protocol.ProtocolSerializer;
import java.time.Duration;

/**
 * A node's Pekko configuration, built from its {@link NodeSettings} (what
 * {@link ClusterNode#start} starts its actor system with).
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class NodeConfig {
    private NodeConfig() {
    }

    /**
     * The node's configuration: {@code settings.extraConfig()} over Orrery's settings over
     * Pekko's defaults. Orrery's settings are the failover of {@link NodeSettings.Failover}
     * (failure detector, split-brain resolver, removal margin) and sharding tuned to restart
     * a lost node's worlds within seconds.
     */
    static Config of(NodeSettings s) {
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
}
