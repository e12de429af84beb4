package dev.orrery.demo.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings of a {@link CommandServer}: where it listens and the limits that keep one
 * client from hurting the others. Start from {@link #defaults()} and change what you need
 * with the {@code with...} methods; the constructor checks every value.
 *
 * @param bindAddress          the address to listen on; {@code 127.0.0.1} by default, so
 *                             nothing outside the machine can connect unless asked for
 * @param port                 the TCP port, or 0 for an ephemeral one (see {@link CommandServer#port()})
 * @param maxConnections       open connections allowed at once; one more is answered
 *                             {@code ERR 0 FULL ...} and closed
 * @param maxLineBytes         the longest request line, in bytes before its line feed;
 *                             a longer one is answered {@code TOO_LONG} and discarded
 * @param outboundLimitBytes   bytes a connection may have queued for sending; over it,
 *                             {@code STATE} pushes are dropped first, then the client is
 *                             disconnected. Reading from a client pauses while its queue is
 *                             over half this, so a client that sends without reading slows
 *                             itself rather than the server
 * @param stuckLimit           how long a connection may have bytes queued without any of
 *                             them being written before it is disconnected; also the
 *                             longest a {@code QUIT}'s {@code BYE} waits for the simulation's
 *                             owed {@code GET}/{@code SET} answers
 * @param handoffCapacity      replies and pushes that other threads may have handed to the
 *                             selector thread and it has not yet routed; over it they are
 *                             dropped and counted
 * @param maxSpawnCount        the largest {@code SPAWN <count>} accepted
 * @param socketSendBufferBytes the kernel send buffer for accepted sockets, or 0 for the
 *                             system's default (tests make it small to reach the limits soon)
 * @param maxConnectionsPerAddress open connections allowed at once from one client address;
 *                             one more is answered {@code ERR 0 FULL ...} and closed
 * @param helloTimeout         how long a new connection may take to say {@code HELLO}; then it
 *                             is sent {@code ERR 0 TIMEOUT ...} and closed, freeing its slot
 * @param idleTimeout          how long a connection may send nothing at all (any byte counts,
 *                             a blank line too) before it is sent {@code ERR 0 TIMEOUT ...}
 *                             and closed; a connection whose reading is paused for back-pressure
 *                             is left to {@code stuckLimit}
 * @param clientRate           each connection's share of the simulation's input: commands a
 *                             second its token bucket refills with; a command with no token
 *                             left is answered {@code BUSY}, so one flooding client cannot fill
 *                             the input queue that every client shares
 * @param clientBurst          the bucket's size: commands a connection may send at once
 * @param spawnBudget          agents one connection may spawn over its life; a {@code SPAWN}
 *                             past it is answered {@code QUOTA}
 */
public record ServerConfig(InetAddress bindAddress, int port, int maxConnections, int maxLineBytes,
        int outboundLimitBytes, Duration stuckLimit, int handoffCapacity, int maxSpawnCount,
        int socketSendBufferBytes, int maxConnectionsPerAddress, Duration helloTimeout, Duration idleTimeout,
        int clientRate, int clientBurst, long spawnBudget) {

    /** The longest line the server sends; longer reply or {@code STATE} text is cut to fit. */
    public static final int MAX_OUTBOUND_LINE_BYTES = 4096;

    /** The default line limit for requests, in bytes before the line feed. */
    public static final int DEFAULT_MAX_LINE_BYTES = 512;

    /** Checks every value and says which one is wrong and what range it must be in. */
    public ServerConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Objects.requireNonNull(stuckLimit, "stuckLimit");
        check(port >= 0 && port <= 65_535, "port must be 0 (ephemeral) to 65535", port);
        check(maxConnections >= 1 && maxConnections <= 100_000, "maxConnections must be 1 to 100000", maxConnections);
        check(maxLineBytes >= 64 && maxLineBytes <= 65_536, "maxLineBytes must be 64 to 65536", maxLineBytes);
        check(outboundLimitBytes >= 2 * MAX_OUTBOUND_LINE_BYTES && outboundLimitBytes <= 64 << 20,
                "outboundLimitBytes must be " + 2 * MAX_OUTBOUND_LINE_BYTES + " to 64 MiB", outboundLimitBytes);
        check(handoffCapacity >= 16, "handoffCapacity must be 16 or more", handoffCapacity);
        check(maxSpawnCount >= 1, "maxSpawnCount must be 1 or more", maxSpawnCount);
        check(socketSendBufferBytes >= 0, "socketSendBufferBytes must be 0 (system default) or more", socketSendBufferBytes);
        Objects.requireNonNull(helloTimeout, "helloTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        check(maxConnectionsPerAddress >= 1, "maxConnectionsPerAddress must be 1 or more", maxConnectionsPerAddress);
        check(clientRate >= 1, "clientRate must be 1 or more commands a second", clientRate);
        check(clientBurst >= 1, "clientBurst must be 1 or more commands", clientBurst);
        check(spawnBudget >= 1, "spawnBudget must be 1 or more agents", spawnBudget);
        positive("stuckLimit", stuckLimit);
        positive("helloTimeout", helloTimeout);
        positive("idleTimeout", idleTimeout);
    }

    /**
     * The defaults: {@code 127.0.0.1}, ephemeral port, 256 connections, 512-byte lines,
     * 256 KiB queued per connection, 10 s stuck limit, 65 536 handed-off messages, spawn
     * waves of up to 10 000, the system's socket buffers, 16 connections per address, 10 s
     * to say {@code HELLO}, 120 s idle, 1 000 commands a second per connection in bursts of
     * up to 256, and 100 000 agents spawned per connection.
     *
     * <p>The share is sized against the arena's input ring (8 192 slots, drained up to 4 096 a
     * tick at 60 ticks a second): one address's 16 connections together get at most 16 000
     * commands a second and 4 096 at once, half the ring, so the ring stays open to others.
     */
    public static ServerConfig defaults() {
        return new ServerConfig(loopback(), 0, 256, DEFAULT_MAX_LINE_BYTES, 256 * 1024, Duration.ofSeconds(10),
                65_536, 10_000, 0, 16, Duration.ofSeconds(10), Duration.ofSeconds(120), 1_000, 256, 100_000);
    }

    /** {@code 127.0.0.1}: the IPv4 loopback address, whatever the JVM prefers. */
    public static InetAddress loopback() {
        try {
            return InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new AssertionError("a 4-byte address is always valid", e);
        }
    }

    /** A copy listening on another address (for example {@code 0.0.0.0} to accept remote clients). */
    public ServerConfig withBindAddress(InetAddress address) {
        return new ServerConfig(address, port, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy listening on another port (0 = ephemeral). */
    public ServerConfig withPort(int newPort) {
        return new ServerConfig(bindAddress, newPort, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another connection limit. */
    public ServerConfig withMaxConnections(int limit) {
        return new ServerConfig(bindAddress, port, limit, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another request line limit. */
    public ServerConfig withMaxLineBytes(int limit) {
        return new ServerConfig(bindAddress, port, maxConnections, limit, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another per-connection outbound limit. */
    public ServerConfig withOutboundLimitBytes(int limit) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, limit, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another stuck limit. */
    public ServerConfig withStuckLimit(Duration limit) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, outboundLimitBytes, limit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another hand-off capacity. */
    public ServerConfig withHandoffCapacity(int capacity) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, capacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another largest spawn wave. */
    public ServerConfig withMaxSpawnCount(int count) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, count, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another kernel send buffer size for accepted sockets (0 = system default). */
    public ServerConfig withSocketSendBufferBytes(int bytes) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, bytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another limit of connections from one address. */
    public ServerConfig withMaxConnectionsPerAddress(int limit) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, limit, helloTimeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another deadline for {@code HELLO}. */
    public ServerConfig withHelloTimeout(Duration timeout) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, timeout, idleTimeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another idle timeout. */
    public ServerConfig withIdleTimeout(Duration timeout) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, timeout, clientRate, clientBurst, spawnBudget);
    }

    /** A copy with another per-connection spawn budget. */
    public ServerConfig withSpawnBudget(long agents) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, clientRate, clientBurst, agents);
    }

    /**
     * A copy with another share of the input per connection: a token bucket of {@code burst}
     * commands refilled at {@code perSecond}.
     */
    public ServerConfig withClientRate(int perSecond, int burst) {
        return new ServerConfig(bindAddress, port, maxConnections, maxLineBytes, outboundLimitBytes, stuckLimit, handoffCapacity, maxSpawnCount, socketSendBufferBytes, maxConnectionsPerAddress, helloTimeout, idleTimeout, perSecond, burst, spawnBudget);
    }

    private static void positive(String name, Duration d) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive; got " + d);
        }
    }

    private static void check(boolean ok, String rule, long got) {
        if (!ok) {
            throw new IllegalArgumentException(rule + "; got " + got);
        }
    }
}
