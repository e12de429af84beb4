package dev.orrery.demo.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@code load --hostile} mode: polite clients alongside every kind of hostile one, for a
 * soak of the demo server. For the given time it runs, each on its own thread:
 * <ul>
 *   <li>polite clients: one {@code MOVE} at a time at a modest rate each, counting
 *       {@code BUSY};</li>
 *   <li>a flooding client: {@code MOVE}s pipelined at {@link #FLOOD_RATE} a second, four
 *       times its share;</li>
 *   <li>a hostile client: pipelined at {@link #HOSTILE_RATE} lines a second, random {@code SET}s of every arena component and field
 *       (in and out of range, NaN, wrong types), {@code SPAWN 10000} floods and random
 *       {@code GET}s;</li>
 *   <li>a garbage client: random bytes, over-long lines, commands before {@code HELLO};
 *       it reconnects when the server closes it;</li>
 *   <li>silent sockets that connect and never send a byte.</li>
 * </ul>
 * It records the (client, request) of every {@code MOVE}, {@code SPAWN} and {@code SET}
 * answered {@code OK}, so a test can look for each in the run's journal.
 *
 * <p>It connects only to the one address given and is bounded in time (at most an hour) and
 * in what it keeps unanswered per connection.
 *
 * <p><b>Threading:</b> {@link #run} starts its threads, waits for them and returns; the
 * report is complete when it returns. Not meant to be run twice at once.
 */
public final class HostileLoad {
    private static final int PIPELINE = 256;
    private static final Duration DRAIN = Duration.ofSeconds(20);
    /**
     * Lines a second from the flooding client: four times a connection's default share
     * (1 000 a second), so most are refused {@code BUSY}, yet modest enough for a loaded
     * two-core test machine.
     */
    static final int FLOOD_RATE = 4_000;
    /** Lines a second from the hostile client. */
    static final int HOSTILE_RATE = 1_000;
    /** The arena's component instances and their fields, the targets of the random {@code SET}s. */
    private static final String[][] FIELDS = {
        {"Position", "x", "y"}, {"Velocity", "x", "y"}, {"Agent", "team", "squad"}, {"Health", "hp"},
        {"Primary", "cooldown", "reload", "damage", "speed", "spread"},
        {"Secondary", "cooldown", "reload", "damage", "speed", "spread"}, {"Target", "entity", "x", "y"},
        {"Projectile", "team", "state", "damage", "ttl", "victim"}, {"Squad", "number", "x", "y"},
        {"ChildOf", "target"}};
    private static final String[] VALUES = {"0", "1", "-1", "0.5", "7", "63", "64", "99", "1000", "100000", "-1e9",
        "1e39", "3e38", "NaN", "Infinity", "true", "false", "x", "4294967297", "123456789012"};

    private final Options options;
    private final Set<Long> okInputs = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    private final AtomicReference<String> firstError = new AtomicReference<>();

    /** A hostile load with these options. */
    public HostileLoad(Options options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * Who to attack and for how long.
     *
     * @param host       the server's host; the only one connected to
     * @param port       the server's port
     * @param duration   how long to send, more than 0 and at most an hour
     * @param polite     polite clients, 1 to 64
     * @param politeRate {@code MOVE}s a second per polite client, 1 to 1 000
     * @param silent     sockets that never send, 0 to 1 000
     * @param seed       seeds every random choice
     */
    public record Options(String host, int port, Duration duration, int polite, int politeRate, int silent,
            long seed) {
        /** Checks the bounds. */
        public Options {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(duration, "duration");
            if (duration.isNegative() || duration.isZero() || duration.compareTo(Duration.ofHours(1)) > 0) {
                throw new IllegalArgumentException("duration must be more than 0 and at most 1 hour; got " + duration);
            }
            if (polite < 1 || polite > 64 || politeRate < 1 || politeRate > 1_000 || silent < 0 || silent > 1_000) {
                throw new IllegalArgumentException("polite must be 1 to 64, politeRate 1 to 1000, silent 0 to 1000; got "
                        + polite + ", " + politeRate + ", " + silent);
            }
        }
    }

    /**
     * What a run saw.
     *
     * @param counts   tallies by name: {@code polite_greeted} (polite clients past {@code HELLO}),
     *                 {@code polite_sent}, {@code polite_ok}, {@code polite_busy},
     *                 {@code flood_sent}, {@code hostile_sent}, {@code garbage_lines},
     *                 {@code reconnects}, {@code silent_open}, {@code unanswered}, and
     *                 {@code err_<CODE>} for every error code any client was sent, and
     *                 {@code io_errors}, clients that ended on an I/O failure
     * @param okInputs (client id &lt;&lt; 32 | request number) of every {@code MOVE},
     *                 {@code SPAWN} and {@code SET} answered {@code OK}
     * @param firstError the message of the first I/O failure that ended a client (a refused
     *                 connection, a {@code HELLO} not answered), or null when none did
     */
    public record Report(SortedMap<String, Long> counts, Set<Long> okInputs, String firstError) {
        /** Copies both, so the report is immutable. */
        public Report {
            counts = Collections.unmodifiableSortedMap(new TreeMap<>(counts));
            okInputs = Set.copyOf(okInputs);
        }

        /** A tally, 0 when absent. */
        public long count(String name) {
            return counts.getOrDefault(name, 0L);
        }

        /** The share of the polite clients' commands answered {@code BUSY}. */
        public double politeBusyRate() {
            long sent = count("polite_sent");
            return sent == 0 ? 0 : (double) count("polite_busy") / sent;
        }

        /** One line: every tally, {@code key=value}. */
        public String summaryLine() {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "hostile polite_busy_rate=%.4f ok_inputs=%d",
                    politeBusyRate(), okInputs.size()));
            counts.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
            return b.toString();
        }
    }

    /** Runs every client for the duration, waits for their replies (bounded) and reports. */
    public Report run() throws InterruptedException {
        long deadline = System.nanoTime() + options.duration().toNanos();
        SplittableRandom seeds = new SplittableRandom(options.seed());
        List<Thread> threads = new ArrayList<>();
        List<Socket> silent = new ArrayList<>();
        for (int i = 0; i < options.silent(); i++) {
            try {
                silent.add(connect());
                add("silent_open", 1);
            } catch (IOException e) {
                add("silent_refused", 1);
            }
        }
        for (int i = 0; i < options.polite(); i++) {
            int id = i;
            threads.add(start("polite-" + i, () -> polite(id, deadline)));
        }
        SplittableRandom flood = seeds.split();
        SplittableRandom hostile = seeds.split();
        SplittableRandom garbage = seeds.split();
        threads.add(start("flood", () -> pipelined("flood", deadline, FLOOD_RATE, () -> move(flood))));
        threads.add(start("hostile", () -> pipelined("hostile", deadline, HOSTILE_RATE, () -> hostileLine(hostile))));
        threads.add(start("garbage", () -> garbage(deadline, garbage)));
        for (Thread t : threads) {
            t.join();
        }
        for (Socket s : silent) {
            closeQuietly(s);
        }
        TreeMap<String, Long> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, v.get()));
        return new Report(out, okInputs, firstError.get());
    }

    private interface Body {
        void run() throws IOException, InterruptedException;
    }

    private interface Lines {
        String next();
    }

    private Thread start(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (IOException e) {
                add("io_errors", 1);
                firstError.compareAndSet(null, e.getMessage() == null ? e.toString() : e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "hostile-load-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(new InetSocketAddress(options.host(), options.port()), 5_000);
        s.setSoTimeout((int) DRAIN.toMillis());
        return s;
    }

    /** A polite client: one {@code MOVE} at a time, at its rate. */
    private void polite(int index, long deadline) throws IOException, InterruptedException {
        SplittableRandom rnd = new SplittableRandom(options.seed() + 1_000 + index);
        try (Socket s = connect()) {
            BufferedReader in = reader(s);
            OutputStream out = s.getOutputStream();
            long client = hello(in, out, "polite" + index);
            add("polite_greeted", 1);
            long pause = 1_000_000_000L / options.politeRate();
            long next = System.nanoTime();
            for (int request = 2; System.nanoTime() < deadline; request++) {
                send(out, move(rnd));
                add("polite_sent", 1);
                String reply = replyTo(in, request);
                if (reply == null) {
                    add("unanswered", 1);
                    return;
                }
                if (reply.startsWith("OK ")) {
                    add("polite_ok", 1);
                    okInputs.add(key(client, request));
                } else if (reply.startsWith("ERR " + request + " BUSY")) {
                    add("polite_busy", 1);
                }
                tally(reply);
                next += pause;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } else {
                    next = System.nanoTime(); // fell behind (a slow machine): do not burst to catch up
                }
            }
        }
    }

    /**
     * A pipelining client: keeps up to {@link #PIPELINE} requests unanswered, sending up to
     * {@code rate} lines a second in batches; a reader thread records the replies.
     */
    private void pipelined(String name, long deadline, int rate, Lines lines)
            throws IOException, InterruptedException {
        try (Socket s = connect()) {
            BufferedReader in = reader(s);
            OutputStream out = s.getOutputStream();
            long client = hello(in, out, name);
            Map<Integer, Boolean> journaled = new ConcurrentHashMap<>();
            AtomicLong answered = new AtomicLong(1);
            Thread reader = start(name + "-replies", () -> {
                String line;
                while ((line = in.readLine()) != null) {
                    String[] w = line.split(" ", 4);
                    if (w.length < 2 || w[0].equals("STATE")) {
                        continue;
                    }
                    int n = Integer.parseInt(w[1]);
                    Boolean queued = journaled.remove(n);
                    if (w[0].equals("OK") && Boolean.TRUE.equals(queued)) {
                        okInputs.add(key(client, n));
                    }
                    tally(line);
                    answered.incrementAndGet();
                }
            });
            int request = 1;
            StringBuilder batch = new StringBuilder();
            long start = System.nanoTime();
            while (System.nanoTime() < deadline) {
                if (request - answered.get() >= PIPELINE || request - 1 > (System.nanoTime() - start) / 1e9 * rate) {
                    Thread.sleep(1);
                    continue;
                }
                batch.setLength(0);
                for (int i = 0; i < 32; i++) {
                    String line = lines.next();
                    request++;
                    journaled.put(request, !line.startsWith("GET"));
                    batch.append(line).append('\n');
                }
                send(out, batch.toString());
                add(name + "_sent", 32);
            }
            long drainEnd = System.nanoTime() + DRAIN.toNanos();
            while (answered.get() < request && System.nanoTime() < drainEnd && reader.isAlive()) {
                Thread.sleep(5);
            }
            add("unanswered", Math.max(0, request - answered.get()));
            s.shutdownOutput();
            reader.join(DRAIN.toMillis());
        }
    }

    /** Random bytes, over-long lines and commands out of turn; reconnects when closed. */
    private void garbage(long deadline, SplittableRandom rnd) throws InterruptedException {
        while (System.nanoTime() < deadline) {
            try (Socket s = connect()) {
                s.setSoTimeout(1);
                OutputStream out = s.getOutputStream();
                byte[] sink = new byte[8192];
                while (System.nanoTime() < deadline) {
                    send(out, garbageLine(rnd));
                    add("garbage_lines", 1);
                    try {
                        if (s.getInputStream().read(sink) < 0) {
                            break; // closed by the server: connect again
                        }
                    } catch (SocketTimeoutException e) {
                        // nothing to read now
                    }
                    Thread.sleep(2);
                }
            } catch (IOException e) {
                Thread.sleep(50);
            }
            add("reconnects", 1);
        }
    }

    private static String garbageLine(SplittableRandom rnd) {
        switch (rnd.nextInt(6)) {
            case 0: {
                byte[] b = new byte[rnd.nextInt(1, 80)];
                for (int i = 0; i < b.length; i++) {
                    int c = rnd.nextInt(256);
                    b[i] = (byte) (c == '\n' ? ' ' : c);
                }
                return new String(b, StandardCharsets.ISO_8859_1) + "x\n";
            }
            case 1:
                return "SET " + "9".repeat(rnd.nextInt(400, 2_000)) + "\n";
            case 2:
                return "MOVE 1 2\n";
            case 3:
                return "HELLO " + "n".repeat(rnd.nextInt(1, 60)) + "\n";
            case 4:
                return "SPAWN -" + rnd.nextInt() + "\n";
            default:
                return "\r\n\t \u0000GET 1\n";
        }
    }

    private static String move(SplittableRandom rnd) {
        return String.format(Locale.ROOT, "MOVE %d %.2f %.2f", rnd.nextInt(64), rnd.nextDouble(-100, 1000),
                rnd.nextDouble(-100, 1000));
    }

    /** A random {@code SET} (most lines), {@code SPAWN 10000} or {@code GET}. */
    private static String hostileLine(SplittableRandom rnd) {
        int kind = rnd.nextInt(10);
        if (kind == 0) {
            return "SPAWN 10000";
        }
        String[] comp = FIELDS[rnd.nextInt(FIELDS.length)];
        String field = comp[1 + rnd.nextInt(comp.length - 1)];
        // agents are spawned first, with generation 1: low indexes often name a live one
        long entity = ((long) rnd.nextInt(1, 3) << 32) | rnd.nextInt(4_000);
        if (kind == 1) {
            return "GET " + entity + " " + comp[0] + " " + field;
        }
        String value = rnd.nextBoolean() ? VALUES[rnd.nextInt(VALUES.length)]
                : String.format(Locale.ROOT, "%.3f", rnd.nextDouble(-2_000, 2_000));
        return "SET " + entity + " " + comp[0] + " " + field + " " + value;
    }

    private static BufferedReader reader(Socket s) throws IOException {
        return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
    }

    /**
     * Says {@code HELLO name} and returns the client id the server answered with; an
     * {@link IOException} naming the server and what to check when it closed the connection,
     * stayed silent, or answered anything but {@code OK 1 <id>}.
     */
    long hello(BufferedReader in, OutputStream out, String name) throws IOException {
        send(out, "HELLO " + name);
        String reply = replyTo(in, 1);
        String server = options.host() + ":" + options.port();
        if (reply == null) {
            throw new IOException("HELLO " + name + " got no reply from " + server + ": it closed the connection (as "
                    + "a server at its client limit does, after ERR 0 FULL) or sent nothing for " + DRAIN.toSeconds()
                    + " s; check that an orrery-demo server listens there (--port " + options.port() + ") with room "
                    + "for more clients (its --max-connections), or run fewer --polite clients");
        }
        if (!reply.startsWith("OK 1 ")) {
            throw new IOException("HELLO " + name + " was refused by " + server + " with '" + reply + "'; the reply "
                    + "says why; check that the server there is an orrery-demo server of this version");
        }
        return Long.parseLong(reply.substring(5).trim());
    }

    /** The reply to request {@code n}, skipping {@code STATE} pushes; null if the connection closed or went quiet. */
    private static String replyTo(BufferedReader in, int n) throws IOException {
        String ok = "OK " + n;
        String err = "ERR " + n + " ";
        try {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals(ok) || line.startsWith(ok + " ") || line.startsWith(err)) {
                    return line;
                }
            }
        } catch (SocketTimeoutException e) {
            return null;
        }
        return null;
    }

    private static void send(OutputStream out, String text) throws IOException {
        out.write((text.endsWith("\n") ? text : text + "\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private void tally(String reply) {
        if (reply.startsWith("ERR ")) {
            String[] w = reply.split(" ", 4);
            add("err_" + (w.length > 2 ? w[2] : "?"), 1);
        }
    }

    private void add(String name, long n) {
        counts.computeIfAbsent(name, k -> new AtomicLong()).addAndGet(n);
    }

    private static long key(long client, long request) {
        return client << 32 | request;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing a socket the server may already have closed
        }
    }
}
