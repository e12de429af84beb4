package dev.orrery.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which options each mode of the command line uses: a cluster node, a store's verification, a
 * replay, a live run with or without its TCP server. An option the chosen mode would ignore is
 * refused, naming why, rather than silently dropped. {@link Main} holds the options (picocli
 * reads them from its fields) and calls these checks with the names of the options given;
 * each throws {@link IllegalArgumentException} with the one-line message, which {@code Main}
 * turns into a bad-option exit.
 *
 * <p><b>Threading:</b> stateless; called on the command line's thread.
 */
final class ModeOptions {
    /** The options a cluster node uses; any other given with --cluster is refused, not ignored. */
    private static final Set<String> CLUSTER = Set.of("--cluster", "--cluster-port", "--cluster-seeds",
            "--cluster-store", "--cluster-worlds", "--cluster-min-members", "--cluster-seconds", "--agents", "--teams",
            "--seed", "--rate", "--quiet", "--verbose");

    /** The options --cluster-verify uses. */
    private static final Set<String> VERIFY = Set.of("--cluster-verify", "--cluster-store", "--agents", "--teams",
            "--seed", "--rate", "--quiet", "--verbose");

    /** Why an option of a single run means nothing to a cluster node, and what to use instead. */
    private static final Map<String, String> NOT_FOR_A_NODE = Map.of(
            "--ticks", "a node runs until Ctrl-C or --cluster-seconds",
            "--port", "a node serves no TCP clients; its cluster port is --cluster-port",
            "--bind", "a node serves no TCP clients; it binds 127.0.0.1 at --cluster-port",
            "--record", "worlds are journaled and snapshotted in --cluster-store; check them with --cluster-verify",
            "--replay", "replay a world of the store with --cluster-verify --cluster-store DIR",
            "--explore", "the explorer shows one simulation, not a node's sharded worlds",
            "--threads", "each world ticks on one thread of the node's world dispatcher");

    /** The options a replay uses; any other given with --replay is refused, not ignored. */
    private static final Set<String> REPLAY = Set.of("--replay", "--threads", "--warmup", "--explore", "--trace",
            "--dot", "--quiet", "--verbose", "--watchdog", "--tick-deadline");

    /** Why an option of a live run means nothing to a replay, and what to do instead. */
    private static final Map<String, String> NOT_FOR_A_REPLAY = Map.ofEntries(
            Map.entry("--agents", "the recording's arena.properties gives the agents, teams and seed"),
            Map.entry("--teams", "the recording's arena.properties gives the agents, teams and seed"),
            Map.entry("--seed", "the recording's arena.properties gives the agents, teams and seed"),
            Map.entry("--ticks", "a replay runs the recording's ticks"),
            Map.entry("--rate", "a replay runs as fast as it can"),
            Map.entry("--record", "replay a recording, then record a new run"),
            Map.entry("--fsync", "it applies to --record"),
            Map.entry("--explore-edits", "a replay takes no inputs"));

    /** The options that configure the TCP server (and {@code --max-entities}, which the explorer's edits use too). */
    private static final Set<String> SERVER = Set.of("--bind", "--max-connections", "--max-connections-per-address",
            "--hello-timeout", "--idle-timeout", "--client-rate", "--client-burst", "--max-spawn", "--spawn-budget",
            "--max-entities");

    private ModeOptions() {
    }

    /**
     * Refuses what the chosen mode would ignore, before any value is used: {@code --cluster}
     * with {@code --cluster-verify}; a {@code --cluster-*} option without either; an option of
     * a single run with either; an option of a live run with {@code --replay}; {@code --fsync}
     * without {@code --record}.
     *
     * @param given the long names of the options on the command line
     */
    static void checkMode(List<String> given, boolean cluster, boolean verify, boolean replay, boolean record) {
        if (cluster && verify) {
            throw new IllegalArgumentException("--cluster runs a node and --cluster-verify checks a store; give one of "
                    + "them");
        }
        if (cluster || verify) {
            refuseOthers(cluster ? "--cluster" : "--cluster-verify", given, cluster ? CLUSTER : VERIFY, cluster
                    ? NOT_FOR_A_NODE : Map.of(), cluster ? "it applies to a single run only"
                    : "--cluster-verify only reads the store and replays its worlds");
            return;
        }
        for (String name : given) {
            if (name.startsWith("--cluster-")) {
                throw new IllegalArgumentException(name + " applies to --cluster (or --cluster-verify) only; add "
                        + "--cluster to run a node, or leave " + name + " out");
            }
        }
        if (replay) {
            refuseOthers("--replay", given, REPLAY, NOT_FOR_A_REPLAY, "a replay takes no client inputs");
        } else if (!record && given.contains("--fsync")) {
            throw new IllegalArgumentException("--fsync applies to --record only; add --record DIR, or leave --fsync "
                    + "out");
        }
    }

    /**
     * Refuses the TCP server's options in a live run without {@code --port} (there is no
     * server then), and {@code --max-entities} when neither clients nor the explorer's edits
     * can spawn. Called after the values are checked, so a bad value is named as such first.
     */
    static void checkServer(List<String> given, boolean served, boolean exploreEdits) {
        if (served) {
            return;
        }
        List<String> refused = new ArrayList<>();
        for (String name : given) {
            if (SERVER.contains(name) && !(name.equals("--max-entities") && exploreEdits)) {
                refused.add(name);
            }
        }
        if (!refused.isEmpty()) {
            boolean cap = refused.contains("--max-entities");
            throw new IllegalArgumentException(String.join(", ", refused) + (refused.size() == 1 ? " applies" : " apply")
                    + " to the TCP server" + (cap ? " (and --max-entities to the explorer's edits)" : "")
                    + ", and without --port there is none; add --port PORT" + (cap ? " (or --explore-edits)" : "")
                    + ", or leave " + (refused.size() == 1 ? "it" : "them") + " out");
        }
    }

    /** Refuses every given option {@code mode} does not use, each with its reason (or {@code otherwise}). */
    private static void refuseOthers(String mode, List<String> given, Set<String> uses, Map<String, String> why,
            String otherwise) {
        List<String> refused = new ArrayList<>();
        for (String name : given) {
            if (!uses.contains(name)) {
                refused.add(name + " (" + why.getOrDefault(name, otherwise) + ")");
            }
        }
        if (!refused.isEmpty()) {
            throw new IllegalArgumentException(mode + " does not use " + String.join("; ", refused) + "; leave "
                    + (refused.size() == 1 ? "it" : "them") + " out");
        }
    }
}
