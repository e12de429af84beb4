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

    @Option(names = "--port", paramLabel = "PORT", required = true, description = "Server port.")
    int port;

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

    @Override
    public Integer call() throws Exception {
        if (hostile) {
            HostileLoad.Report r = new HostileLoad(new HostileLoad.Options(host, port, Duration.ofSeconds(seconds),
                    polite, politeRate, silent, 1)).run();
            parent.out().println(r.summaryLine());
            return 0;
        }
        LoadClient.Options o = LoadClient.Options.defaults(host, port).withConnections(connections).withRate(rate)
                .withDuration(Duration.ofSeconds(seconds)).withMaxCommands(maxCommands);
        LoadClient.Report report = new LoadClient(o).run();
        parent.out().println(report.summaryLine());
        return 0;
    }
}
