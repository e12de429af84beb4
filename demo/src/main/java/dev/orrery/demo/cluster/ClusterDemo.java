package dev.orrery.demo.cluster;

import dev.orrery.cluster.ClusterNode;
import dev.orrery.cluster.NodeSettings;
import dev.orrery.cluster.WorldClient;
import dev.orrery.cluster.protocol.WorldStatus;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.ReplayedTickFailure;
import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.cluster.world.WorldVerifier;
import dev.orrery.demo.arena.Arena;
import dev.orrery.demo.arena.ArenaConfig;
import dev.orrery.demo.arena.InputCodec;
import dev.orrery.demo.net.ClientCommand;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs the demo as one node of a cluster: arena worlds named {@code arena-0} to
 * {@code arena-<N-1>} are sharded over the nodes, and once {@code --cluster-min-members}
 * nodes are up each node sends every world one {@code MOVE} a second through a
 * {@link WorldClient} (routed to wherever the world runs, each input sent again with its
 * sequence until it is accepted or refused, so it applies exactly once). A line a second
 * says which worlds run here at which tick and how the node's inputs were answered; the
 * node's log lines (members unreachable, downed, removed; worlds restored here with the
 * ticks they replayed, or handed off) are printed as they happen. Ctrl-C leaves the cluster
 * gracefully (the node's worlds are handed off with a snapshot); killing the process makes
 * the others restore its worlds from their last snapshot and journal.
 *
 * <p>{@link #verify} checks every world in a store against its journal
 * ({@code --cluster-verify}). The arena's options ({@code --agents}, {@code --teams},
 * {@code --seed}, {@code --rate}) are written to {@value #BLUEPRINT_FILE} in the store by
 * the first node; later nodes must match them, and a verification reads them.
 *
 * <p><b>Threading:</b> {@link #run} blocks the calling thread until the node stops; node
 * log lines are printed from Pekko's threads ({@link PrintStream} is synchronized);
 * {@link #stop} may be called from any thread.
 */
public final class ClusterDemo {
    /** The file in the store that records the arena's options, so every node and a verification build the same worlds. */
    public static final String BLUEPRINT_FILE = "orrery-demo-arena.properties";

    /**
     * The node's options ({@code --cluster-*} and the arena's {@code --agents}, {@code --teams},
     * {@code --seed}, {@code --rate}).
     *
     * @param port Artery TCP port (0: a free one)
     * @param seeds {@code host:port} of nodes to join (empty: start a cluster)
     * @param store the shared store directory
     * @param worlds how many worlds the cluster runs
     * @param minMembers nodes that must be up before this node sends its first input (so the first worlds spread)
     * @param seconds how long this node runs before leaving (0: until stopped)
     * @param agents starting agents per world
     * @param teams teams per world
     * @param seed the seed every world's seed derives from
     * @param rate ticks per second of every world
     * @param quiet no progress lines
     */
    public record Options(int port, List<String> seeds, Path store, int worlds, int minMembers, double seconds,
            int agents, int teams, long seed, double rate, boolean quiet) {
        /** Checks the values; each message names the option. */
        public Options {
            seeds = List.copyOf(seeds);
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("--cluster-port must be 0 (a free one) to 65535; got " + port);
            }
            for (String node : seeds) {
                int colon = node.lastIndexOf(':');
                String p = colon < 0 ? "" : node.substring(colon + 1);
                if (colon <= 0 || !p.matches("\\d{1,5}") || Integer.parseInt(p) < 1 || Integer.parseInt(p) > 65_535) {
                    throw new IllegalArgumentException("--cluster-seeds: '" + node + "' is not HOST:PORT with a port of 1 "
                            + "to 65535 (for example 127.0.0.1:25520)");
                }
            }
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

    /** The line of a node stopped (Ctrl-C or kill) before it started. */
    static final String STOPPED_WHILE_STARTING = "cluster: stopped (Ctrl-C or kill) while the node was starting: it "
            + "joined no cluster and opened no world; the store is as it was";

    private final Options options;
    private final PrintStream out;
    private volatile boolean stopped;

    /** A node run with {@code options}, printing to {@code out}. */
    public ClusterDemo(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /** The arena blueprint: each world's seed is the run's seed mixed with its id. */
    static WorldBlueprint blueprint(int agents, int teams, long seed, double rate) {
        return (worldId, populate) -> {
            Arena arena = new Arena(new ArenaConfig(agents, teams, seed * 31 + worldId.hashCode()));
            if (populate) {
                arena.populate();
            }
            Simulation sim = arena.build(1, (int) Math.max(1, Math.round(rate)));
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
     * Stopped before the node started (a signal while its actor system starts, when Pekko
     * refuses to start in a JVM shutting down), it starts nothing and prints one line saying so.
     *
     * @return the last progress line (or that one line)
     * @throws IOException if the store directory cannot be created, or holds worlds built
     *     with other arena options
     * @throws InterruptedException if interrupted
     */
    public String run() throws IOException, InterruptedException {
        Properties arena = arenaProperties(options.agents(), options.teams(), options.seed(), options.rate());
        if (Files.exists(options.store()) && !Files.isDirectory(options.store())) {
            throw new IOException("--cluster-store " + options.store() + " is a file, not a directory; give a directory "
                    + "every node shares (it is made if missing)");
        }
        check(options.store(), arena); // before the node starts: a store of other worlds is refused up front
        NodeSettings settings = NodeSettings.local(options.port(), options.seeds())
                .withTicks(options.rate(), (int) Math.max(1, Math.round(options.rate() * 10)));
        if (stopped) {
            return stoppedWhileStarting();
        }
        ClusterNode node;
        try {
            node = ClusterNode.start(settings, new DirectoryWorldStore(options.store()),
                    blueprint(options.agents(), options.teams(), options.seed(), options.rate()), line -> {
                        out.println("cluster: " + line);
                        out.flush();
                    });
        } catch (RuntimeException e) {
            if (stopped || jvmShuttingDown()) {
                // a signal during the start: Pekko refuses to start in a JVM that is shutting down
                return stoppedWhileStarting();
            }
            if (bindFailure(e)) {
                throw new IOException("cluster port 127.0.0.1:" + options.port() + " is in use (another node?); choose "
                        + "another --cluster-port (0 picks a free one)", e);
            }
            throw e;
        }
        try {
            recordOrCheck(options.store(), arena); // only once the node runs: a node that failed leaves no options
        } catch (IOException | RuntimeException e) {
            node.close();
            throw e;
        }
        out.println("cluster: node " + node.hostPort() + " started; seeds " + (options.seeds().isEmpty()
                ? "none (new cluster)" : String.join(",", options.seeds())) + "; store " + options.store() + "; "
                + options.worlds() + " worlds of " + options.agents() + " agents at " + options.rate() + " Hz");
        if (!options.quiet()) {
            out.println("cluster: a line a second: members = nodes up; worlds_here = worlds on this node, each @tick "
                    + "(replayed N: journaled ticks it replayed when it arrived); moving = worlds that did not answer "
                    + "within 1 s (not started yet, or being restored on another node); inputs this node sent: "
                    + "accepted (applied in a durable tick), refused (will never apply), unknown (not answered yet: "
                    + "sent again with the same sequence until they are)");
        }
        out.flush();
        WorldClient client = new WorldClient(node::submit, Duration.ofSeconds(3), Duration.ofMinutes(2), 64);
        byte[] payload = new byte[InputCodec.MAX_PAYLOAD];
        long deadline = options.seconds() > 0 ? System.nanoTime() + (long) (options.seconds() * 1e9) : Long.MAX_VALUE;
        String line = "";
        int upSeen = 0; // members up at the last look: a signal's leave may already have emptied the node's view
        try {
            long started = System.nanoTime();
            long waitingSince = started;
            while (!stopped && System.nanoTime() < deadline && (upSeen = node.membersUp()) < options.minMembers()) {
                long waited = (System.nanoTime() - started) / 1_000_000_000L;
                boolean joining = upSeen == 0 && !options.seeds().isEmpty();
                // a join takes a second or two: a seed is called silent only after five
                if (!options.quiet() && System.nanoTime() - waitingSince > 1e9 && !(joining && waited < 5)) {
                    out.println(joining
                            ? "cluster: node " + node.hostPort() + " not joined after " + waited + " s: no answer from "
                                    + "seed " + String.join(", ", options.seeds()) + "; start that node first, or fix "
                                    + "--cluster-seeds"
                            : "cluster: node " + node.hostPort() + " waiting for " + options.minMembers()
                                    + " members before sending inputs (--cluster-min-members); " + upSeen + " up");
                    out.flush();
                    waitingSince = System.nanoTime();
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            for (long round = 0; !stopped && System.nanoTime() < deadline; round++) {
                List<CompletableFuture<WorldStatus>> statuses = new ArrayList<>();
                for (int w = 0; w < options.worlds(); w++) {
                    String id = "arena-" + w;
                    ClientCommand move = new ClientCommand.MoveSquad(node.port(), round, (int) (round % 4), w, round % 50);
                    int length = InputCodec.encode(move, payload);
                    client.send(id, node.port(), InputCodec.typeOf(move), Arrays.copyOf(payload, length));
                    statuses.add(node.status(id, Duration.ofSeconds(1)).toCompletableFuture());
                }
                line = progress(node, statuses, client);
                upSeen = node.membersUp();
                if (!options.quiet()) {
                    out.println(line);
                    out.flush();
                }
                TimeUnit.MILLISECONDS.sleep(1000);
            }
        } finally {
            boolean last = (stopped ? Math.max(upSeen, node.membersUp()) : node.membersUp()) <= 1;
            out.println("cluster: node " + node.hostPort() + " leaving; " + (last
                    ? "it is the last node: its worlds stop with a snapshot and resume when a node starts again with "
                    + "this store" : "its worlds move to the other nodes with a snapshot"));
            out.flush();
            client.close();
            node.close();
        }
        return line;
    }

    /**
     * The node's one line when a signal stopped it before it started: the actor system did not
     * start (or refused to, the JVM shutting down), so nothing joined and no world opened.
     */
    private String stoppedWhileStarting() {
        out.println(STOPPED_WHILE_STARTING);
        out.flush();
        return STOPPED_WHILE_STARTING;
    }

    /** Whether this JVM's shutdown has begun (a signal), when hooks can no longer be added. */
    private static boolean jvmShuttingDown() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException shuttingDown) {
            return true;
        }
    }

    private static String progress(ClusterNode node, List<CompletableFuture<WorldStatus>> statuses,
            WorldClient client) throws InterruptedException {
        StringBuilder here = new StringBuilder();
        int local = 0;
        int moving = 0;
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
            } catch (ExecutionException | TimeoutException e) {
                moving++;
            }
        }
        return "cluster: node " + node.hostPort() + " members=" + node.membersUp() + " worlds_here=" + local
                + " moving=" + moving + " inputs accepted=" + client.accepted() + " refused=" + client.refused()
                + " unknown=" + (client.unanswered() + client.unknown()) + (local > 0 ? " |" + here : "");
    }

    static Properties arenaProperties(int agents, int teams, long seed, double rate) {
        Properties p = new Properties();
        p.setProperty("agents", Integer.toString(agents));
        p.setProperty("teams", Integer.toString(teams));
        p.setProperty("seed", Long.toString(seed));
        p.setProperty("rate", Double.toString(rate));
        return p;
    }

    /** Records the arena's options in a new store, or checks them against those recorded. */
    /** Refuses a store whose recorded arena options differ from {@code mine}; writes nothing. */
    private static void check(Path store, Properties mine) throws IOException {
        Path file = store.resolve(BLUEPRINT_FILE);
        if (Files.isRegularFile(file)) {
            refuseIfOther(store, read(file), mine);
        }
    }

    /** True when {@code e} (or a cause) is a failure to bind the node's port. */
    private static boolean bindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.BindException || String.valueOf(t.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    private static void recordOrCheck(Path store, Properties mine) throws IOException {
        Path file = Files.createDirectories(store).resolve(BLUEPRINT_FILE);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE_NEW)) {
            mine.store(w, "The arena options of the worlds in this store (written by the first orrery-demo --cluster node)");
            return;
        } catch (FileAlreadyExistsException exists) {
            // a node started with this store before: ours must match
        }
        refuseIfOther(store, read(file), mine);
    }

    private static void refuseIfOther(Path store, Properties recorded, Properties mine) throws IOException {
        if (!recorded.equals(mine)) {
            throw new IOException("store " + store + " holds worlds built with " + describe(recorded) + ", not "
                    + describe(mine) + "; every node must build the same worlds: pass the same options, or use "
                    + "another --cluster-store");
        }
    }

    private static Properties read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }

    private static String describe(Properties p) {
        return "--agents " + p.getProperty("agents") + " --teams " + p.getProperty("teams") + " --seed "
                + p.getProperty("seed") + " --rate " + p.getProperty("rate");
    }

    /**
     * {@code --cluster-verify}: checks every world in {@code store} against its journal with
     * {@link WorldVerifier}, building worlds with the arena options recorded in the store
     * (or {@code fallback}'s, for a store without them), and prints a line per world and a
     * summary. Read-only: it may run beside the nodes (a world whose files change under it is
     * reported, run it again).
     *
     * @return 0 if every world verified, 1 otherwise
     * @throws IOException if the store cannot be read or holds no world
     */
    public static int verify(Path store, int agents, int teams, long seed, double rate, PrintStream out)
            throws IOException {
        if (!Files.isDirectory(store)) {
            throw new IOException("--cluster-store " + store + " is not a directory; give the store the nodes ran with");
        }
        Path file = store.resolve(BLUEPRINT_FILE);
        Properties arena = Files.exists(file) ? read(file) : arenaProperties(agents, teams, seed, rate);
        out.println("verify: store " + store + ", worlds built with " + describe(arena)
                + (Files.exists(file) ? " (recorded in " + BLUEPRINT_FILE + ")" : " (from the options given)"));
        WorldBlueprint blueprint;
        try {
            blueprint = blueprint(Integer.parseInt(arena.getProperty("agents")),
                    Integer.parseInt(arena.getProperty("teams")), Long.parseLong(arena.getProperty("seed")),
                    Double.parseDouble(arena.getProperty("rate")));
        } catch (RuntimeException e) {
            throw new IOException(file + " is damaged (" + e.getMessage() + "); delete it and pass the arena options "
                    + "the nodes ran with");
        }
        DirectoryWorldStore worlds = new DirectoryWorldStore(store);
        List<String> ids = worlds.worldIds();
        if (ids.isEmpty()) {
            throw new IOException("--cluster-store " + store + " holds no world; give the store the nodes ran with");
        }
        int failed = verifyWorlds(worlds, ids, blueprint, out);
        out.println("verify: " + (ids.size() - failed) + " of " + ids.size() + " worlds match their journals");
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    /**
     * Verifies each of {@code ids} in {@code worlds} with {@code blueprint}, printing a line per
     * world; returns how many failed. A journaled tick failing again in the replay (the tick
     * that failed under {@code STOP}, or a blueprint not the world's) is explained as the node
     * explains it ({@link ReplayedTickFailure#explain}): running the verification again would
     * not help there; any other failure may be the nodes moving the world meanwhile.
     */
    static int verifyWorlds(WorldStore worlds, List<String> ids, WorldBlueprint blueprint, PrintStream out) {
        int failed = 0;
        for (String id : ids) {
            try {
                WorldVerifier.Report r = WorldVerifier.verify(worlds, id, blueprint);
                out.println("verify: " + r.describe());
                failed += r.ok() ? 0 : 1;
            } catch (IOException | RuntimeException e) {
                out.println("verify: FAILED " + id + ": " + ReplayedTickFailure.explain(e).orElseGet(() ->
                        e.getMessage() + " (if the nodes are running and moved or cleaned up the world meanwhile, "
                        + "run the verification again)"));
                failed++;
            }
            out.flush();
        }
        return failed;
    }
}
