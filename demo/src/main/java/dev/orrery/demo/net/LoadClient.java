package dev.orrery.demo.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A load generator for the {@link CommandServer} protocol: opens N connections to one
 * host and port, says {@code HELLO} on each, then sends commands round-robin over them at a
 * given total rate until a duration has passed or a count has been sent, waits a bounded time
 * for the replies still due, and reports what came back. It is the {@code load} mode of the
 * demo's jar and the driver of the server's end-to-end tests.
 *
 * <p>It connects only to the one address it is given and is bounded in both time and count,
 * so a mistyped option cannot turn it into a flood. Each connection keeps at most
 * {@link Options#window()} requests unanswered; when the chosen connection's window is full
 * the client falls behind its rate rather than queueing without bound.
 *
 * <p><b>Threading:</b> {@link #run} does all its work on the calling thread (one selector,
 * non-blocking sockets) and returns when done; a {@code LoadClient} is not meant to be run
 * twice at once.
 */
public final class LoadClient {
    private static final int OUT_BUFFER = 64 * 1024;
    private static final int IN_BUFFER = 64 * 1024;
    private static final int MAX_REPLY = 8 * 1024;

    private final Options options;

    /** A client that will run with these options. */
    public LoadClient(Options options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * What to send, where, how fast and for how long.
     *
     * @param host         the server's host name or address; the only one connected to
     * @param port         the server's port
     * @param connections  how many connections to open, 1 to 10 000
     * @param ratePerSecond total commands a second over all connections, or 0 for as fast as
     *                     the windows allow
     * @param duration     the longest time to send, at most one hour
     * @param maxCommands  the most commands to send, 1 to one billion
     * @param window       the most unanswered commands per connection, 1 to 1024
     * @param drainTimeout how long to wait for replies after sending stops, at most one minute
     * @param commands     request lines to send, in turn; empty for {@code MOVE} commands
     *                     with random squads and targets
     * @param seed         seeds the random {@code MOVE} commands, so two runs send the same lines
     */
    public record Options(String host, int port, int connections, int ratePerSecond, Duration duration,
            long maxCommands, int window, Duration drainTimeout, List<String> commands, long seed) {

        /** Checks every bound and says which one is wrong. */
        public Options {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(duration, "duration");
            Objects.requireNonNull(drainTimeout, "drainTimeout");
            commands = List.copyOf(commands);
            check(port >= 1 && port <= 65_535, "port must be 1 to 65535", port);
            check(connections >= 1 && connections <= 10_000, "connections must be 1 to 10000", connections);
            check(ratePerSecond >= 0 && ratePerSecond <= 10_000_000, "rate must be 0 (unthrottled) to 10000000 a second",
                    ratePerSecond);
            check(maxCommands >= 1 && maxCommands <= 1_000_000_000L, "count must be 1 to 1000000000", maxCommands);
            check(window >= 1 && window <= 1024, "window must be 1 to 1024", window);
            if (duration.isNegative() || duration.isZero() || duration.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException("duration must be more than 0 and at most 1 hour; got " + duration);
            }
            if (drainTimeout.isNegative() || drainTimeout.compareTo(Duration.ofMinutes(1)) > 0) {
                throw new IllegalArgumentException("drain timeout must be 0 to 1 minute; got " + drainTimeout);
            }
            for (String line : commands) {
                if (line.isBlank() || line.length() > ServerConfig.DEFAULT_MAX_LINE_BYTES
                        || line.indexOf('\n') >= 0 || line.indexOf('\r') >= 0) {
                    throw new IllegalArgumentException("each command must be one non-blank line of at most "
                            + ServerConfig.DEFAULT_MAX_LINE_BYTES + " characters; got '" + line + "'");
                }
            }
        }

        /**
         * Defaults for a host and port: 4 connections, 1 000 commands a second, 10 seconds or
         * 10 000 commands, a window of 64, 5 seconds to drain, random {@code MOVE}s, seed 1.
         */
        public static Options defaults(String host, int port) {
            return new Options(host, port, 4, 1_000, Duration.ofSeconds(10), 10_000, 64, Duration.ofSeconds(5),
                    List.of(), 1);
        }

        /** A copy with another connection count. */
        public Options withConnections(int n) {
            return new Options(host, port, n, ratePerSecond, duration, maxCommands, window, drainTimeout, commands, seed);
        }

        /** A copy with another total rate (0 = unthrottled). */
        public Options withRate(int perSecond) {
            return new Options(host, port, connections, perSecond, duration, maxCommands, window, drainTimeout, commands,
                    seed);
        }

        /** A copy with another sending duration. */
        public Options withDuration(Duration d) {
            return new Options(host, port, connections, ratePerSecond, d, maxCommands, window, drainTimeout, commands,
                    seed);
        }

        /** A copy with another command count. */
        public Options withMaxCommands(long n) {
            return new Options(host, port, connections, ratePerSecond, duration, n, window, drainTimeout, commands, seed);
        }

        /** A copy with other command lines (empty = random {@code MOVE}s). */
        public Options withCommands(List<String> lines) {
            return new Options(host, port, connections, ratePerSecond, duration, maxCommands, window, drainTimeout, lines,
                    seed);
        }

        private static void check(boolean ok, String rule, long got) {
            if (!ok) {
                throw new IllegalArgumentException(rule + "; got " + got);
            }
        }
    }

    /**
     * What a run did.
     *
     * @param connections  connections that said {@code HELLO} and were answered {@code OK}
     * @param refused      connections that failed to connect or were refused ({@code ERR 0 FULL})
     * @param sent         commands sent, not counting {@code HELLO}
     * @param acked        commands answered {@code OK}
     * @param errors       commands answered {@code ERR}, by code
     * @param states       {@code STATE} pushes received
     * @param unanswered   commands with no reply when the drain timeout ran out or a connection closed
     * @param elapsedNanos from the first command sent to the last reply awaited
     */
    public record Report(int connections, int refused, long sent, long acked, SortedMap<String, Long> errors,
            long states, long unanswered, long elapsedNanos) {

        /** Copies the error map, so the report stays immutable. */
        public Report {
            errors = Collections.unmodifiableSortedMap(new TreeMap<>(errors));
        }

        /** All {@code ERR} replies to commands. */
        public long errorCount() {
            return errors.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Replies ({@code OK} and {@code ERR}) a second over the run. */
        public double repliesPerSecond() {
            return elapsedNanos <= 0 ? 0 : (acked + errorCount()) * 1e9 / elapsedNanos;
        }

        /** One line: {@code connections=.. sent=.. acked=.. errors=.. replies_per_s=..} and the rest. */
        public String summaryLine() {
            return String.format(Locale.ROOT,
                    "connections=%d refused=%d sent=%d acked=%d errors=%d unanswered=%d states=%d replies_per_s=%.1f%s",
                    connections, refused, sent, acked, errorCount(), unanswered, states, repliesPerSecond(),
                    errors.isEmpty() ? "" : " error_codes=" + errors);
        }
    }

    /**
     * Runs the load and returns its report. Connections that cannot be made count as
     * refused; the run goes on with the others.
     *
     * @throws IOException if no connection at all could be made
     */
    public Report run() throws IOException {
        Options o = options;
        InetSocketAddress target = new InetSocketAddress(o.host(), o.port());
        if (target.isUnresolved()) {
            throw new IOException("cannot resolve host '" + o.host() + "'; give a host name or address the machine knows");
        }
        TreeMap<String, Long> errors = new TreeMap<>();
        List<Peer> peers = new ArrayList<>();
        int refused = 0;
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < o.connections(); i++) {
                try {
                    peers.add(open(selector, target, i));
                } catch (IOException e) {
                    refused++;
                }
            }
            if (peers.isEmpty()) {
                throw new IOException("no connection to " + Lines.hostPort(target) + " could be made; is the server running there?");
            }
            CommandLines lines = new CommandLines(o);
            long start = System.nanoTime();
            long sendEnd = start + o.duration().toNanos();
            long sent = 0; // over all peers; each peer keeps its own count too
            int next = 0;
            long now = start;
            // Send phase: paced by the rate, bounded by duration, count and windows.
            while (now < sendEnd && sent < o.maxCommands() && anyOpen(peers)) {
                long due = o.ratePerSecond() == 0 ? o.maxCommands()
                        : Math.min(o.maxCommands(), 1 + (long) ((now - start) / 1e9 * o.ratePerSecond()));
                for (int tries = 0; sent < due && tries < peers.size(); ) {
                    Peer p = peers.get(next);
                    next = (next + 1) % peers.size();
                    if (p.canSend(o.window())) {
                        p.queue(lines.next());
                        sent++;
                        tries = 0;
                    } else {
                        tries++;
                    }
                }
                pump(selector, peers, errors, 1);
                now = System.nanoTime();
            }
            // Drain phase: wait for the replies still owed, the answers to HELLO included (a run
            // that sends everything through the first peers greeted can end before a slow server
            // has greeted or refused the rest), within the drain timeout.
            long drainEnd = System.nanoTime() + o.drainTimeout().toNanos();
            while ((owedByOpenPeers(peers) > 0 || awaitingHello(peers)) && System.nanoTime() < drainEnd) {
                pump(selector, peers, errors, 5);
            }
            long elapsed = System.nanoTime() - start;
            int greeted = 0;
            long acked = 0;
            long states = 0;
            for (Peer p : peers) {
                greeted += p.greeted ? 1 : 0;
                refused += p.refused ? 1 : 0;
                acked += p.acked;
                states += p.states;
            }
            long sentTotal = 0;
            for (Peer p : peers) {
                sentTotal += p.sent;
            }
            Report report = new Report(greeted, refused, sentTotal, acked, errors, states, owed(peers), elapsed);
            for (Peer p : peers) {
                p.close();
            }
            return report;
        }
    }

    private static Peer open(Selector selector, InetSocketAddress target, int index) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.socket().connect(target, 5_000);
            ch.configureBlocking(false);
            Peer p = new Peer(ch);
            p.key = ch.register(selector, SelectionKey.OP_READ, p);
            p.out.put(("HELLO load-" + index + "\n").getBytes(StandardCharsets.US_ASCII));
            return p;
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    private static boolean anyOpen(List<Peer> peers) {
        for (Peer p : peers) {
            if (!p.closed) {
                return true;
            }
        }
        return false;
    }

    /** Replies still possible: a closed connection will answer nothing more. */
    private static long owedByOpenPeers(List<Peer> peers) {
        long n = 0;
        for (Peer p : peers) {
            n += p.closed ? 0 : p.owed();
        }
        return n;
    }

    /** True while an open peer has had no answer to its {@code HELLO} yet. */
    private static boolean awaitingHello(List<Peer> peers) {
        for (Peer p : peers) {
            if (!p.closed && !p.greeted && !p.refused) {
                return true;
            }
        }
        return false;
    }

    private static long owed(List<Peer> peers) {
        long n = 0;
        for (Peer p : peers) {
            n += p.owed();
        }
        return n;
    }

    /** Writes what is queued, then waits up to {@code waitMillis} for replies and reads them. */
    private static void pump(Selector selector, List<Peer> peers, TreeMap<String, Long> errors, long waitMillis)
            throws IOException {
        for (Peer p : peers) {
            p.flush();
        }
        selector.select(waitMillis);
        for (SelectionKey key : selector.selectedKeys()) {
            Peer p = (Peer) key.attachment();
            if (key.isValid() && key.isReadable()) {
                p.read(errors);
            }
            if (key.isValid() && key.isWritable()) {
                p.flush();
            }
        }
        selector.selectedKeys().clear();
    }

    /** The command lines to send, in turn, or random {@code MOVE}s. */
    private static final class CommandLines {
        private final List<String> fixed;
        private final SplittableRandom random;
        private int index;

        CommandLines(Options o) {
            this.fixed = o.commands();
            this.random = new SplittableRandom(o.seed());
        }

        String next() {
            if (!fixed.isEmpty()) {
                String line = fixed.get(index);
                index = (index + 1) % fixed.size();
                return line;
            }
            return String.format(Locale.ROOT, "MOVE %d %.2f %.2f", random.nextInt(8),
                    random.nextDouble(-1000, 1000), random.nextDouble(-1000, 1000));
        }
    }

    /** One connection's buffers and tallies. */
    private static final class Peer {
        final SocketChannel channel;
        final ByteBuffer out = ByteBuffer.allocate(OUT_BUFFER);
        final ByteBuffer in = ByteBuffer.allocate(IN_BUFFER);
        final byte[] line = new byte[MAX_REPLY];
        int lineLength;
        SelectionKey key;
        boolean greeted;
        boolean refused;
        boolean closed;
        long sent;
        long acked;
        long errors;
        long states;

        Peer(SocketChannel channel) {
            this.channel = channel;
        }

        long owed() {
            return sent - acked - errors;
        }

        boolean canSend(int window) {
            return !closed && greeted && owed() < window && out.remaining() >= ServerConfig.DEFAULT_MAX_LINE_BYTES + 1;
        }

        void queue(String command) {
            out.put(command.getBytes(StandardCharsets.US_ASCII)).put((byte) '\n');
            sent++;
        }

        void flush() throws IOException {
            if (closed || out.position() == 0) {
                return;
            }
            out.flip();
            try {
                channel.write(out);
            } catch (IOException e) {
                close();
                return;
            } finally {
                out.compact();
            }
            key.interestOps(out.position() > 0 ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }

        void read(TreeMap<String, Long> errors) throws IOException {
            int n;
            try {
                n = channel.read(in);
            } catch (IOException e) {
                n = -1;
            }
            in.flip();
            while (in.hasRemaining()) {
                byte b = in.get();
                if (b == '\n') {
                    onLine(new String(line, 0, lineLength, StandardCharsets.US_ASCII), errors);
                    lineLength = 0;
                } else if (lineLength < line.length) {
                    line[lineLength++] = b;
                }
            }
            in.clear();
            if (n < 0) {
                close();
            }
        }

        private void onLine(String text, TreeMap<String, Long> errors) {
            String[] w = text.split(" ", 4);
            if (w[0].equals("STATE")) {
                states++;
                return;
            }
            boolean ok = w[0].equals("OK");
            if (!ok && !w[0].equals("ERR") || w.length < 2) {
                return; // not a reply this client knows
            }
            if (w[1].equals("0")) {
                refused = true; // ERR 0 FULL: the server is at its connection limit
            } else if (w[1].equals("1")) {
                greeted = ok; // the reply to HELLO
                refused = !ok;
            } else if (ok) {
                acked++;
            } else {
                this.errors++;
                errors.merge(w.length > 2 ? w[2] : "?", 1L, Long::sum);
            }
        }

        void close() {
            if (!closed) {
                closed = true;
                key.cancel();
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // Nothing more to read or write on it either way.
                }
            }
        }
    }
}
