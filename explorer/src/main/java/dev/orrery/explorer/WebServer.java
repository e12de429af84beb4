package dev.orrery.explorer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The explorer's small HTTP/1.1 server, written for what a page served to a browser on this
 * machine meets: one request per connection ({@code Connection: close}), a deadline for the
 * request head and body and another for writing the answer (a connection that misses one is
 * closed), a bounded pool of request threads with a bounded queue (a connection beyond them
 * is closed at once), bounded head and body sizes, and every failure answered with a status
 * and a message. An event stream leaves the pool as soon as its head is sent: the
 * {@link Streams} hub writes to it without blocking and drops it when it stops reading.
 *
 * <p>Why not the JDK's {@code com.sun.net.httpserver}: it has no deadline for the request
 * head (a slow client holds a thread for ever), its pool is the caller's to bound but a
 * blocked read still pins a thread, and it writes every response, streams included, with
 * blocking writes that a client which stops reading holds for ever.
 *
 * <p><b>Threading:</b> one acceptor thread; {@link #WORKERS} request threads that run the
 * {@link Handler}; one timer thread that closes connections past their deadline (closing a
 * channel wakes the thread blocked on it). {@link #start} and {@link #stop} on the thread
 * that attaches and closes the explorer; the handler on a request thread.
 *
 * <p><b>Stopping:</b> {@link #stop} sets {@code stopping}, closes the listener, shuts the pool
 * down, closes every connection in the open set, shuts the timer down, and then waits, boundedly,
 * for the request threads and the acceptor to end. A connection accepted as stop runs is closed
 * by the acceptor or by stop, never by neither: the acceptor adds it to the open set and only
 * then reads {@code stopping}; stop writes {@code stopping} and only then walks the set; the
 * flag is volatile and the set concurrent, so if the acceptor read false, stop's walk finds
 * and closes the connection, and if it read true, the acceptor closes it and ends. A timer or
 * pool that refuses work because stop shut it down means the same: the acceptor or request
 * thread closes the connection in hand and ends quietly (no thread dies of the refusal).
 */
final class WebServer {
    /** Request threads: connections served at once. */
    static final int WORKERS = 6;
    /** Accepted connections waiting for a request thread; more are closed at once. */
    static final int QUEUED = 32;
    /** Longest request head (request line and headers). */
    static final int MAX_HEAD = 16 * 1024;
    /** Longest request body (an edit form is a few dozen bytes). */
    static final int MAX_BODY = 64 * 1024;
    /** Most header lines in a request. */
    static final int MAX_HEADERS = 64;
    /** From accept to the end of the request body; a connection still sending is closed. */
    static final long REQUEST_DEADLINE_MILLIS = 5_000;
    /**
     * From the first byte of the answer to its last; a client that does not read it in time is
     * cut off. It starts when the answer does, not with the request: the handler's own waits
     * (a safe point, a timeline's replay) are bounded by the handler, which answers 503 when they
     * run out.
     */
    static final long RESPONSE_DEADLINE_MILLIS = 15_000;

    /** Answers one request. */
    @FunctionalInterface
    interface Handler {
        /** Answers {@code request} through {@code exchange} (exactly once). Request thread. */
        void handle(Request request, Exchange exchange) throws IOException;
    }

    /**
     * One parsed request: method, path and query (raw, still percent-encoded), headers by
     * lower-case name, body.
     */
    record Request(String method, String path, String rawQuery, Map<String, String> headers, byte[] body) {
        /** A header's value by name (any case), or null. */
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Thrown while reading a request that cannot be served; answered with its status. */
    static final class BadRequest extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        BadRequest(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    /** Where the acceptor stands with a connection it has just accepted; see {@link #acceptSeam}. */
    enum AcceptStep {
        /** Accepted, not yet in the set of open connections. */
        ACCEPTED,
        /** In the set of open connections, its request deadline not yet scheduled. */
        REGISTERED
    }

    /**
     * A test's hold on the acceptor at each {@link AcceptStep}, to make an accept race
     * {@link #stop} at a chosen point; null outside tests (one volatile read per step).
     * Called on the acceptor thread.
     */
    volatile Consumer<AcceptStep> acceptSeam;

    private final Handler handler;
    private final Streams streams;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger refused = new AtomicInteger();
    private ServerSocketChannel listener;
    private ThreadPoolExecutor pool;
    private ScheduledThreadPoolExecutor timer;
    private Thread acceptor;
    private volatile boolean stopping;
    /** {@link #RESPONSE_DEADLINE_MILLIS}, shorter in a test. */
    private final long responseDeadlineMillis;

    WebServer(Handler handler, Streams streams) {
        this(handler, streams, RESPONSE_DEADLINE_MILLIS);
    }

    /** A server whose answers must be read within {@code responseDeadlineMillis} of their first byte. */
    WebServer(Handler handler, Streams streams, long responseDeadlineMillis) {
        this.handler = handler;
        this.streams = streams;
        this.responseDeadlineMillis = responseDeadlineMillis;
    }

    void start(InetSocketAddress address) throws IOException {
        listener = ServerSocketChannel.open();
        try {
            listener.bind(address, 64);
        } catch (IOException e) {
            listener.close();
            throw e;
        }
        pool = new ThreadPoolExecutor(WORKERS, WORKERS, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUED),
                daemons("orrery-explorer-http"));
        pool.allowCoreThreadTimeOut(true);
        timer = new ScheduledThreadPoolExecutor(1, daemons("orrery-explorer-deadlines"));
        timer.setRemoveOnCancelPolicy(true);
        acceptor = daemons("orrery-explorer-accept").newThread(this::acceptLoop);
        acceptor.start();
    }

    InetSocketAddress address() {
        try {
            return (InetSocketAddress) listener.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("the explorer is closed and listens on no port; attach a new one with "
                    + "Explorer.attach", e);
        }
    }

    /** Connections open now (being read, answered or queued); streams are the hub's. */
    int openConnections() {
        return open.size();
    }

    /** Connections closed at once because every request thread and queue place was taken. */
    int refusedConnections() {
        return refused.get();
    }

    /**
     * Stops accepting, closes every connection (see the class comment for one accepted as this
     * runs) and waits up to 2 s each for the request threads and the acceptor to end. Idempotent.
     */
    void stop() {
        stopping = true;
        closeQuietly(listener);
        if (acceptor != null) {
            acceptor.interrupt();
        }
        if (pool != null) {
            pool.shutdownNow();
        }
        for (SocketChannel c : open) {
            closeQuietly(c);
        }
        if (timer != null) {
            timer.shutdownNow();
        }
        try {
            if (pool != null) {
                pool.awaitTermination(2, TimeUnit.SECONDS);
            }
            if (acceptor != null) {
                acceptor.join(2_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (!stopping) {
            SocketChannel c;
            try {
                c = listener.accept();
            } catch (IOException e) {
                if (stopping) {
                    return;
                }
                continue; // a failed accept (the peer reset first): the next one
            }
            if (!admit(c)) {
                return;
            }
        }
    }

    /**
     * Registers a connection just accepted, arms its request deadline and queues it for a
     * request thread; false, with the connection closed, when the server is stopping (see the
     * class comment for why a connection accepted as {@link #stop} runs is closed here).
     * Acceptor thread.
     */
    private boolean admit(SocketChannel c) {
        seam(AcceptStep.ACCEPTED);
        open.add(c);
        if (stopping) { // stop() may have walked the open set before c was in it
            drop(c);
            return false;
        }
        seam(AcceptStep.REGISTERED);
        ScheduledFuture<?> deadline;
        try {
            deadline = timer.schedule(() -> closeQuietly(c), REQUEST_DEADLINE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) { // only stop() shuts the timer down
            drop(c);
            return false;
        }
        try {
            pool.execute(() -> serve(c, deadline));
        } catch (RejectedExecutionException busyOrStopped) {
            deadline.cancel(false);
            drop(c);
            if (stopping) {
                return false;
            }
            refused.incrementAndGet();
        }
        return true;
    }

    private void drop(SocketChannel c) {
        closeQuietly(c);
        open.remove(c);
    }

    private void seam(AcceptStep step) {
        Consumer<AcceptStep> s = acceptSeam;
        if (s != null) {
            s.accept(step);
        }
    }

    /** Reads one request, hands it to the handler, and closes the connection unless it became a stream. */
    private void serve(SocketChannel c, ScheduledFuture<?> requestDeadline) {
        Exchange exchange = new Exchange(c);
        try {
            c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Request request;
            try {
                request = RequestReader.read(c);
            } catch (BadRequest bad) {
                requestDeadline.cancel(false);
                exchange.send(bad.status, "application/json", Json.error(bad.getMessage()), Map.of());
                linger(c);
                return;
            }
            requestDeadline.cancel(false);
            if (request == null) {
                return; // closed before a full head: nothing to answer
            }
            // the answer deadline starts with the answer's first byte (Exchange.send): a handler that
            // waits for a safe point or a replay still gets its answer, or its 503, to the client
            exchange.head = request.method().equals("HEAD");
            try {
                handler.handle(request, exchange);
            } catch (RuntimeException e) {
                if (!exchange.sent) {
                    exchange.send(500, "application/json", Json.error("the explorer failed answering "
                            + request.path() + ": " + e), Map.of());
                }
            }
        } catch (IOException gone) {
            // the client went, or a deadline closed the connection
        } finally {
            requestDeadline.cancel(false);
            exchange.disarm();
            if (!exchange.streaming) {
                closeQuietly(c);
            }
            open.remove(c);
        }
    }

    /**
     * After an answer to a request that was not read to its end: stops sending and reads what
     * the client still sends for a moment, so that closing does not reset the connection
     * before the client has read the answer.
     */
    private void linger(SocketChannel c) {
        ScheduledFuture<?> cut;
        try {
            cut = timer.schedule(() -> closeQuietly(c), 1, TimeUnit.SECONDS);
        } catch (RejectedExecutionException stopped) { // only stop() shuts the timer down
            closeQuietly(c);
            return;
        }
        try {
            c.shutdownOutput();
            ByteBuffer sink = ByteBuffer.allocate(4096);
            for (int total = 0; total < MAX_BODY * 4; total += sink.position()) {
                sink.clear();
                if (c.read(sink) < 0) {
                    break;
                }
            }
        } catch (IOException gone) {
            // closed by the client or the cut
        } finally {
            cut.cancel(false);
        }
    }

    /** The answer to one request: a whole response, or the head of an event stream handed to the hub. */
    final class Exchange {
        private final SocketChannel channel;
        private ScheduledFuture<?> deadline;
        boolean head;
        boolean sent;
        boolean streaming;

        Exchange(SocketChannel channel) {
            this.channel = channel;
        }

        /**
         * Starts the answer's deadline: called as its first byte is written. Once {@link #stop}
         * has shut the timer down, closes the connection instead and throws, as a write to it would.
         */
        private void arm() throws IOException {
            try {
                deadline = timer.schedule(() -> closeQuietly(channel), responseDeadlineMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopped) {
                closeQuietly(channel);
                throw new IOException("the explorer stopped; its connections are closed");
            }
        }

        void disarm() {
            if (deadline != null) {
                deadline.cancel(false);
            }
        }

        /** Sends a whole response and marks the exchange answered. */
        void send(int status, String type, String body, Map<String, String> extra) throws IOException {
            send(status, type, body.getBytes(StandardCharsets.UTF_8), extra);
        }

        /** Sends a whole response and marks the exchange answered. */
        void send(int status, String type, byte[] body, Map<String, String> extra) throws IOException {
            if (sent) {
                throw new IllegalStateException("the explorer answered one request twice");
            }
            sent = true;
            arm();
            StringBuilder h = statusLine(status, type);
            h.append("Content-Length: ").append(body.length).append("\r\n");
            extra.forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
            h.append("\r\n");
            ByteBuffer headBytes = ByteBuffer.wrap(h.toString().getBytes(StandardCharsets.ISO_8859_1));
            if (head || body.length == 0) {
                writeFully(headBytes);
            } else {
                writeFully(headBytes, ByteBuffer.wrap(body));
            }
        }

        /**
         * Sends the head of an event stream and hands the connection to the stream hub, or
         * answers 503 when the hub is full.
         */
        void stream() throws IOException {
            if (!streams.hasRoom()) {
                send(503, "application/json", Json.error("already " + Streams.MAX_STREAMS + " event streams are "
                        + "open; close a page (a stream that stops reading is dropped after "
                        + Streams.STALL_MILLIS / 1000 + " s)"), Map.of("Retry-After", "5"));
                return;
            }
            sent = true;
            arm();
            StringBuilder h = statusLine(200, "text/event-stream");
            h.append("\r\n");
            writeFully(ByteBuffer.wrap(h.toString().getBytes(StandardCharsets.ISO_8859_1)));
            if (!streams.adopt(channel)) {
                return; // filled up meanwhile: closed by the caller's finally
            }
            streaming = true;
        }

        private StringBuilder statusLine(int status, String type) {
            StringBuilder h = new StringBuilder(256);
            h.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
            h.append("Content-Type: ").append(type).append("; charset=utf-8\r\n");
            h.append("Connection: close\r\n");
            h.append("X-Content-Type-Options: nosniff\r\n");
            h.append("Referrer-Policy: no-referrer\r\n");
            h.append("Cross-Origin-Resource-Policy: same-origin\r\n");
            h.append("X-Frame-Options: DENY\r\n");
            if (!type.startsWith("text/html")) {
                h.append("Cache-Control: no-store\r\n");
            }
            return h;
        }

        private void writeFully(ByteBuffer... buffers) throws IOException {
            long left = 0;
            for (ByteBuffer b : buffers) {
                left += b.remaining();
            }
            while (left > 0) {
                long n = channel.write(buffers);
                if (n < 0) {
                    throw new ClosedChannelException();
                }
                left -= n;
            }
        }
    }

    static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 204 -> "No Content";
            case 400 -> "Bad Request";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 409 -> "Conflict";
            case 413 -> "Content Too Large";
            case 421 -> "Misdirected Request";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }

    static void closeQuietly(java.nio.channels.Channel c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
