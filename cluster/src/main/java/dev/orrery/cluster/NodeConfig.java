package dev.orrery.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import dev.orrery.cluster.sharding.ProtocolSerializer;
import java.time.Duration;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.cluster.ClusterSettings;
import org.apache.pekko.cluster.sbr.SplitBrainResolverSettings;
import org.apache.pekko.cluster.sharding.typed.ClusterShardingSettings;

/**
 * A node's Pekko configuration, built from its {@link NodeSettings} (what
 * {@link ClusterNode#start} starts its actor system with), and the checks that a value in
 * {@link NodeSettings#extraConfig()} which parses but cannot be read (a word for a number or a
 * duration) is refused when the node starts, naming the key and the fix, rather than failing
 * later inside Pekko: a world dispatcher that cannot be built left every world failing to start
 * (an ERROR line each time, asks timing out), and some settings read as the cluster starts
 * (the split-brain resolver's among them) failed with Pekko's unrelated "cannot create
 * children while terminating".
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class NodeConfig {
    /** The origin Typesafe gives the extra configuration's values in its messages. */
    private static final String EXTRA = "NodeSettings.extraConfig";
    /** The origin of the settings Orrery derives from {@link NodeSettings}. */
    private static final String ORRERY = "Orrery's node settings";
    /** The downing provider Orrery configures, whose settings {@link #checkSplitBrainResolver} reads. */
    private static final String SBR_PROVIDER = "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider";
    /** The split-brain resolver's keys. */
    private static final String SBR = "pekko.cluster.split-brain-resolver.";

    private NodeConfig() {
    }

    /**
     * The node's configuration: {@code settings.extraConfig()} over Orrery's settings over
     * Pekko's defaults. Orrery's settings are the failover of {@link NodeSettings.Failover}
     * (failure detector, split-brain resolver, removal margin) and sharding tuned to restart
     * a lost node's worlds within seconds. Read eagerly here: the keys Orrery sets (as the kind
     * of value Orrery gives each) and Pekko's cluster and sharding settings.
     *
     * @throws IllegalArgumentException naming the key of {@code extraConfig} that cannot be read, and the fix
     */
    static Config of(NodeSettings s) {
        Config extra = extra(s);
        Config orrery = orrery(s);
        try {
            Config pekko = pekko();
            Config config = extra.withFallback(orrery).withFallback(pekko).resolve();
            for (Map.Entry<String, ConfigValue> e : extra.entrySet()) {
                // a key Orrery sets is read as the kind of value Orrery gives it, unless Pekko's default is of
                // another kind (down-removal-margin is off by default: Pekko takes off or a duration there)
                String key = e.getKey();
                String kind = orrery.hasPath(key) ? kind(orrery.getValue(key)) : null;
                if (kind != null && (!pekko.hasPath(key) || kind.equals(kind(pekko.getValue(key))))) {
                    if (kind.equals("number")) {
                        config.getNumber(key);
                    } else {
                        config.getDuration(key);
                    }
                }
            }
            new ClusterSettings(config, ClusterNode.SYSTEM_NAME);
            ClusterShardingSettings.fromConfig(config.getConfig("pekko.cluster.sharding"));
            checkSplitBrainResolver(config, s);
            return config;
        } catch (ConfigException e) {
            throw explained(e, s);
        }
    }

    /**
     * Reads the split-brain resolver's settings as its downing actor will: Pekko reads them only
     * once the cluster runs, and a strategy it does not know (or a bad setting of the chosen one)
     * then stopped the actor system, so that the node failed with Pekko's "cannot create children
     * while terminating". Read with Pekko's own settings class (internal to Pekko, as the
     * resolver is its only reader), so the rules stay Pekko's.
     *
     * @throws IllegalArgumentException naming the key of {@code extraConfig} at fault, its value and the fix
     * @throws ConfigException for a value of the wrong kind, which {@link #of} explains
     */
    private static void checkSplitBrainResolver(Config config, NodeSettings s) {
        if (!SBR_PROVIDER.equals(config.getString("pekko.cluster.downing-provider-class"))) {
            return; // another downing provider reads its own settings
        }
        try {
            SplitBrainResolverSettings sbr = new SplitBrainResolverSettings(config);
            switch (sbr.DowningStrategy()) {
                case "static-quorum" -> sbr.staticQuorumSettings();
                case "keep-oldest" -> sbr.keepOldestSettings();
                case "lease-majority" -> sbr.leaseMajoritySettings();
                default -> sbr.keepMajorityRole();
            }
        } catch (ConfigException e) {
            throw e;
        } catch (RuntimeException e) {
            Config extra = extra(s);
            String key = null;
            for (Map.Entry<String, ConfigValue> v : extra.entrySet()) {
                String value = String.valueOf(v.getValue().unwrapped());
                if (v.getKey().startsWith(SBR) && (e.getMessage().contains(v.getKey())
                        || e.getMessage().contains("[" + value + "]"))) {
                    key = v.getKey();
                }
            }
            throw new IllegalArgumentException("the node's split-brain resolver cannot start (" + e.getMessage()
                    + ")" + (key == null ? "; check the keys under " + SBR + " in " + EXTRA + " (NodeSettings.withConfig)"
                            : ": " + fix(key, extra, s)), e);
        }
    }

    /** "number", "duration" (a number and ms or s), or null for a value of another kind. */
    private static String kind(ConfigValue v) {
        if (v.valueType() == ConfigValueType.NUMBER) {
            return "number";
        }
        return v.valueType() == ConfigValueType.STRING && String.valueOf(v.unwrapped()).matches("\\d+\\s*(ms|s)")
                ? "duration" : null;
    }

    /** Pekko's defaults (and an application.conf, if the class path has one). */
    private static Config pekko() {
        return ConfigFactory.load(ClusterNode.class.getClassLoader());
    }

    /** The settings Orrery derives from {@code s}, over which {@code s.extraConfig()} is laid. */
    private static Config orrery(NodeSettings s) {
        NodeSettings.Failover f = s.failover();
        String hocon = String.join("\n",
                "pekko.loglevel = WARNING",
                "pekko.stdout-loglevel = WARNING",
                "pekko.log-dead-letters = off",
                "pekko.log-dead-letters-during-shutdown = off",
                "pekko.actor.provider = cluster",
                "pekko.actor.serializers.orrery-world = \"" + ProtocolSerializer.class.getName() + "\"",
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
                "pekko.cluster.downing-provider-class = \"" + SBR_PROVIDER + "\"",
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
        return ConfigFactory.parseString(hocon, ConfigParseOptions.defaults().setOriginDescription(ORRERY));
    }

    /**
     * Builds the world dispatcher of a node's started actor system now, rather than when the
     * first world starts (where a failure is retried, and logged, for every world for ever).
     *
     * @throws IllegalArgumentException naming the dispatcher, the key if one is at fault, and the fix
     */
    static void checkWorldDispatcher(ActorSystem<?> system, NodeSettings s) {
        try {
            system.dispatchers().lookup(DispatcherSelector.fromConfig(ClusterNode.WORLD_DISPATCHER));
        } catch (RuntimeException e) {
            Config extra = extra(s);
            ConfigException cause = configCause(e);
            String key = cause == null ? null : extraKey(cause, extra);
            if (key == null) {
                for (Map.Entry<String, ConfigValue> v : extra.entrySet()) {
                    if (v.getKey().startsWith(ClusterNode.WORLD_DISPATCHER + ".")) {
                        key = v.getKey();
                        break;
                    }
                }
            }
            throw new IllegalArgumentException("worlds cannot run on this node: their dispatcher "
                    + ClusterNode.WORLD_DISPATCHER + " cannot be built (" + e.getMessage().replaceAll("\\s+", " ")
                    + ")" + (key == null ? "; check its keys in " + EXTRA : "; " + fix(key, extra, s)), e);
        }
    }

    /**
     * {@code failure} explained as the node's configuration when a {@link ConfigException}
     * caused it (naming the key of {@code extraConfig} at fault, and the fix), else itself.
     */
    static RuntimeException explained(RuntimeException failure, NodeSettings s) {
        ConfigException cause = configCause(failure);
        return cause == null ? failure : explained(cause, s);
    }

    /** {@code s.extraConfig()} parsed, its values' origin named {@value #EXTRA} in Typesafe's messages. */
    private static Config extra(NodeSettings s) {
        return ConfigFactory.parseString(s.extraConfig(), ConfigParseOptions.defaults().setOriginDescription(EXTRA));
    }

    private static IllegalArgumentException explained(ConfigException e, NodeSettings s) {
        Config extra = extra(s);
        String key = extraKey(e, extra);
        return new IllegalArgumentException(key != null
                ? "the node cannot read its configuration (" + e.getMessage() + "): " + fix(key, extra, s)
                : "the node's configuration (" + EXTRA + " over Orrery's settings and Pekko's defaults) cannot be read: "
                + e.getMessage() + "; fix " + EXTRA + " (NodeSettings.withConfig), or remove what it sets there", e);
    }

    /**
     * "NodeSettings.extraConfig sets KEY = VALUE (line N): give it a value like Orrery's D, or
     * remove the key" ({@code key} set in {@code extra}), naming whichever default it overrides.
     */
    private static String fix(String key, Config extra, NodeSettings s) {
        ConfigValue value = extra.getValue(key);
        Config orrery = orrery(s);
        String like;
        if (orrery.hasPath(key)) {
            like = "Orrery's " + orrery.getValue(key).unwrapped();
        } else {
            Config pekko = pekko();
            like = pekko.hasPath(key) ? "Pekko's default " + pekko.getValue(key).unwrapped() : "Pekko's documentation";
        }
        return EXTRA + " sets " + key + " = " + value.unwrapped() + " (line " + value.origin().lineNumber()
                + "): give it a value like " + like + ", or remove the key";
    }

    /** The first {@link ConfigException} in {@code t}'s causes, itself included, or null. */
    private static ConfigException configCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof ConfigException ce) {
                return ce;
            }
        }
        return null;
    }

    /**
     * The key of the value of {@code extra} that {@code e} is about (found by its origin's
     * line), or null when {@code e} is not about one.
     */
    private static String extraKey(ConfigException e, Config extra) {
        ConfigOrigin origin = e.origin();
        if (origin == null || !origin.description().startsWith(EXTRA)) {
            return null;
        }
        String found = null;
        for (Map.Entry<String, ConfigValue> v : extra.entrySet()) {
            if (v.getValue().origin().lineNumber() == origin.lineNumber()) {
                String last = v.getKey().substring(v.getKey().lastIndexOf('.') + 1);
                if (found == null || e.getMessage().contains(last)) {
                    found = v.getKey();
                }
            }
        }
        return found;
    }

    private static String ms(Duration d) {
        return d.toMillis() + "ms";
    }
}
