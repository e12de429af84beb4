package dev.orrery.demo;

import dev.orrery.demo.net.HostileLoad;
import dev.orrery.demo.net.LoadClient;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code orrery-demo load}: the bundled load client against a running demo server, polite
 * ({@link LoadClient}) or hostile ({@link HostileLoad}); it prints the client's summary line
 * on the command's output.
 *
 * <p><b>Threading:</b> picocli calls {@link #call} on the command line's thread; the clients
 * run their connections on their own threads and return when done.
 */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Opens N connections to a running demo server and sends MOVE, SPAWN, GET and SET commands "
                + "at a rate, then prints what came back.")
final class LoadCommand implements Callable<Integer> {
    @CommandLine.ParentCommand
    Main parent;

    @Option(names = "--host", paramLabel = "HOST", description = "Server host (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    // Not required = true: picocli would report a missing --port before an unknown option; call() asks for it.
    @Option(names = "--port", paramLabel = "PORT", description = "Server port (required).")
    Integer port;

    @Option(names = "--connections", paramLabel = "N", description = "Connections (default: ${DEFAULT-VALUE}).")
    int connections = 4;

    @Option(names = "--rate", paramLabel = "N",
            description = "Commands per second over all connections; 0 = as fast as replies allow "
                    + "(default: ${DEFAULT-VALUE}).")
    int rate = 1000;

    @Option(names = "--seconds", paramLabel = "S", description = "How long to send (default: ${DEFAULT-VALUE}).")
    long seconds = 10;

    @Option(names = "--max-commands", paramLabel = "N",
            description = "Most commands to send (default: ${DEFAULT-VALUE}).")
    long maxCommands = 1_000_000;

    @Option(names = "--hostile",
            description = "Hostile mode: polite clients beside a flooding client, random SETs of every field, "
                    + "SPAWN floods, garbage lines and silent sockets, for --seconds; prints every tally and the "
                    + "polite clients' BUSY rate (--connections, --rate and --max-commands do not apply).")
    boolean hostile;

    @Option(names = "--polite", paramLabel = "N",
            description = "Hostile mode: polite clients, each sending --polite-rate MOVEs a second "
                    + "(default: ${DEFAULT-VALUE}).")
    int polite = 4;

    @Option(names = "--polite-rate", paramLabel = "N",
            description = "Hostile mode: MOVEs a second per polite client (default: ${DEFAULT-VALUE}).")
    int politeRate = 20;

    @Option(names = "--silent", paramLabel = "N",
            description = "Hostile mode: sockets that connect and never send (default: ${DEFAULT-VALUE}).")
    int silent = 8;

    // Main reads --verbose from the whole command line; declared here so it may follow "load" too.
    @Option(names = "--verbose", description = "On an error, print the stack trace after the one-line message.")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The options that apply to the polite load only, and those that apply to --hostile only. */
    private static final java.util.Set<String> POLITE_ONLY = java.util.Set.of("--connections", "--rate", "--max-commands");
    private static final java.util.Set<String> HOSTILE_ONLY = java.util.Set.of("--polite", "--polite-rate", "--silent");

    @Override
    public Integer call() throws Exception {
        check();
        if (hostile) {
            HostileLoad.Report r = new HostileLoad(new HostileLoad.Options(host, port, Duration.ofSeconds(seconds),
                    polite, politeRate, silent, 1)).run();
            parent.out().println(r.summaryLine());
            if (r.count("polite_greeted") == 0) {
                // once exit 0 with a summary of I/O errors: no server at all looked like a finished soak
                throw new java.io.IOException("no polite client of --hostile got past HELLO at " + host + ":" + port
                        + ", so the soak tested nothing (first failure: " + r.firstError() + "); is an orrery-demo "
                        + "server (--port " + port + ") running there, with room for " + polite + " more clients?");
            }
            return 0;
        }
        LoadClient.Options o = LoadClient.Options.defaults(host, port).withConnections(connections).withRate(rate)
                .withDuration(Duration.ofSeconds(seconds)).withMaxCommands(maxCommands);
        LoadClient.Report report = new LoadClient(o).run();
        parent.out().println(report.summaryLine());
        if (report.connections() == 0) {
            // once exit 0 with "connections=0 ... sent=0": a listener that is not a demo server looked like a quiet run
            throw new java.io.IOException("no connection to " + host + ":" + port + " was greeted (" + report.refused()
                    + " of " + connections + " refused, the others not answered HELLO), so nothing was sent; is an "
                    + "orrery-demo server (--port " + port + ") running there, with room for " + connections
                    + " more clients?");
        }
        return 0;
    }

    /**
     * Refuses, as a bad option (status 2, the option named), an option of the simulation run
     * given before {@code load} (it would be ignored), a missing {@code --port}, a value out of
     * range, and an option the chosen mode does not use.
     */
    private void check() {
        java.util.List<String> runOptions = new java.util.ArrayList<>();
        for (CommandLine.Model.OptionSpec o : spec.commandLine().getParent().getParseResult().matchedOptions()) {
            if (!o.longestName().equals("--verbose")) {
                runOptions.add(o.longestName());
            }
        }
        if (!runOptions.isEmpty()) {
            throw bad("load does not use " + String.join(", ", runOptions) + " (given before load, "
                    + (runOptions.size() == 1 ? "an option" : "options") + " of the simulation run); leave "
                    + (runOptions.size() == 1 ? "it" : "them") + " out, and give load's own options after load");
        }
        if (port == null) {
            throw bad("load needs --port PORT, the port the demo server listens on (printed at its start)");
        }
        range("--port", port, 1, 65_535);
        range("--seconds", seconds, 1, 3_600);
        for (CommandLine.Model.OptionSpec o : spec.commandLine().getParseResult().matchedOptions()) {
            String name = o.longestName();
            if (hostile && POLITE_ONLY.contains(name)) {
                throw bad("--hostile does not use " + name + "; leave it out");
            }
            if (!hostile && HOSTILE_ONLY.contains(name)) {
                throw bad(name + " applies to --hostile only; add --hostile, or leave " + name + " out");
            }
        }
        if (hostile) {
            range("--polite", polite, 1, 64);
            range("--polite-rate", politeRate, 1, 1_000);
            range("--silent", silent, 0, 1_000);
        } else {
            range("--connections", connections, 1, 10_000);
            range("--rate", rate, 0, 10_000_000);
            range("--max-commands", maxCommands, 1, 1_000_000_000L);
        }
    }

    private void range(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw bad(option + " must be " + min + " to " + max + "; got " + value);
        }
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
