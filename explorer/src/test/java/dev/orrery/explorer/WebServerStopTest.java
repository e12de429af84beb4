package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link WebServer#stop} against a connection the server is still taking in: one accepted as
 * stop runs must not outlive it, and neither the acceptor nor a request thread may die of the
 * deadline timer having shut down (the JVM printed "Exception in thread
 * orrery-explorer-accept-1 ... RejectedExecutionException" and the socket stayed open).
 *
 * <p>Each case holds a server thread at a chosen point with a latch (the hold ignores the
 * interrupt stop sends, as the real code between two steps does), lets {@link WebServer#stop}
 * run to its end (its bounded wait for the held thread runs out), and then lets the thread on.
 * Waits are bounded and generous; nothing is timed.
 */
class WebServerStopTest {
    private static final long BOUND_SECONDS = 30;

    @Test
    void shouldCloseAConnectionAcceptedAsStopRunsAndEndTheAcceptorQuietly() throws Exception {
        heldAcceptorEndsQuietlyAndClosesTheConnection(WebServer.AcceptStep.ACCEPTED);
    }

    @Test
    void shouldEndTheAcceptorQuietlyWhenTheDeadlineTimerStoppedAfterItRegisteredAConnection() throws Exception {
        heldAcceptorEndsQuietlyAndClosesTheConnection(WebServer.AcceptStep.REGISTERED);
    }

    @Test
    void shouldNotKillARequestThreadWhoseHandlerFailsAfterStop() throws Exception {
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> worker = new AtomicReference<>();
        AtomicReference<Throwable> uncaught = new AtomicReference<>();
        WebServer server = new WebServer((request, exchange) -> {
            worker.set(Thread.currentThread());
            Thread.currentThread().setUncaughtExceptionHandler((t, e) -> uncaught.set(e));
            handling.countDown();
            holdIgnoringInterrupts(release);
            throw new IllegalStateException("the handler failed after the server stopped");
        }, streams());
        server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        try (Socket client = new Socket()) {
            client.connect(server.address(), 10_000);
            client.getOutputStream().write("GET /api/world HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            assertTrue(handling.await(BOUND_SECONDS, TimeUnit.SECONDS), "the handler got the request");
            server.stop(); // shuts the timer down while the handler still runs
            release.countDown(); // the handler fails: its 500 answer would arm a deadline on the stopped timer
            Thread t = worker.get();
            t.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
            assertFalse(t.isAlive(), "the request thread ended once the stopped server's pool let it go");
            assertNull(uncaught.get(), () -> "the request thread died of " + uncaught.get());
            assertClosed(client);
        } finally {
            release.countDown();
            server.stop();
        }
    }

    /**
     * Holds the acceptor at {@code step} with a connection it has just accepted, runs
     * {@link WebServer#stop} to its end, lets the acceptor on, and asserts that it ends without
     * an uncaught exception and that the client sees its connection closed.
     */
    private static void heldAcceptorEndsQuietlyAndClosesTheConnection(WebServer.AcceptStep step) throws Exception {
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> acceptor = new AtomicReference<>();
        AtomicReference<Throwable> uncaught = new AtomicReference<>();
        WebServer server = new WebServer((request, exchange) -> exchange.send(200, "application/json", "{}",
                Map.of()), streams());
        server.acceptSeam = at -> {
            if (at != step) {
                return;
            }
            acceptor.set(Thread.currentThread());
            Thread.currentThread().setUncaughtExceptionHandler((t, e) -> uncaught.set(e));
            reached.countDown();
            holdIgnoringInterrupts(release);
        };
        server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        try (Socket client = new Socket()) {
            client.connect(server.address(), 10_000);
            assertTrue(reached.await(BOUND_SECONDS, TimeUnit.SECONDS), "the acceptor took the connection");
            server.stop(); // closes what it finds open and shuts the timer down, the acceptor still held
            release.countDown();
            Thread t = acceptor.get();
            t.join(TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
            assertFalse(t.isAlive(), "the acceptor thread ended after stop()");
            assertNull(uncaught.get(), () -> "the acceptor thread died of " + uncaught.get());
            assertClosed(client);
            assertEquals(0, server.openConnections(), "connections the stopped server still counts open");
        } finally {
            release.countDown();
            server.stop();
        }
    }

    /** The client sees its connection closed by the server (end of stream or a reset) within the bound. */
    private static void assertClosed(Socket client) throws IOException {
        client.setSoTimeout((int) TimeUnit.SECONDS.toMillis(BOUND_SECONDS));
        try {
            assertEquals(-1, client.getInputStream().read(), "the server sent bytes instead of closing");
        } catch (SocketTimeoutException open) {
            fail("the server left the connection open " + BOUND_SECONDS + " s after stop() (a leaked socket)");
        } catch (SocketException reset) {
            // closed with a reset: closed all the same
        }
    }

    /** Waits for {@code release} (bounded), ignoring interrupts meanwhile and restoring the flag after. */
    private static void holdIgnoringInterrupts(CountDownLatch release) {
        boolean interrupted = false;
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS * 2);
        while (true) {
            try {
                release.await(until - System.nanoTime(), TimeUnit.NANOSECONDS); // false: the test gave up
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static Streams streams() {
        return new Streams(new Streams.Source() {
            @Override
            public String event() {
                return "{}";
            }

            @Override
            public void second() {
            }
        });
    }
}
