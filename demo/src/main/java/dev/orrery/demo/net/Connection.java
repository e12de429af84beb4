package dev.orrery.demo.net;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * One client connection: the bytes read and not yet parsed, the line being assembled, the
 * request numbering, and the bounded outbound queue with its drop policy.
 *
 * <p>The outbound queue holds at most {@code limit} bytes. At most one {@code STATE} push
 * waits in it unsent: a newer push replaces it, since only the latest state matters. When a
 * reply does not fit, the waiting push is dropped to make room; when it still does not fit,
 * {@link #enqueue} reports an overflow and the server closes the connection (a client that
 * misses a reply can no longer match replies to requests).
 *
 * <p><b>Threading:</b> confined to the server's selector thread; nothing here is shared.
 */
final class Connection {
    final long clientId;
    final SocketChannel channel;
    /** The peer's address, for the per-address connection limit. */
    final InetAddress address;
    /** When the connection was accepted, for the {@code HELLO} deadline. */
    final long acceptedNanos;
    /** When a byte last arrived from the client (or when accepted), for the idle timeout. */
    long lastInputNanos;
    /** Agents this connection's {@code SPAWN}s have queued so far, against its spawn budget. */
    long spawned;
    SelectionKey key;

    /** Bytes read but not yet scanned for lines; in write mode between calls. */
    final ByteBuffer in;
    /** The line being assembled; one byte longer than the limit to hold a trailing CR. */
    final byte[] line;
    int lineLength;
    /** True while the rest of an oversized line is skipped up to its line feed. */
    boolean discarding;
    /** The number given to this connection's last request. */
    long requests;
    String name;
    /**
     * QUIT was received: no more input is read; {@code OK <n> BYE} follows the answers still
     * {@linkplain #owed owed}, and the connection closes once that is flushed.
     */
    boolean quitting;
    /** The peer closed its side: the connection closes once the answers owed came and were flushed. */
    boolean inputEnded;
    /**
     * Answers the simulation owes: {@code GET}/{@code SET} commands the sink took and whose
     * reply has not been routed yet. One is counted when the sink takes such a command and
     * uncounted when a reply for this client is routed (each such command gets exactly one).
     */
    int owed;
    /** The QUIT's request number while its {@code OK <n> BYE} waits for owed answers; 0 when none waits. */
    long byeRequest;
    /** When QUIT or the end of input was read: the start of the wait for owed answers. */
    long windingDownNanos;
    /**
     * No more answers from the simulation are written: {@code BYE} is queued (every owed
     * answer came before it) or the wait for them was given up; a late one is dropped.
     */
    boolean answersClosed;
    boolean closed;
    /** Reading stopped because the outbound queue is over the high-water mark. */
    boolean readPaused;
    /** Queued for the end-of-round flush. */
    boolean dirty;

    private final ArrayDeque<Pending> outbound = new ArrayDeque<>();
    private final int limit;
    private final Counters counters;
    private long outboundBytes;
    private Pending waitingState;
    private long lastProgressNanos;

    private final double tokensPerNano;
    private final double burst;
    private double tokens;
    private long lastRefillNanos;

    Connection(long clientId, SocketChannel channel, InetAddress address, long now, ServerConfig config,
            Counters counters) {
        this.clientId = clientId;
        this.channel = channel;
        this.address = address;
        this.acceptedNanos = now;
        this.lastInputNanos = now;
        this.tokensPerNano = config.clientRate() / 1e9;
        this.burst = config.clientBurst();
        this.tokens = burst;
        this.lastRefillNanos = now;
        int maxLineBytes = config.maxLineBytes();
        int outboundLimit = config.outboundLimitBytes();
        this.in = ByteBuffer.allocate(Math.max(2048, maxLineBytes + 2));
        this.line = new byte[maxLineBytes + 1];
        this.limit = outboundLimit;
        this.counters = counters;
    }

    /**
     * Takes one token from this connection's bucket for a command bound for the sink; false
     * when it is empty (the command is then answered {@code BUSY}).
     */
    boolean takeToken(long now) {
        tokens = Math.min(burst, tokens + (now - lastRefillNanos) * tokensPerNano);
        lastRefillNanos = now;
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }

    /** Gives back a token taken for a command the sink then refused, so a {@code BUSY} costs nothing. */
    void returnToken() {
        tokens = Math.min(burst, tokens + 1);
    }

    boolean greeted() {
        return name != null;
    }

    /** Marks the connection as no longer read (QUIT or end of input), starting the wait for owed answers once. */
    void windDown(long now) {
        if (!quitting && !inputEnded) {
            windingDownNanos = now;
        }
    }

    /** Whether a connection that stopped reading still waits for answers the simulation owes it. */
    boolean awaitingAnswers() {
        return owed > 0 && !answersClosed;
    }

    /** Whether it waited for owed answers for longer than {@code limitNanos} since it stopped reading. */
    boolean answersOverdue(long now, long limitNanos) {
        return (quitting || inputEnded) && awaitingAnswers() && now - windingDownNanos > limitNanos;
    }

    long outboundBytes() {
        return outboundBytes;
    }

    boolean hasOutbound() {
        return !outbound.isEmpty();
    }

    /** Whether bytes have waited to be written for longer than {@code limitNanos} with none written. */
    boolean stuck(long now, long limitNanos) {
        return !outbound.isEmpty() && now - lastProgressNanos > limitNanos;
    }

    /**
     * Queues one line. A {@code STATE} push that does not fit is dropped and counted; a reply
     * that does not fit even after dropping the waiting push returns false.
     */
    boolean enqueue(ByteBuffer bytes, boolean state, long now) {
        int n = bytes.remaining();
        // Taken before a waiting push is replaced: replacing one must not restart the stuck clock.
        boolean wasEmpty = outbound.isEmpty();
        if (state || outboundBytes + n > limit) {
            dropWaitingState();
        }
        if (outboundBytes + n > limit) {
            if (state) {
                counters.statesDropped.incrementAndGet();
                return true;
            }
            return false;
        }
        if (wasEmpty) {
            lastProgressNanos = now;
        }
        Pending p = new Pending(bytes, state);
        outbound.addLast(p);
        outboundBytes += n;
        if (state) {
            waitingState = p;
        }
        return true;
    }

    private void dropWaitingState() {
        Pending w = waitingState;
        waitingState = null;
        if (w != null && w.bytes.position() == 0 && outbound.removeLastOccurrence(w)) {
            outboundBytes -= w.bytes.remaining();
            counters.statesDropped.incrementAndGet();
        }
    }

    /**
     * Writes as much of the queue as the socket takes, with gathering writes.
     *
     * @param scratch an array the caller lends for the gathering write; left cleared
     */
    void flush(ByteBuffer[] scratch, long now) throws IOException {
        long written = 0;
        try {
            while (!outbound.isEmpty()) {
                int k = 0;
                long given = 0;
                for (Pending p : outbound) {
                    if (k == scratch.length) {
                        break;
                    }
                    scratch[k++] = p.bytes;
                    given += p.bytes.remaining();
                }
                long w = channel.write(scratch, 0, k);
                written += w;
                outboundBytes -= w;
                while (!outbound.isEmpty() && !outbound.peekFirst().bytes.hasRemaining()) {
                    outbound.pollFirst();
                }
                if (w < given) {
                    break; // the socket is full; OP_WRITE will say when it has room
                }
            }
        } finally {
            Arrays.fill(scratch, null);
        }
        if (written > 0) {
            lastProgressNanos = now;
        }
    }

    /** How many replies (not pushes) are still queued; they are lost when the connection closes. */
    int queuedReplies() {
        int n = 0;
        for (Pending p : outbound) {
            n += p.state ? 0 : 1;
        }
        return n;
    }

    /** One queued line; identity matters, so it is a class and not a record. */
    private static final class Pending {
        final ByteBuffer bytes;
        final boolean state;

        Pending(ByteBuffer bytes, boolean state) {
            this.bytes = bytes;
            this.state = state;
        }
    }
}
