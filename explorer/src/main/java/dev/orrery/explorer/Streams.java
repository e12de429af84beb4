package dev.orrery.explorer;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * The hub of the open event streams: one thread that, every {@link #PERIOD_MILLIS}, makes one
 * event and writes it to every stream without blocking. A stream whose client does not read
 * keeps bytes waiting; one with bytes waiting for {@link #STALL_MILLIS}, or more than
 * {@link #MAX_PENDING} bytes waiting, is dropped (closed), so a page that stopped reading
 * cannot hold a place for long and never holds a thread. Its kernel send buffer is kept small
 * ({@link #SEND_BUFFER}) so that a client that stops reading shows soon.
 *
 * <p>The same thread also calls {@link Source#second()} about once a second, whether or not a
 * stream is open (the explorer samples its per-second figures there).
 *
 * <p><b>Threading:</b> {@link #adopt}, {@link #hasRoom} and {@link #size} on any thread; the
 * rest on the hub's own daemon thread. A stream is written only by that thread.
 */
final class Streams {
    /** Streams open at once; more are answered 503. */
    static final int MAX_STREAMS = 8;
    /** Time between two events. */
    static final long PERIOD_MILLIS = 250;
    /** A stream with bytes waiting this long is dropped. */
    static final long STALL_MILLIS = 5_000;
    /** A stream with more bytes than this waiting is dropped. */
    static final int MAX_PENDING = 256 * 1024;
    /** The kernel send buffer asked for each stream. */
    static final int SEND_BUFFER = 16 * 1024;
    private static final byte[] RETRY = "retry: 2000\n\n".getBytes(StandardCharsets.UTF_8);

    /** Where the events come from. */
    interface Source {
        /** The data of the next event (one line of JSON). Hub thread, only while a stream is open. */
        String event();

        /** Called about once a second. Hub thread. */
        void second();
    }

    private final Source source;
    private final List<Stream> streams = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean stopping;
    private volatile long dropped;

    Streams(Source source) {
        this.source = source;
        this.thread = new Thread(this::loop, "orrery-explorer-streams");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void stop() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Stream s : streams) {
            WebServer.closeQuietly(s.channel);
        }
        streams.clear();
    }

    /** Whether another stream may open now. */
    boolean hasRoom() {
        return streams.size() < MAX_STREAMS && !stopping;
    }

    /** Streams open now. */
    int size() {
        return streams.size();
    }

    /** Streams dropped so far because their client stopped reading. */
    long dropped() {
        return dropped;
    }

    /**
     * Takes over {@code channel}, whose response head was sent: from now on the hub writes to
     * it and closes it. False (and the caller closes it) when the hub is full.
     */
    synchronized boolean adopt(SocketChannel channel) throws IOException {
        if (!hasRoom()) {
            return false;
        }
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.SO_SNDBUF, SEND_BUFFER);
        Stream s = new Stream(channel);
        s.pending.add(ByteBuffer.wrap(RETRY));
        s.pendingBytes = RETRY.length;
        streams.add(s);
        LockSupport.unpark(thread); // the first event now, not a period later
        return true;
    }

    private void loop() {
        long nextSecond = System.nanoTime();
        while (!stopping) {
            long now = System.nanoTime();
            if (now - nextSecond >= 0) {
                nextSecond = now + 1_000_000_000L;
                try {
                    source.second();
                } catch (RuntimeException e) {
                    // a failed sample leaves a gap in the per-second figures; the next one tries again
                }
            }
            if (!streams.isEmpty()) {
                byte[] event;
                try {
                    event = ("data: " + source.event() + "\n\n").getBytes(StandardCharsets.UTF_8);
                } catch (RuntimeException e) {
                    event = ("data: " + Json.error("the explorer failed making an event: " + e) + "\n\n")
                            .getBytes(StandardCharsets.UTF_8);
                }
                long at = System.nanoTime();
                for (Stream s : streams) {
                    if (!s.offer(event, at)) {
                        streams.remove(s);
                        WebServer.closeQuietly(s.channel);
                        if (s.stalled) {
                            dropped++;
                        }
                    }
                }
            }
            LockSupport.parkNanos(PERIOD_MILLIS * 1_000_000L);
        }
    }

    /** One open stream and the bytes waiting for it. Hub thread. */
    private static final class Stream {
        final SocketChannel channel;
        final ArrayDeque<ByteBuffer> pending = new ArrayDeque<>();
        long pendingBytes;
        long waitingSince;
        boolean stalled;

        Stream(SocketChannel channel) {
            this.channel = channel;
        }

        /** Queues {@code event} and writes what the socket takes; false when the stream is to be dropped. */
        boolean offer(byte[] event, long now) {
            try {
                flush();
                if (pendingBytes + event.length > MAX_PENDING) {
                    stalled = true;
                    return false;
                }
                pending.add(ByteBuffer.wrap(event));
                pendingBytes += event.length;
                flush();
            } catch (IOException gone) {
                return false; // the page closed
            }
            if (pendingBytes == 0) {
                waitingSince = 0;
                return true;
            }
            if (waitingSince == 0) {
                waitingSince = now;
                return true;
            }
            if (now - waitingSince > STALL_MILLIS * 1_000_000L) {
                stalled = true;
                return false;
            }
            return true;
        }

        private void flush() throws IOException {
            while (!pending.isEmpty()) {
                ByteBuffer b = pending.peek();
                int n = channel.write(b);
                pendingBytes -= n;
                if (b.hasRemaining()) {
                    return; // the socket is full: the client is not reading as fast
                }
                pending.poll();
            }
        }
    }
}
