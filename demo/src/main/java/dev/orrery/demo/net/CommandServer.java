package dev.orrery.demo.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The demo's TCP endpoint: one selector thread serves every client over non-blocking
 * sockets, speaks the line protocol of {@link dev.orrery.demo.net}, hands parsed commands
 * to a {@link ClientCommandSink}, and sends the simulation's replies and {@code STATE}
 * pushes. Start it with {@link #start}, stop it with {@link #close}.
 *
 * <p><b>Threading:</b> one thread, the selector thread ({@code orrery-net-<port>}), owns
 * every socket and all per-client state; it alone calls {@link ClientCommandSink#offer}.
 * {@link #reply}, {@link #replyError} and {@link #broadcastState} may be called from any
 * thread (the tick thread, typically) and never block: each encodes its line on the calling
 * thread, puts it on a bounded lock-free hand-off queue and wakes the selector. So a call's
 * actions happen-before the selector thread routes its line, and lines handed off by one
 * thread reach a client in the order they were handed off. A reply handed off after
 * {@code offer} returned for its command is written after that command's own
 * acknowledgement, if it has one. A client's {@code QUIT} (or end of input) is answered
 * (or closed) only after the selector thread has routed the simulation's answer to each
 * {@code GET}/{@code SET} it offered before (each connection counts the answers owed), or
 * the stuck limit passed without them. {@link #counters}, {@link #port} and {@link #close}
 * may be called from any thread.
 *
 * <pre>
 *  client sockets ──read──▶ [selector thread] ──offer──▶ ClientCommandSink ──▶ simulation
 *        ▲                    │    ▲                                        │
 *        └──────write─────────┘    └──── hand-off queue ◀── reply / broadcastState
 * </pre>
 *
 * <p>Longer than the usual 500 lines because the selector loop's steps (accept, read,
 * back-pressure, hand-off routing, flush, stuck and time-out sweep) share the loop's state; the protocol
 * half lives in {@link RequestDispatcher}, per-client state in {@link Connection}.
 */
public final class CommandServer implements ClientReplies, AutoCloseable {
    private static final long SELECT_TIMEOUT_MS = 50;
    private static final long SWEEP_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final int ACCEPTS_PER_ROUND = 64;
    private static final int GATHER = 64;

    private final ServerConfig config;
    private final RequestDispatcher dispatcher;
    private final Selector selector;
    private final ServerSocketChannel listener;
    private final InetSocketAddress boundAddress;
    private final Thread thread;
    private final Counters counters = new Counters();

    private final ConcurrentLinkedQueue<Outgoing> handoff = new ConcurrentLinkedQueue<>();
    private final AtomicInteger handoffSize = new AtomicInteger();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean running = true;

    /**
     * A test's hook on each socket just accepted, before the limits are checked and the
     * connection is registered: a test throws from it to stand for a failure in that window.
     * Null outside tests (one volatile read per accepted socket). Called on the selector thread.
     */
    volatile Consumer<SocketChannel> acceptSeam;

    // Owned by the selector thread.
    private final Map<Long, Connection> connections = new HashMap<>();
    private final Map<InetAddress, Integer> perAddress = new HashMap<>();
    private final List<Connection> dirty = new ArrayList<>();
    private final ByteBuffer[] scratch = new ByteBuffer[GATHER];
    private final long stuckLimitNanos;
    private final long helloTimeoutNanos;
    private final long idleTimeoutNanos;
    private final int highWater;
    private long nextClientId = 1;
    private long lastSweep;

    private CommandServer(ServerConfig config, ClientCommandSink sink) throws IOException {
        this.config = Objects.requireNonNull(config, "config");
        this.dispatcher = new RequestDispatcher(config, Objects.requireNonNull(sink, "sink"), counters, this::send);
        this.stuckLimitNanos = config.stuckLimit().toNanos();
        this.helloTimeoutNanos = config.helloTimeout().toNanos();
        this.idleTimeoutNanos = config.idleTimeout().toNanos();
        this.highWater = config.outboundLimitBytes() / 2;
        InetSocketAddress wanted = new InetSocketAddress(config.bindAddress(), config.port());
        this.selector = Selector.open();
        ServerSocketChannel ch = null;
        try {
            ch = ServerSocketChannel.open();
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.bind(wanted, 128);
            ch.configureBlocking(false);
            ch.register(selector, SelectionKey.OP_ACCEPT);
            this.boundAddress = (InetSocketAddress) ch.getLocalAddress();
        } catch (IOException e) {
            closeQuietly(ch);
            closeQuietly(selector);
            throw new IOException("cannot listen on " + Lines.hostPort(wanted) + ": " + e.getMessage()
                    + "; choose another port (0 picks a free one) or bind address", e);
        }
        this.listener = ch;
        this.thread = new Thread(this::run, "orrery-net-" + boundAddress.getPort());
        this.thread.setDaemon(true);
    }

    /**
     * Binds the listening socket (so a bad address or a taken port fails here, in the
     * caller) and starts the selector thread.
     *
     * @throws IOException if the address cannot be bound; the message names it
     */
    public static CommandServer start(ServerConfig config, ClientCommandSink sink) throws IOException {
        CommandServer server = new CommandServer(config, sink);
        server.thread.start();
        return server;
    }

    /** The port the server listens on; the ephemeral one chosen when the config asked for 0. */
    public int port() {
        return boundAddress.getPort();
    }

    /** The address and port the server listens on. */
    public InetSocketAddress address() {
        return boundAddress;
    }

    /** The settings the server runs with. */
    public ServerConfig config() {
        return config;
    }

    /** Whether the server still serves: not closed, and its selector thread alive. */
    public boolean isRunning() {
        return running && thread.isAlive();
    }

    /** A snapshot of the counters; see {@link ServerCounters} for what each one counts. */
    public ServerCounters counters() {
        return counters.snapshot();
    }

    /**
     * Sends {@code OK <requestId> <result>} to a client: the simulation's answer to a
     * command whose {@link CommandType#answeredBySimulation()} is true (the value of a
     * {@code GET}; an empty result for a {@code SET}). Never blocks.
     *
     * @param clientId  {@link ClientCommand#clientId()} of the command answered
     * @param requestId {@link ClientCommand#requestId()} of the command answered
     * @param result    the answer; may be empty; non-ASCII and control characters become
     *                  {@code '?'} and the line is cut to {@link ServerConfig#MAX_OUTBOUND_LINE_BYTES}
     * @return false if the reply was dropped at once (server closed or hand-off queue full;
     *         counted in {@link ServerCounters#repliesDropped()}); true does not promise
     *         delivery (the client may have gone)
     */
    @Override
    public boolean reply(long clientId, long requestId, String result) {
        return handOff(clientId, Lines.ok(requestId, Objects.requireNonNull(result, "result")), false);
    }

    /**
     * Sends {@code ERR <requestId> <code> <message>} to a client, as {@link #reply} does.
     * Use {@link ErrorCode#NOT_FOUND} for an unknown entity, component or field and
     * {@link ErrorCode#BAD_VALUE} for a value that does not fit; let the message name the
     * entity or name involved and what to do.
     */
    @Override
    public boolean replyError(long clientId, long requestId, ErrorCode code, String message) {
        return handOff(clientId, Lines.error(requestId, Objects.requireNonNull(code, "code"),
                Objects.requireNonNull(message, "message")), false);
    }

    /**
     * Pushes {@code STATE <tick> <entities> <summary>} to every client that has said
     * {@code HELLO}. Meant to be called by the simulation once a tick or once a second. The
     * line is encoded once, whatever the number of clients; a client that is behind misses
     * pushes rather than delaying anyone (counted in {@link ServerCounters#statesDropped()}).
     * Never blocks.
     *
     * @return false if the push was dropped at once (server closed or hand-off queue full)
     */
    @Override
    public boolean broadcastState(long tick, long entities, String summary) {
        String s = Objects.requireNonNull(summary, "summary");
        return handOff(0, Lines.encode("STATE " + tick + " " + entities + (s.isEmpty() ? "" : " " + s)), true);
    }

    /**
     * Stops the selector thread and closes every socket; replies not yet written are lost.
     * Idempotent; waits for the selector thread unless called from it (for example from
     * the sink).
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        running = false;
        selector.wakeup();
        if (Thread.currentThread() == thread) {
            return;
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean handOff(long clientId, ByteBuffer line, boolean state) {
        if (closed.get()) {
            dropped(state);
            return false;
        }
        if (handoffSize.incrementAndGet() > config.handoffCapacity()) {
            handoffSize.decrementAndGet();
            dropped(state);
            return false;
        }
        handoff.offer(new Outgoing(clientId, line, state));
        if (wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
        return true;
    }

    private void dropped(boolean state) {
        (state ? counters.statesDropped : counters.repliesDropped).incrementAndGet();
    }

    // ---------------------------------------------------------------- selector thread

    private void run() {
        try {
            while (running) {
                selector.select(SELECT_TIMEOUT_MS);
                // Cleared before draining: a hand-off after this point wakes the next select.
                wakeupPending.set(false);
                long now = System.nanoTime();
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    handleKey(key, now);
                }
                routeHandoff(now);
                flushDirty(now);
                if (now - lastSweep >= SWEEP_INTERVAL_NANOS) {
                    lastSweep = now;
                    disconnectStuck(now);
                }
            }
        } catch (IOException | RuntimeException e) {
            // The selector itself failed: nothing more can be served. Counted, and close() still works.
            counters.internalErrors.incrementAndGet();
            running = false;
        } finally {
            shutDown();
        }
    }

    private void handleKey(SelectionKey key, long now) {
        if (!key.isValid()) {
            return;
        }
        if (key.isAcceptable()) {
            acceptAll(now);
            return;
        }
        Connection c = (Connection) key.attachment();
        try {
            if (key.isReadable()) {
                onReadable(c, now);
            }
            if (!c.closed && key.isWritable()) {
                onWritable(c, now);
            }
        } catch (IOException peerTrouble) {
            closeConnection(c); // reset by peer and the like: the client's business, not an error here
        } catch (RuntimeException bug) {
            counters.internalErrors.incrementAndGet();
            closeConnection(c);
        }
    }

    private void acceptAll(long now) {
        for (int i = 0; i < ACCEPTS_PER_ROUND; i++) {
            SocketChannel ch;
            try {
                ch = listener.accept();
            } catch (IOException e) {
                counters.internalErrors.incrementAndGet(); // out of file descriptors, for example
                return;
            }
            if (ch == null) {
                return;
            }
            Connection c;
            try {
                c = connect(ch, now);
            } catch (RuntimeException bug) {
                // A bug between accept and registration loses this socket only, not the server.
                counters.internalErrors.incrementAndGet();
                closeQuietly(ch);
                continue;
            }
            if (c != null) {
                connections.put(c.clientId, c);
                perAddress.merge(c.address, 1, Integer::sum);
                counters.connectionsAccepted.incrementAndGet();
                counters.connectionsOpen.incrementAndGet();
            }
        }
    }

    /**
     * Checks the limits for a socket just accepted and registers its connection with the
     * selector; null, with the socket refused or closed, when a limit is reached or the socket
     * failed. The caller records the connection, so a runtime failure here leaves nothing
     * behind but the socket, which the caller closes.
     */
    private Connection connect(SocketChannel ch, long now) {
        Consumer<SocketChannel> seam = acceptSeam;
        if (seam != null) {
            seam.accept(ch);
        }
        if (connections.size() >= config.maxConnections()) {
            refuse(ch, "the server has " + config.maxConnections()
                    + " clients, its limit; try again later or ask the operator to raise --max-connections");
            return null;
        }
        InetAddress from = peer(ch);
        int fromHere = perAddress.getOrDefault(from, 0);
        if (fromHere >= config.maxConnectionsPerAddress()) {
            refuse(ch, "your address has " + fromHere + " connections open, the limit per address; close one "
                    + "or ask the operator to raise --max-connections-per-address");
            return null;
        }
        try {
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (config.socketSendBufferBytes() > 0) {
                ch.setOption(StandardSocketOptions.SO_SNDBUF, config.socketSendBufferBytes());
            }
            Connection c = new Connection(nextClientId++, ch, from, now, config, counters);
            c.key = ch.register(selector, SelectionKey.OP_READ, c);
            return c;
        } catch (IOException e) {
            closeQuietly(ch);
            return null;
        }
    }

    /** The peer's address; a socket that has already gone counts under the wildcard address. */
    private static InetAddress peer(SocketChannel ch) {
        try {
            return ((InetSocketAddress) ch.getRemoteAddress()).getAddress();
        } catch (IOException | RuntimeException gone) {
            return new InetSocketAddress(0).getAddress();
        }
    }

    /** Sends one {@code ERR 0 FULL} line and closes; the client has not been served yet. */
    private void refuse(SocketChannel ch, String why) {
        counters.connectionsRefused.incrementAndGet();
        try {
            ch.configureBlocking(false);
            ch.write(Lines.error(0, ErrorCode.FULL, why));
            ch.shutdownOutput();
            // Unread input would turn the close into a reset that can destroy the line just sent;
            // read what has arrived, but only a little, so a refused client cannot hold us here.
            ByteBuffer sinkhole = ByteBuffer.allocate(4096);
            for (int i = 0; i < 16 && ch.read(sinkhole) > 0; i++) {
                sinkhole.clear();
            }
        } catch (IOException ignored) {
            // The refused client went away first; nothing to tell it.
        } finally {
            closeQuietly(ch);
        }
    }

    private void onReadable(Connection c, long now) throws IOException {
        if (!c.in.hasRemaining()) {
            return; // paused; processInput resumes when the outbound queue drains
        }
        int n = c.channel.read(c.in);
        if (n < 0) {
            c.windDown(now);
            c.inputEnded = true;
        } else if (n > 0) {
            c.lastInputNanos = now;
        }
        processInput(c, now);
    }

    private void onWritable(Connection c, long now) throws IOException {
        pump(c, now);
    }

    /**
     * Writes what the connection has queued; then, if that brought its queue under the
     * high-water mark, parses the input left unparsed while it was over, which queues
     * replies and marks the connection for another flush this round.
     */
    private void pump(Connection c, long now) throws IOException {
        c.flush(scratch, now);
        if (c.in.position() > 0 && !c.quitting && c.outboundBytes() < highWater) {
            processInput(c, now);
        }
        settle(c);
    }

    /**
     * Scans buffered input for lines and handles them, stopping early while the client's
     * outbound queue is over the high-water mark, so a client that sends without reading
     * stops being read instead of growing its queue.
     */
    private void processInput(Connection c, long now) throws IOException {
        assert Thread.currentThread() == thread : "processInput runs on the selector thread only";
        ByteBuffer in = c.in;
        in.flip();
        dispatcher.scan(c, highWater, now);
        if (c.closed) {
            return;
        }
        if (c.quitting) {
            in.clear();
        } else {
            in.compact();
        }
        markDirty(c);
    }

    /** Queues a reply; a client whose queue overflows with replies is disconnected. */
    void send(Connection c, ByteBuffer line, long now) {
        if (c.closed) {
            counters.repliesDropped.incrementAndGet();
            return;
        }
        if (!c.enqueue(line, false, now)) {
            counters.repliesDropped.incrementAndGet();
            counters.slowDisconnects.incrementAndGet();
            closeConnection(c);
            return;
        }
        markDirty(c);
    }

    private void routeHandoff(long now) {
        Outgoing o;
        while ((o = handoff.poll()) != null) {
            handoffSize.decrementAndGet();
            if (o.state) {
                for (Connection c : connections.values()) {
                    if (c.greeted() && !c.quitting) {
                        c.enqueue(o.line.duplicate(), true, now); // a push never overflows: it is dropped instead
                        markDirty(c);
                    }
                }
            } else {
                Connection c = connections.get(o.clientId);
                if (c == null || c.answersClosed) {
                    counters.repliesDropped.incrementAndGet(); // the client has gone, or its BYE is already queued
                } else {
                    answer(c, o.line, now);
                }
            }
        }
    }

    /**
     * Queues a simulation's answer; the last one owed to a client that said {@code QUIT}
     * releases its {@code OK <n> BYE}, so the BYE follows every answer to a request before it.
     */
    private void answer(Connection c, ByteBuffer line, long now) {
        if (c.owed > 0) {
            c.owed--;
        }
        send(c, line, now);
        if (!c.closed && c.owed == 0 && c.byeRequest != 0) {
            dispatcher.sayBye(c, c.byeRequest, now);
        }
    }

    private void markDirty(Connection c) {
        if (!c.dirty) {
            c.dirty = true;
            dirty.add(c);
        }
    }

    /** Writes what each touched connection has queued, once per round rather than once per line. */
    private void flushDirty(long now) {
        for (int i = 0; i < dirty.size(); i++) {
            Connection c = dirty.get(i);
            c.dirty = false;
            if (c.closed) {
                continue;
            }
            try {
                pump(c, now);
            } catch (IOException e) {
                closeConnection(c);
            } catch (RuntimeException bug) {
                counters.internalErrors.incrementAndGet();
                closeConnection(c);
            }
        }
        dirty.clear();
    }

    /** Closes a finished connection, or sets the interest ops its state calls for. */
    private void settle(Connection c) {
        if (c.closed) {
            return;
        }
        boolean inputLeft = !c.quitting && c.in.position() > 0;
        if ((c.quitting || c.inputEnded) && !c.hasOutbound() && !inputLeft && !c.awaitingAnswers()) {
            closeConnection(c);
            return;
        }
        int ops = 0;
        if (c.hasOutbound()) {
            ops |= SelectionKey.OP_WRITE;
        }
        boolean reading = !c.quitting && !c.inputEnded;
        boolean behind = c.outboundBytes() >= highWater;
        if (reading && behind && !c.readPaused) {
            counters.readsPaused.incrementAndGet();
        }
        c.readPaused = reading && behind;
        if (reading && !behind && c.in.hasRemaining()) {
            ops |= SelectionKey.OP_READ;
        }
        if (c.key.interestOps() != ops) {
            c.key.interestOps(ops);
        }
    }

    /**
     * Closes the connections that are stuck (bytes queued, none written for the stuck limit),
     * that said no {@code HELLO} by the deadline, or that sent nothing for the idle timeout;
     * and stops waiting for answers owed to a connection that stopped reading (QUIT or end of
     * input) a stuck limit ago: its {@code BYE} is sent and it closes once flushed, and an
     * answer that comes later is dropped (the simulation stopped, or the hand-off dropped it).
     */
    private void disconnectStuck(long now) {
        List<Connection> stuck = null;
        List<Connection> silent = null;
        List<Connection> overdue = null;
        for (Connection c : connections.values()) {
            if (c.answersOverdue(now, stuckLimitNanos)) {
                overdue = add(overdue, c);
            } else if (c.stuck(now, stuckLimitNanos)) {
                stuck = add(stuck, c);
            } else if (!c.quitting && !c.readPaused && !c.inputEnded
                    && (!c.greeted() && now - c.acceptedNanos > helloTimeoutNanos
                        || now - c.lastInputNanos > idleTimeoutNanos)) {
                silent = add(silent, c);
            }
        }
        if (overdue != null) {
            for (Connection c : overdue) {
                c.answersClosed = true;
                if (c.byeRequest != 0) {
                    dispatcher.sayBye(c, c.byeRequest, now);
                }
                markDirty(c); // its flush closes it
            }
        }
        if (stuck != null) {
            for (Connection c : stuck) {
                counters.slowDisconnects.incrementAndGet();
                closeConnection(c);
            }
        }
        if (silent != null) {
            for (Connection c : silent) {
                counters.timeoutDisconnects.incrementAndGet();
                String why = !c.greeted() ? "no HELLO within " + millis(helloTimeoutNanos)
                        + "; say HELLO <name> first, as soon as you connect"
                        : "nothing received for " + millis(idleTimeoutNanos)
                        + "; send any line (a blank line will do) more often to stay connected";
                try {
                    if (!c.hasOutbound()) {
                        c.channel.write(Lines.error(0, ErrorCode.TIMEOUT, why)); // best effort; it may not be read
                    }
                } catch (IOException gone) {
                    // The client went away first; nothing to tell it.
                }
                closeConnection(c);
            }
        }
    }

    private static List<Connection> add(List<Connection> list, Connection c) {
        List<Connection> l = list == null ? new ArrayList<>() : list;
        l.add(c);
        return l;
    }

    private static String millis(long nanos) {
        long ms = TimeUnit.NANOSECONDS.toMillis(nanos);
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    private void closeConnection(Connection c) {
        if (c.closed) {
            return;
        }
        c.closed = true;
        counters.repliesDropped.addAndGet(c.queuedReplies());
        if (c.key != null) {
            c.key.cancel();
        }
        closeQuietly(c.channel);
        if (connections.remove(c.clientId) != null) {
            counters.connectionsOpen.decrementAndGet();
            perAddress.computeIfPresent(c.address, (a, n) -> n == 1 ? null : n - 1);
        }
    }

    private void shutDown() {
        for (Connection c : new ArrayList<>(connections.values())) {
            closeConnection(c);
        }
        closeQuietly(listener);
        closeQuietly(selector);
        Outgoing o;
        while ((o = handoff.poll()) != null) {
            handoffSize.decrementAndGet();
            dropped(o.state);
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // Closing on the way out: there is no one left to tell.
        }
    }

    /** A line handed from another thread to the selector thread; {@code state} lines go to everyone. */
    private static final class Outgoing {
        final long clientId;
        final ByteBuffer line;
        final boolean state;

        Outgoing(long clientId, ByteBuffer line, boolean state) {
            this.clientId = clientId;
            this.line = line;
            this.state = state;
        }
    }
}
