package dev.orrery.demo;

import dev.orrery.demo.net.ServerConfig;
import dev.orrery.demo.run.DemoRun;
import dev.orrery.demo.run.RunOptions;
import dev.orrery.demo.run.RunResult;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The demo's command line: runs the arena simulation (optionally serving clients, recording,
 * replaying, tracing), or, with the {@code load} subcommand, drives a running server with
 * the bundled load client. {@code --help} explains every option.
 *
 * <p>The last line of a run is always
 * {@code ticks=T entities=E p50_ms=A p99_ms=B max_ms=C hash=0x<16 hex digits>}, with the
 * tick times of the steady state after warm-up; a {@code warmup:} line before it gives the
 * warm-up ticks' figures.
 *
 * <p>An expected error (a bad option, a missing or corrupt file, a port in use) ends the run
 * with one line on stderr, {@code orrery-demo: <what is wrong and what to do>}, and a non-zero
 * status; {@code --verbose} adds the stack trace.
 *
 * <p><b>Exit status:</b> 0 done; 1 failed (the line says why); 2 bad options;
 * {@value #EXIT_RECORDING_CUT} a {@code --replay} of a recording that was not closed (its
 * recording process crashed or was killed): every complete tick was replayed and every
 * recorded hash in it matched, and stderr says {@code orrery-demo: recording ends at tick N
 * without a clean close; replayed N ticks, M recorded hashes matched}.
 *
 * <p><b>Threading:</b> {@link #execute} runs the simulation on the calling thread; a
 * Ctrl-C (shutdown hook) asks it to stop and waits briefly for the summary line.
 *
 * <p>Picocli reads the options from this class's fields, so every option of a run, with its
 * description, is declared here, which is most of its length; the {@code load} subcommand is
 * {@link LoadCommand}, the error line {@link ErrorLine}, which options each mode uses
 * {@link ModeOptions}, and the runs themselves are in {@code dev.orrery.demo.run} and
 * {@code dev.orrery.demo.cluster}.
 */
@Command(name = "orrery-demo", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        subcommands = LoadCommand.class, sortOptions = false,
        description = {"Simulates an arena of agents in teams that steer, shoot and respawn, at a fixed tick rate, "
                + "and prints a progress line a second and a summary line at the end.",
            "Clients connect over TCP when --port is given (protocol: demo/PROTOCOL.md)."})
public final class Main implements Callable<Integer> {
    /**
     * {@code --version}: the project's version, from {@code version.properties}, which the build
     * fills in from the POM; "unknown" where the file is missing or was not filtered.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"orrery-demo " + version()};
        }

        /** The project version this jar was built as (for example 0.1.0-SNAPSHOT), or "unknown". */
        static String version() {
            java.util.Properties p = new java.util.Properties();
            try (java.io.InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (java.io.IOException e) {
                return "unknown";
            }
            String v = p.getProperty("version", "").strip();
            return v.isEmpty() || v.contains("${") ? "unknown" : v;
        }
    }

    /** Exit status of a replay of a recording that was not closed cleanly (all it holds matched). */
    public static final int EXIT_RECORDING_CUT = 3;

    @Option(names = "--agents", paramLabel = "N", description = "Starting agents (default: ${DEFAULT-VALUE}).")
    int agents = 100_000;

    @Option(names = "--teams", paramLabel = "N", description = "Teams, 2 to 8 (default: ${DEFAULT-VALUE}).")
    int teams = 2;

    @Option(names = "--ticks", paramLabel = "N",
            description = "Ticks to run; 0 runs until stopped with Ctrl-C (default: ${DEFAULT-VALUE}).")
    long ticks = 300;

    @Option(names = "--threads", paramLabel = "N",
            description = "Worker threads counting the tick thread; any count gives the same hash "
                    + "(default: the machine's processors, here ${DEFAULT-VALUE}).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--seed", paramLabel = "N", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed = 42;

    @Option(names = "--rate", paramLabel = "HZ",
            description = "Ticks per second; 0 runs as fast as possible (default: ${DEFAULT-VALUE}).")
    double rate = 60;

    @Option(names = "--warmup", paramLabel = "N",
            description = "Leave the first N ticks (JIT warm-up) out of the summary's tick-time figures and print "
                    + "them apart; they still run (default: 120, at most half of --ticks).")
    Long warmup;

    @Option(names = "--verbose", description = "On an error, print the stack trace after the one-line message.")
    boolean verbose;

    @Option(names = "--port", paramLabel = "PORT",
            description = "Serve clients on this TCP port; 0 picks a free one (printed at start). "
                    + "Without --port there is no server.")
    Integer port;

    @Option(names = "--bind", paramLabel = "ADDR",
            description = "Address the server listens on (default: 127.0.0.1, this machine only).")
    String bind = "127.0.0.1";

    @Option(names = "--max-connections", paramLabel = "N",
            description = "Clients served at once; one more is refused FULL (default: ${DEFAULT-VALUE}).")
    int maxConnections = ServerConfig.defaults().maxConnections();

    @Option(names = "--max-connections-per-address", paramLabel = "N",
            description = "Clients served at once from one address (default: ${DEFAULT-VALUE}).")
    int maxConnectionsPerAddress = ServerConfig.defaults().maxConnectionsPerAddress();

    @Option(names = "--hello-timeout", paramLabel = "SECONDS",
            description = "A connection that has not said HELLO this long after connecting is closed "
                    + "(default: ${DEFAULT-VALUE}).")
    double helloTimeout = ServerConfig.defaults().helloTimeout().toMillis() / 1000.0;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS",
            description = "A connection that has sent nothing this long is closed (default: ${DEFAULT-VALUE}).")
    double idleTimeout = ServerConfig.defaults().idleTimeout().toMillis() / 1000.0;

    @Option(names = "--client-rate", paramLabel = "N",
            description = "Each connection's share of the input: commands a second; more are answered BUSY "
                    + "(default: ${DEFAULT-VALUE}).")
    int clientRate = ServerConfig.defaults().clientRate();

    @Option(names = "--client-burst", paramLabel = "N",
            description = "Commands a connection may send at once within its share (default: ${DEFAULT-VALUE}).")
    int clientBurst = ServerConfig.defaults().clientBurst();

    @Option(names = "--max-spawn", paramLabel = "N",
            description = "Largest SPAWN wave a client may ask for (default: ${DEFAULT-VALUE}).")
    int maxSpawn = ServerConfig.defaults().maxSpawnCount();

    @Option(names = "--spawn-budget", paramLabel = "N",
            description = "Agents one connection may spawn in all; more are refused QUOTA (default: ${DEFAULT-VALUE}).")
    long spawnBudget = ServerConfig.defaults().spawnBudget();

    @Option(names = "--max-entities", paramLabel = "N",
            description = "The world's entity cap: a SPAWN that could pass it is refused QUOTA "
                    + "(default: 2 x --agents + 100000).")
    long maxEntities = 0;

    @Option(names = "--record", paramLabel = "DIR",
            description = "Record the run into DIR (start snapshot, input journal, hashes) for --replay.")
    Path record;

    @Option(names = "--replay", paramLabel = "DIR",
            description = "Replay a recording instead of a live run; ends with the recording's hash.")
    Path replay;

    @Option(names = "--fsync", paramLabel = "MODE",
            description = "How often --record forces its journal to disk: tick (a power loss loses at most the tick "
                    + "in progress; one fsync a tick), interval (at most the last second of ticks), none (only on a "
                    + "clean close; the OS decides). A process crash loses at most the tick in progress either way "
                    + "(default: ${DEFAULT-VALUE}).")
    String fsync = "interval";

    @Option(names = "--watchdog", paramLabel = "STEPS",
            description = "Report a tick still running after STEPS time steps, naming the system and job still "
                    + "running; the tick is not stopped. 0 turns it off (default: ${DEFAULT-VALUE}).")
    double watchdog = RunOptions.DEFAULT_WATCHDOG_STEPS;

    @Option(names = "--tick-deadline", paramLabel = "STEPS",
            description = "Fail a tick still waiting for a worker's job after STEPS time steps: the workers in a job "
                    + "are interrupted, one that does not return is abandoned and replaced, and the tick is skipped "
                    + "(its failure printed) as any failed tick. With --threads 1 every job runs on the tick's own "
                    + "thread and cannot be ended. 0 turns it off (default: ${DEFAULT-VALUE}).")
    double tickDeadline = 0;

    @Option(names = "--trace", paramLabel = "FILE",
            description = "Write a Chrome trace (JSON) of 5 ticks to FILE, from tick 60 or the end of --warmup, "
                    + "whichever is later.")
    Path trace;

    @Option(names = "--dot", paramLabel = "FILE", description = "Write the schedule's system graph (DOT) to FILE.")
    Path dot;

    @Option(names = "--explore", paramLabel = "PORT",
            description = "Serve the live explorer (a page and JSON API over the running simulation) on 127.0.0.1:PORT; "
                    + "0 picks a free port (printed at start).")
    Integer explore;

    @Option(names = "--explore-edits",
            description = "Let the explorer's page edit fields; each edit is a client SET (allow-list, field rules, "
                    + "journaled when recording).")
    boolean exploreEdits;

    @Option(names = "--quiet", description = "No progress lines (tick=... once a second); a run still prints its "
            + "other lines (arena:, replay:, server:, warmup: and the summary line), a cluster node only what happens "
            + "to members and worlds.")
    boolean quiet;

    @Option(names = "--cluster",
            description = "Run as a node of an Orrery cluster (Pekko Cluster Sharding) instead of one simulation: "
                    + "worlds arena-0 to arena-N-1 of --agents each at --rate move between nodes; Ctrl-C leaves.")
    boolean cluster;

    @Option(names = "--cluster-port", paramLabel = "PORT",
            description = "The node's cluster port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int clusterPort = 25520;

    @Option(names = "--cluster-seeds", paramLabel = "HOST:PORT", split = ",",
            description = "Nodes to join, comma-separated; none starts a new cluster.")
    java.util.List<String> clusterSeeds = new java.util.ArrayList<>();

    @Option(names = "--cluster-store", paramLabel = "DIR",
            description = "Snapshots and journals of the cluster's worlds: a directory every node shares.")
    Path clusterStore;

    @Option(names = "--cluster-worlds", paramLabel = "N", description = "Worlds in the cluster (default: ${DEFAULT-VALUE}).")
    int clusterWorlds = 6;

    @Option(names = "--cluster-min-members", paramLabel = "N",
            description = "Send no input before N nodes are up, so the first worlds spread over them; a node that "
                    + "dies later does not stop the others (default: ${DEFAULT-VALUE}).")
    int clusterMinMembers = 1;

    @Option(names = "--cluster-seconds", paramLabel = "S",
            description = "Leave the cluster after S seconds; 0 runs until Ctrl-C (default: ${DEFAULT-VALUE}).")
    double clusterSeconds = 0;

    @Option(names = "--cluster-verify",
            description = "Instead of running a node, check every world in --cluster-store against its journal: "
                    + "replay it from its oldest snapshot (or tick 0), compare every journaled hash and every "
                    + "snapshot, count inputs applied twice; exit 0 if every world matches, 1 if not. Read-only: "
                    + "it may run beside the nodes.")
    boolean clusterVerify;

    private PrintStream out = System.out;

    /** Where the command line prints its lines ({@code load} prints its summary there too). */
    PrintStream out() {
        return out;
    }
    private final CountDownLatch finished = new CountDownLatch(1);

    /** Runs the command line and exits with its status. */
    public static void main(String[] args) {
        System.exit(execute(args, System.out, System.err, true));
    }

    /**
     * Runs the command line in this JVM, printing to {@code out} and {@code err}.
     *
     * @param stopOnShutdown register a shutdown hook that stops the run on Ctrl-C (false in tests)
     * @return the exit status: 0 done, 1 failed, 2 bad options, {@value #EXIT_RECORDING_CUT} a replay of a
     *     recording that was not closed
     */
    public static int execute(String[] args, PrintStream out, PrintStream err, boolean stopOnShutdown) {
        Main main = new Main();
        main.out = out;
        main.hook = stopOnShutdown;
        CommandLine cl = new CommandLine(main);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
        cl.setParameterExceptionHandler((e, arguments) -> {
            // the cause may name a value; compared under the option names, so a message the line already holds is not repeated
            String help = e.getCommandLine() == cl ? "--help" : e.getCommandLine().getCommandName() + " --help";
            String range = OptionRanges.conversionError(e); // picocli's own line named no range
            err.println("orrery-demo: " + (range != null ? range : ErrorLine.oneLine(e, ErrorLine::optionNames)) + "; see "
                    + help);
            if (verbose) {
                e.printStackTrace(err);
            }
            err.flush();
            return 2;
        });
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            boolean expected = ErrorLine.expected(e);
            err.println("orrery-demo: " + ErrorLine.oneLine(e) + (expected || verbose ? "" : " (--verbose shows the stack trace)"));
            if (verbose) {
                e.printStackTrace(err);
            }
            err.flush();
            return 1;
        });
        return cl.execute(args);
    }

    private boolean hook;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        try {
            ModeOptions.checkMode(given(), cluster, clusterVerify, replay != null, record != null);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (cluster) {
            return runClusterNode();
        }
        if (clusterVerify) {
            return verifyCluster();
        }
        RunOptions options;
        try {
            options = options();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), ErrorLine.optionNames(ErrorLine.oneLine(e)), e);
        } catch (java.net.UnknownHostException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--bind " + bind + ": no such address ("
                    + ErrorLine.oneLine(e) + "); give an address of this machine, such as 127.0.0.1 or 0.0.0.0", e);
        }
        try {
            ModeOptions.checkServer(given(), replay != null || port != null, exploreEdits);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        DemoRun run = new DemoRun(options, out);
        stopOnShutdown(run::stop, 5, run::recording, "orrery-demo-shutdown");
        try {
            RunResult result = run.run();
            out.println(result.summaryLine());
            out.flush();
            return 0;
        } catch (DemoRun.RecordingCutException cut) {
            out.println(cut.result().summaryLine());
            out.flush();
            spec.commandLine().getErr().println("orrery-demo: " + cut.getMessage());
            spec.commandLine().getErr().flush();
            return EXIT_RECORDING_CUT;
        } finally {
            finished.countDown();
        }
    }

    /** {@code --cluster}: one node of a cluster until Ctrl-C (which leaves it) or {@code --cluster-seconds}. */
    private int runClusterNode() throws Exception {
        dev.orrery.demo.cluster.ClusterDemo.Options o;
        try {
            o = new dev.orrery.demo.cluster.ClusterDemo.Options(clusterPort, clusterSeeds, clusterStore, clusterWorlds,
                    clusterMinMembers, clusterSeconds, agents, teams, seed, rate, quiet);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), ErrorLine.oneLine(e), e);
        }
        dev.orrery.demo.cluster.ClusterDemo node = new dev.orrery.demo.cluster.ClusterDemo(o, out);
        stopOnShutdown(node::stop, 30, () -> false, "orrery-demo-cluster-shutdown");
        try {
            node.run();
            return 0;
        } finally {
            finished.countDown();
        }
    }

    /** The long names of the options given on the command line, for {@link ModeOptions}. */
    private List<String> given() {
        List<String> names = new java.util.ArrayList<>();
        for (CommandLine.Model.OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            names.add(o.longestName());
        }
        return names;
    }

    /** {@code --cluster-verify}: every world of the store against its journal. */
    private int verifyCluster() throws Exception {
        if (clusterStore == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--cluster-verify needs --cluster-store DIR, "
                    + "the store the nodes ran with");
        }
        try {
            int status = dev.orrery.demo.cluster.ClusterDemo.verify(clusterStore, agents, teams, seed, rate, out);
            if (status != 0) {
                spec.commandLine().getErr().println("orrery-demo: a world in " + clusterStore + " does not match its "
                        + "journal (see the FAILED lines above)");
                spec.commandLine().getErr().flush();
            }
            return status;
        } finally {
            finished.countDown();
        }
    }

    /**
     * With the shutdown hook enabled, makes Ctrl-C (or SIGTERM) call {@code stop} and wait up to
     * {@code waitSeconds} for the run to finish its summary before the JVM exits;
     * {@code recording} says whether the run is making a recording (see {@link #awaitSummary}).
     * When the JVM is already shutting down (the signal came first), calls {@code stop} at once.
     */
    private void stopOnShutdown(Runnable stop, int waitSeconds, BooleanSupplier recording, String threadName) {
        if (!hook) {
            return;
        }
        PrintWriter err = spec.commandLine().getErr();
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                stop.run();
                awaitSummary(finished, waitSeconds, recording, err);
            }, threadName));
        } catch (IllegalStateException shuttingDown) {
            // a signal came before the hook could be added: stop now (once it was "orrery-demo: Shutdown in progress")
            stop.run();
        }
    }

    /**
     * After a stop: waits up to {@code waitSeconds} for the run to finish its summary, and when
     * it does not (a stop during a long start-up, such as a large {@code --agents} being
     * populated or its start snapshot written), says in one line on {@code err} why the JVM
     * exits without one; once it exited silently. The line says what becomes of the recording
     * only when {@code recording} (read after the wait) says one is being made; it once did in
     * every run, a cluster node's or one without {@code --record} too. Called on the shutdown
     * hook's thread.
     *
     * @return whether the run finished in time
     */
    public static boolean awaitSummary(CountDownLatch finished, int waitSeconds, BooleanSupplier recording,
            PrintWriter err) {
        try {
            if (finished.await(waitSeconds, TimeUnit.SECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        err.println("orrery-demo: stopped before the run could print its summary (still starting, or not done "
                + waitSeconds + " s after the stop)" + (recording.getAsBoolean() ? "; the recording in progress is left "
                + "as a crash leaves it: --replay replays its complete ticks, if any" : ""));
        err.flush();
        return false;
    }

    /** The options as given, checked; an {@link IllegalArgumentException} names the one that is wrong. */
    private RunOptions options() throws java.net.UnknownHostException {
        InetAddress address = InetAddress.getByName(bind);
        ServerConfig limits = ServerConfig.defaults().withMaxConnections(maxConnections)
                .withMaxConnectionsPerAddress(maxConnectionsPerAddress).withHelloTimeout(seconds("--hello-timeout",
                        helloTimeout)).withIdleTimeout(seconds("--idle-timeout", idleTimeout))
                .withClientRate(clientRate, clientBurst).withMaxSpawnCount(maxSpawn).withSpawnBudget(spawnBudget);
        tcpPort("--port", port); // checked as given: "not given" is -1 below
        tcpPort("--explore", explore);
        if (warmup != null && warmup < 0) { // checked here too: a replay's default is a negative sentinel
            throw new IllegalArgumentException("--warmup must be 0 or more ticks; got " + warmup);
        }
        long warm = warmup != null ? warmup : replay != null ? RunOptions.REPLAY_DEFAULT_WARMUP
                : RunOptions.defaultWarmup(ticks);
        outputFile("--trace", trace);
        outputFile("--dot", dot);
        return new RunOptions(agents, teams, ticks, threads, seed, rate, warm, port == null ? -1 : port, address,
                record, replay, trace, dot, quiet, limits, maxEntities,
                dev.orrery.engine.Durability.parse(fsync, dev.orrery.engine.Durability.DEFAULT_INTERVAL),
                watchdog, explore == null ? -1 : explore, exploreEdits).withTickDeadline(tickDeadline);
    }

    /** Refuses a port {@code option} given outside 0 (ephemeral) to 65535; null (not given) passes. */
    private static void tcpPort(String option, Integer port) {
        if (port != null && (port < 0 || port > 65_535)) {
            throw new IllegalArgumentException(option + " must be 0 (ephemeral) to 65535; got " + port);
        }
    }

    /** Refuses, before the run, an output file the run could only fail to write at its end. */
    private static void outputFile(String option, Path file) {
        if (file == null) {
            return;
        }
        if (java.nio.file.Files.isDirectory(file)) {
            throw new IllegalArgumentException(option + " " + file + " is a folder; give a file name (in that folder, "
                    + "for example " + file.resolve(option.equals("--dot") ? "schedule.dot" : "trace.json") + ")");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && !java.nio.file.Files.isDirectory(parent)) {
            throw new IllegalArgumentException(option + " " + file + ": folder " + parent + " does not exist; create "
                    + "it first, or write the file elsewhere");
        }
    }

    private static Duration seconds(String option, double s) {
        if (!(s > 0) || s > 86_400) {
            throw new IllegalArgumentException(option + " must be more than 0 and at most 86400 seconds; got " + s);
        }
        return Duration.ofNanos((long) (s * 1e9));
    }
}
