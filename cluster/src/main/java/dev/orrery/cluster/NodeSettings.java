package dev.orrery.cluster;

import java.util.List;
import java.util.Objects;

/**
 * How a {@link ClusterNode} binds, joins and runs worlds.
 *
 * @param host the address to bind and advertise (127.0.0.1 for nodes on one machine)
 * @param port the Artery TCP port (0: a free one, see {@link ClusterNode#port()})
 * @param seeds {@code host:port} of nodes to join; empty: this node starts a new cluster
 * @param tickHz ticks per second of every world
 * @param snapshotEvery a world snapshots every this many ticks (bounds a crash's replay)
 * @param shards the number of shards worlds are hashed into (keep it about ten times the
 *     largest node count; every node of a cluster must use the same number)
 * @param downAfter seconds a node may stay unreachable before the split-brain resolver
 *     (keep-majority) downs it and its worlds move
 * @param extraConfig HOCON laid over the node's configuration (empty for none)
 */
public record NodeSettings(String host, int port, List<String> seeds, double tickHz, int snapshotEvery, int shards,
        double downAfter, String extraConfig) {
    /** Checks the fields. */
    public NodeSettings {
        Objects.requireNonNull(host, "host");
        seeds = List.copyOf(seeds);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("cluster port " + port + " is not a TCP port; use 0 to 65535 (0: any free one)");
        }
        if (!(tickHz > 0 && tickHz <= 1000)) {
            throw new IllegalArgumentException("cluster tick rate " + tickHz + " Hz is out of range; use more than 0, up to 1000");
        }
        if (snapshotEvery < 0 || shards < 1 || !(downAfter > 0)) {
            throw new IllegalArgumentException("snapshotEvery (" + snapshotEvery + ") must be 0 or more, shards (" + shards
                    + ") at least 1 and downAfter (" + downAfter + " s) positive");
        }
        for (String seed : seeds) {
            int colon = seed.lastIndexOf(':');
            if (colon <= 0 || !seed.substring(colon + 1).matches("\\d{1,5}")) {
                throw new IllegalArgumentException("seed node '" + seed + "' is not host:port (for example 127.0.0.1:25520)");
            }
        }
        extraConfig = extraConfig == null ? "" : extraConfig;
    }

    /**
     * A node on 127.0.0.1 at {@code port} joining {@code seeds}: 30 Hz worlds, a snapshot
     * every 300 ticks, 100 shards, unreachable nodes downed after 10 s.
     */
    public static NodeSettings local(int port, List<String> seeds) {
        return new NodeSettings("127.0.0.1", port, seeds, 30, 300, 100, 10, "");
    }

    /** These settings with worlds ticking at {@code hz} and snapshotting every {@code every} ticks. */
    public NodeSettings withTicks(double hz, int every) {
        return new NodeSettings(host, port, seeds, hz, every, shards, downAfter, extraConfig);
    }

    /** These settings with {@code n} shards and unreachable nodes downed after {@code seconds}. */
    public NodeSettings withSharding(int n, double seconds) {
        return new NodeSettings(host, port, seeds, tickHz, snapshotEvery, n, seconds, extraConfig);
    }

    /** These settings with {@code hocon} laid over the node's configuration. */
    public NodeSettings withConfig(String hocon) {
        return new NodeSettings(host, port, seeds, tickHz, snapshotEvery, shards, downAfter, hocon);
    }
}
