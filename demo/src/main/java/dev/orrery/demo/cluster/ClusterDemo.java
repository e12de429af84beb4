package dev.orrery.demo.cluster;

import dev.orrery.cluster.ClusterNode;
import dev.orrery.cluster.NodeSettings;
import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.demo.arena.Arena;
import dev.orrery.demo.arena.ArenaConfig;
import dev.orrery.demo.arena.InputCodec;
import dev.orrery.demo.net.ClientCommand;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the demo as one node of a cluster: arena worlds named {@code arena-0} to
 * {@code arena-<N-1>} are sharded over the nodes, each node sends every world one
 * {@code MOVE} a second (routed to wherever the world runs, answered once journaled), and a
 * line a second says which worlds run here, at which tick. Ctrl-C leaves the cluster
 * gracefully (the node's worlds are handed off with a snapshot); killing the process makes
 * the others restore its worlds from their last snapshot and journal.
 *
 * <p><b>Threading:</b> {@link #run} blocks the calling thread until the node stops; {@link #stop}
 * may be called from any thread.
 */
public final class ClusterDemo {
    /**
     * The node's options ({@code --cluster-*} and the arena's {@code --agents}, {@code --teams},
     * {@code --seed}, {@code --rate}).
     *
     * @param port Artery TCP port (0: a free one)
     * @param seeds {@code host:port} of nodes to join (empty: start a cluster)
     * @param store the shared store directory
     * @param worlds how many worlds the cluster runs
     * @param minMembers nodes that must be up before worlds are placed
     * @param seconds how long this node runs before leaving (0: until stopped)
     * @param agents starting agents per world
     * @param teams teams per world
     * @param seed the seed every world's seed derives from
     * @param rate ticks per second of every world
     * @param quiet no progress lines
     */
    public record Options(int port, List<String> seeds, Path store, int worlds, int minMembers, double seconds, int agents, int teams,
            long seed, double rate, boolean quiet) {
        /** Checks the values; each message names the option. */
        public Options {
            seeds = List.copyOf(seeds);
            if (store == null) {
                throw new IllegalArgumentException("--cluster needs --cluster-store DIR, a directory every node shares");
            }
            if (worlds < 1 || worlds > 10_000) {
                throw new IllegalArgumentException("--cluster-worlds must be 1 to 10000; got " + worlds);
            }
            if (minMembers < 1 || minMembers > 1000) {
                throw new IllegalArgumentException("--cluster-min-members must be 1 to 1000; got " + minMembers);
            }
            if (!(seconds >= 0)) {
                throw new IllegalArgumentException("--cluster-seconds must be 0 (until stopped) or more; got " + seconds);
            }
            if (!(rate > 0)) {
                throw new IllegalArgumentException("--cluster worlds tick at a fixed --rate; give one above 0, got " + rate);
            }
        }
    }

    private final Options options;
    private final PrintStream out;
    private volatile boolean stopped;

    /** A node run with {@code options}, printing to {@code out}. */
    public ClusterDemo(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /** The arena blueprint: each world's seed is the run's seed mixed with its id. */
    static WorldBlueprint blueprint(Options o) {
        return (worldId, populate) -> {
            Arena arena = new Arena(new ArenaConfig(o.agents(), o.teams(), o.seed() * 31 + worldId.hashCode()));
            if (populate) {
                arena.populate();
            }
            Simulation sim = arena.build(1, (int) Math.max(1, Math.round(o.rate())));
            sim.onSystemFailure(FailurePolicy.SKIP_TICK);
            return sim;
        };
    }

    /** Asks {@link #run} to leave the cluster and return. Any thread. */
    public void stop() {
        stopped = true;
    }

    /**
     * Starts the node, runs until {@link #stop()} or {@code seconds}, then leaves gracefully.
     *
     * @return the last progress line
     * @throws IOException if the store directory cannot be created
     * @throws InterruptedException if interrupted
     */
    public String run() throws IOException, InterruptedException {
        NodeSettings settings = NodeSettings.local(options.port(), options.seeds())
                .withTicks(options.rate(), (int) Math.max(1, Math.round(options.rate() * 10)))
                .withConfig("pekko.cluster.min-nr-of-members = " + options.minMembers());
        ClusterNode node = ClusterNode.start(settings, new DirectoryWorldStore(options.store()), blueprint(options));
        out.println("cluster: node " + node.hostPort() + " up; seeds " + (options.seeds().isEmpty() ? "none (new cluster)"
                : String.join(",", options.seeds())) + "; store " + options.store() + "; " + options.worlds()
                + " worlds of " + options.agents() + " agents at " + options.rate() + " Hz");
        out.flush();
        AtomicLong acked = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        byte[] payload = new byte[InputCodec.MAX_PAYLOAD];
        long deadline = options.seconds() > 0 ? System.nanoTime() + (long) (options.seconds() * 1e9) : Long.MAX_VALUE;
        String line = "";
        try {
            for (long round = 0; !stopped && System.nanoTime() < deadline; round++) {
                List<CompletableFuture<WorldStatus>> statuses = new ArrayList<>();
                for (int w = 0; w < options.worlds(); w++) {
                    String id = "arena-" + w;
                    ClientCommand move = new ClientCommand.MoveSquad(node.port(), round, (int) (round % 4), w, round % 50);
                    int length = InputCodec.encode(move, payload);
                    node.submit(id, node.port(), InputCodec.typeOf(move), Arrays.copyOf(payload, length),
                            Duration.ofSeconds(3)).whenComplete((InputReply r, Throwable e) ->
                            (e == null && r.accepted() ? acked : refused).incrementAndGet());
                    statuses.add(node.status(id, Duration.ofSeconds(1)).toCompletableFuture());
                }
                line = progress(node, statuses, acked.get(), refused.get());
                if (!options.quiet()) {
                    out.println(line);
                    out.flush();
                }
                TimeUnit.MILLISECONDS.sleep(1000);
            }
        } finally {
            out.println("cluster: node " + node.hostPort() + " leaving; its worlds move to the other nodes");
            out.flush();
            node.close();
        }
        return line;
    }

    private static String progress(ClusterNode node, List<CompletableFuture<WorldStatus>> statuses, long acked,
            long refused) throws InterruptedException {
        StringBuilder here = new StringBuilder();
        int local = 0;
        int unknown = 0;
        for (CompletableFuture<WorldStatus> f : statuses) {
            try {
                WorldStatus s = f.get(2, TimeUnit.SECONDS);
                if (s.node().equals(node.address())) {
                    local++;
                    here.append(' ').append(s.worldId()).append("@").append(s.tick());
                    if (s.ticksReplayed() > 0) {
                        here.append("(replayed ").append(s.ticksReplayed()).append(')');
                    }
                }
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                unknown++;
            }
        }
        return "cluster: node " + node.hostPort() + " members=" + node.membersUp() + " worlds_here=" + local
                + (unknown > 0 ? " moving=" + unknown : "") + " inputs_acked=" + acked + " refused=" + refused
                + (local > 0 ? " |" + here : "");
    }
}
