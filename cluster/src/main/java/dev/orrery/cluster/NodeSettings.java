package dev.orrery.cluster;

import dev.orrery.cluster.world.WorldSettings;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link ClusterNode} binds, joins, detects failed nodes and runs worlds.
 *
 * @param host the address to bind and advertise (127.0.0.1 for nodes on one machine)
 * @param port the Artery TCP port (0: a free one, see {@link ClusterNode#port()})
 * @param seeds {@code host:port} of nodes to join (port 1 to 65535); empty: this node starts a new cluster
 * @param tickHz ticks per second of every world
 * @param shards the number of shards worlds are hashed into (keep it about ten times the
 *     largest node count; every node of a cluster must use the same number)
 * @param failover how fast a node that stops answering is declared dead and its worlds move
 * @param world how worlds snapshot, keep storage bounded and de-duplicate inputs
 * @param extraConfig HOCON laid over the node's configuration (empty for none; refused here if it does not
 *     parse). A value that parses but cannot be read ({@code parallelism-min = lots}, a word for a
 *     duration) is refused by {@link ClusterNode#start} with an {@code IllegalArgumentException}
 *     naming the key, its line and the default it overrides: every key Orrery sets, Pekko's
 *     cluster and sharding settings, the actor system's own and the world dispatcher's are read
 *     as the node starts. A key of a Pekko feature that is read only when the feature is first
 *     used (one Orrery does not use, or a serializer's, a persistence plugin's) is not checked
 *     then, and a value of the right kind but out of a key's range only where Pekko checks it.
 */
public record NodeSettings(String host, int port, List<String> seeds, double tickHz, int shards, Failover failover,
        WorldSettings world, String extraConfig) {
    /**
     * How a crashed node's worlds move to the survivors, in the order the time adds up: its
     * heartbeats stop and the failure detector (a deadline) marks it unreachable once no
     * heartbeat came for {@code acceptablePause} plus one {@code heartbeatInterval}; the
     * split-brain resolver (keep-majority) downs it once the cluster's view has been stable
     * for {@code stableAfter}; Cluster Sharding then waits {@code removalMargin} before it
     * starts the node's shards (and, if it was the oldest, the shard coordinator) elsewhere,
     * and each world reopens from its snapshot and journal. On loopback with
     * {@link #fast()} that is 4 to 7 s from the crash to ticking again (measured in
     * {@code ThreeNodeClusterTest}; see docs/many-worlds-and-the-cluster.md).
     *
     * <p>The margin may be short because the store fences: a node that was downed but still
     * runs cannot acknowledge anything once the world's new holder has claimed it. Raise
     * {@code acceptablePause} where pauses are longer (GC on large heaps, busy virtual
     * machines, cross-zone networks): a pause longer than it gets a healthy node downed.
     *
     * @param heartbeatInterval how often nodes heartbeat each other
     * @param acceptablePause how long heartbeats may be missing before a node is unreachable
     * @param stableAfter how long membership must be stable before the resolver downs
     *     unreachable nodes
     * @param removalMargin how long sharding waits after a node is removed before it starts
     *     that node's shards elsewhere
     */
    public record Failover(Duration heartbeatInterval, Duration acceptablePause, Duration stableAfter,
            Duration removalMargin) {
        /**
         * Checks the fields.
         *
         * @param heartbeatInterval how often nodes heartbeat each other, positive
         * @param acceptablePause how long heartbeats may be missing, positive, at least two
         *     heartbeat intervals
         * @param stableAfter the stable time before the resolver downs, positive
         * @param removalMargin the wait after removal before shards start elsewhere, positive
         * @throws IllegalArgumentException naming the value when one is not positive, or the pause
         *     is shorter than two heartbeat intervals
         * @throws NullPointerException naming the field when one is null
         */
        public Failover {
            positive(heartbeatInterval, "heartbeatInterval");
            positive(acceptablePause, "acceptablePause");
            positive(stableAfter, "stableAfter");
            positive(removalMargin, "removalMargin");
            if (acceptablePause.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
                throw new IllegalArgumentException("failover acceptablePause (" + acceptablePause.toMillis()
                        + " ms) must be at least two heartbeat intervals (" + heartbeatInterval.toMillis() + " ms each)");
            }
        }

        private static void positive(Duration d, String name) {
            Objects.requireNonNull(d, name);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("failover " + name + " must be positive, got " + d);
            }
        }

        /**
         * Loopback and a quiet LAN: heartbeats every 500 ms, unreachable 2.5 s after the last
         * one, downed after 1.5 s stable, shards started elsewhere 250 ms after removal.
         *
         * @return 500 ms heartbeats, a 2 s acceptable pause, 1.5 s stable, a 250 ms removal margin
         */
        public static Failover fast() {
            return new Failover(Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofMillis(1500),
                    Duration.ofMillis(250));
        }

        /**
         * These settings with nodes downed after {@code stable} of stable membership.
         *
         * @param stable the stable time before the resolver downs, positive
         * @return new settings; these are unchanged
         */
        public Failover withStableAfter(Duration stable) {
            return new Failover(heartbeatInterval, acceptablePause, stable, removalMargin);
        }

        /**
         * These settings with heartbeats every {@code interval} and unreachable after {@code pause}.
         *
         * @param interval how often nodes heartbeat each other, positive
         * @param pause how long heartbeats may be missing, at least two {@code interval}s
         * @return new settings; these are unchanged
         */
        public Failover withDetection(Duration interval, Duration pause) {
            return new Failover(interval, pause, stableAfter, removalMargin);
        }
    }

    /**
     * Checks the fields.
     *
     * @param host the address to bind and advertise, not null or blank
     * @param port the TCP port, 0 to 65535 (0: a free one)
     * @param seeds {@code host:port} of nodes to join, each port 1 to 65535; not null; copied
     * @param tickHz ticks per second of every world, above 0 and at most 1000
     * @param shards the shard count, 1 or more, the same on every node
     * @param failover failure detection and downing, not null
     * @param world how worlds run, not null
     * @param extraConfig HOCON that parses, or {@code null} (kept as {@code ""}) for none
     * @throws IllegalArgumentException naming the value and the fix when one is out of range, a
     *     seed is not {@code host:port}, or {@code extraConfig} does not parse
     * @throws NullPointerException if {@code host}, {@code seeds}, {@code failover} or
     *     {@code world} is null
     */
    public NodeSettings {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("cluster host is empty; give the address to bind and advertise "
                    + "(127.0.0.1 for nodes on one machine)");
        }
        Objects.requireNonNull(failover, "failover");
        Objects.requireNonNull(world, "world");
        seeds = List.copyOf(seeds);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("cluster port " + port + " is not a TCP port; use 0 to 65535 (0: any free one)");
        }
        if (!(tickHz > 0 && tickHz <= 1000)) {
            throw new IllegalArgumentException("cluster tick rate " + tickHz + " Hz is out of range; use more than 0, up to 1000");
        }
        if (shards < 1) {
            throw new IllegalArgumentException("shards (" + shards + ") must be at least 1");
        }
        for (String seed : seeds) {
            int colon = seed.lastIndexOf(':');
            if (colon <= 0 || !seed.substring(colon + 1).matches("\\d{1,5}")) {
                throw new IllegalArgumentException("seed node '" + seed + "' is not host:port (for example 127.0.0.1:25520)");
            }
            int seedPort = Integer.parseInt(seed.substring(colon + 1));
            if (seedPort < 1 || seedPort > 65535) {
                throw new IllegalArgumentException("seed node '" + seed + "' has port " + seedPort + ", which no node "
                        + "listens on; give a seed's cluster port, 1 to 65535 (for example 127.0.0.1:25520)");
            }
        }
        extraConfig = extraConfig == null ? "" : extraConfig;
        try {
            com.typesafe.config.ConfigFactory.parseString(extraConfig);
        } catch (com.typesafe.config.ConfigException e) {
            throw new IllegalArgumentException("the node's extra configuration (NodeSettings.extraConfig, "
                    + "withConfig) is not HOCON: " + e.getMessage() + "; fix it, or give \"\" for none", e);
        }
    }

    /**
     * A node on 127.0.0.1 at {@code port} joining {@code seeds}: 30 Hz worlds, 100 shards,
     * {@link Failover#fast()}, {@link WorldSettings#defaults()} (a snapshot every 300 ticks,
     * the last 2 kept).
     *
     * @param port the TCP port, 0 to 65535 (0: a free one)
     * @param seeds {@code host:port} of nodes to join; empty to start a new cluster
     * @return the settings
     */
    public static NodeSettings local(int port, List<String> seeds) {
        return new NodeSettings("127.0.0.1", port, seeds, 30, 100, Failover.fast(), WorldSettings.defaults(), "");
    }

    /**
     * A world snapshots every this many ticks ({@code world().snapshotEvery()}).
     *
     * @return the snapshot period in ticks
     */
    public int snapshotEvery() {
        return world.snapshotEvery();
    }

    /**
     * These settings with worlds ticking at {@code hz} and snapshotting every {@code every} ticks.
     *
     * @param hz ticks per second, above 0 and at most 1000
     * @param every the snapshot period in ticks, as {@link WorldSettings#withSnapshotEvery} takes
     *     it
     * @return new settings; these are unchanged
     */
    public NodeSettings withTicks(double hz, int every) {
        return new NodeSettings(host, port, seeds, hz, shards, failover, world.withSnapshotEvery(every), extraConfig);
    }

    /**
     * These settings with {@code n} shards and unreachable nodes downed after {@code seconds} of stable membership.
     *
     * @param n the shard count, 1 or more, the same on every node
     * @param seconds the stable time before an unreachable node is downed, positive (cut to whole
     *     milliseconds)
     * @return new settings; these are unchanged
     * @throws IllegalArgumentException when {@code seconds} is not positive or {@code n} is below 1
     */
    public NodeSettings withSharding(int n, double seconds) {
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("nodes must be downed after a positive time, got " + seconds + " s");
        }
        return new NodeSettings(host, port, seeds, tickHz, n, failover.withStableAfter(Duration.ofMillis(
                (long) (seconds * 1000))), world, extraConfig);
    }

    /**
     * These settings with {@code f} for failure detection and downing.
     *
     * @param f the failover settings, not null
     * @return new settings; these are unchanged
     */
    public NodeSettings withFailover(Failover f) {
        return new NodeSettings(host, port, seeds, tickHz, shards, f, world, extraConfig);
    }

    /**
     * These settings with worlds run as {@code w} says.
     *
     * @param w the world settings, not null
     * @return new settings; these are unchanged
     */
    public NodeSettings withWorld(WorldSettings w) {
        return new NodeSettings(host, port, seeds, tickHz, shards, failover, w, extraConfig);
    }

    /**
     * These settings with {@code hocon} laid over the node's configuration.
     *
     * @param hocon HOCON that parses, or {@code null} or {@code ""} for none; replaces the one
     *     given before
     * @return new settings; these are unchanged
     */
    public NodeSettings withConfig(String hocon) {
        return new NodeSettings(host, port, seeds, tickHz, shards, failover, world, hocon);
    }
}
