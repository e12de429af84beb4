package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The explorer against the hostile clients of a browser's world, each as a test: another
 * origin's page posting an edit, a page that rebinds its host name to 127.0.0.1, a bad
 * %-escape, event streams that never read, hundreds of slow partial requests, and two clients
 * looping the largest read while the simulation ticks. Timing-sensitive checks wait on
 * conditions with generous limits, for a loaded machine.
 */
class HostileClientsTest {
    private final List<String> submitted = new CopyOnWriteArrayList<>();
    private final EditSink sink = edit -> {
        submitted.add(edit.toString());
        return null;
    };

    @Test
    void shouldRefuseAnEditFromAnotherOriginOrWithoutTheSessionToken() throws Exception {
        try (Fixture f = new Fixture(100, 1, 0, (fx, o) -> o.withEdits(sink)).start()) {
            Client c = f.client;
            long unit = f.units[3];
            String form = "entity=" + unit + "&component=Health&field=hp&value=1";
            // the probe of the issue: a simple cross-origin POST a page can send without a preflight
            String evil = c.raw("POST /api/edit HTTP/1.1\r\nHost: " + c.host() + "\r\nOrigin: http://evil.example\r\n"
                    + "Content-Type: text/plain\r\nContent-Length: " + form.length() + "\r\n\r\n" + form);
            assertEquals(403, Client.status(evil), evil);
            assertTrue(evil.contains("origin 'http://evil.example' is refused"), evil);
            String token = f.explorer.routes().guard().token();
            HttpResponse<String> withToken = c.post("/api/edit", form, Map.of("Origin", "http://evil.example",
                    Guard.TOKEN_HEADER, token));
            assertEquals(403, withToken.statusCode(), "the token does not excuse another origin");
            HttpResponse<String> crossSite = c.post("/api/edit", form, Map.of("Sec-Fetch-Site", "cross-site",
                    Guard.TOKEN_HEADER, token));
            assertEquals(403, crossSite.statusCode(), crossSite.body());
            HttpResponse<String> noToken = c.post("/api/edit", form, Map.of("Origin", c.origin()));
            assertEquals(403, noToken.statusCode(), noToken.body());
            assertTrue(noToken.body().contains("carries no X-Orrery-Token"), noToken.body());
            HttpResponse<String> wrongToken = c.post("/api/edit", form, Map.of(Guard.TOKEN_HEADER, "0" + token));
            assertEquals(403, wrongToken.statusCode(), wrongToken.body());
            assertEquals(List.of(), submitted, "no refused request reached the sink");
            HttpResponse<String> ok = c.edit(form);
            assertEquals(202, ok.statusCode(), ok.body());
            assertEquals(1, submitted.size(), submitted.toString());
            assertEquals(405, c.get("/api/edit").statusCode(), "an edit is never a GET");
            assertTrue(c.get("/").body().contains("<meta name=\"orrery-token\" content=\"" + token + "\">"),
                    "the page carries the token");
        }
    }

    @Test
    void shouldRefuseAForeignHostHeader() throws Exception {
        try (Fixture f = new Fixture(100, 1, 0, (fx, o) -> o.withEdits(sink)).start()) {
            Client c = f.client;
            c.getTicking("/api/summary");
            for (String host : new String[] {"evil.example", "evil.example:" + f.explorer.port(), "127.0.0.1:1",
                "localhost.evil.example:" + f.explorer.port()}) {
                String page = c.rawGet("/", host);
                assertEquals(421, Client.status(page), host + ": " + page);
                assertTrue(page.contains("DNS rebinding") && !page.contains("orrery-token"), page);
                assertEquals(421, Client.status(c.rawGet("/api/summary", host)), host);
            }
            String form = "entity=1&component=Health&field=hp&value=1";
            String post = c.raw("POST /api/edit HTTP/1.1\r\nHost: evil.example\r\n" + Guard.TOKEN_HEADER + ": "
                    + f.explorer.routes().guard().token() + "\r\nContent-Length: " + form.length() + "\r\n\r\n" + form);
            assertEquals(421, Client.status(post), post);
            assertEquals(421, Client.status(c.raw("GET /api/summary HTTP/1.1\r\n\r\n")), "no Host at all");
            assertEquals(200, Client.status(c.rawGet("/api/summary", "localhost:" + f.explorer.port())));
            assertEquals(List.of(), submitted);
        }
    }

    @Test
    void shouldAnswerEveryBadRequestWithAStatusAndAMessage() throws Exception {
        try (Fixture f = new Fixture(100, 1, 0, (fx, o) -> o.withEdits(sink)).start()) {
            Client c = f.client;
            String badQuery = c.rawGet("/api/entity?id=%zz", c.host());
            assertEquals(400, Client.status(badQuery), badQuery);
            assertTrue(badQuery.contains("bad %-escape"), badQuery);
            assertEquals(400, Client.status(c.rawGet("/%zz", c.host())));
            assertEquals(400, Client.status(c.rawGet("/api/query?q=Pos&page=%", c.host())));
            HttpResponse<String> badForm = c.edit("entity=1&component=Health&field=hp&value=%zz");
            assertEquals(400, badForm.statusCode(), badForm.body());
            assertTrue(badForm.body().contains("bad %-escape"), badForm.body());
            assertEquals(400, c.get("/api/entity?id=abc").statusCode());
            assertEquals(400, c.get("/api/query?q=Nothing").statusCode());
            assertEquals(400, c.get("/api/query?q=Pos&page=x").statusCode());
            assertEquals(400, Client.status(c.raw("NONSENSE\r\n\r\n")));
            assertEquals(400, Client.status(c.raw("GET http://evil.example/ HTTP/1.1\r\nHost: x\r\n\r\n")));
            assertEquals(431, Client.status(c.raw("GET / HTTP/1.1\r\nHost: " + c.host() + "\r\nX: "
                    + "a".repeat(WebServer.MAX_HEAD) + "\r\n\r\n")));
            assertEquals(413, Client.status(c.raw("POST /api/edit HTTP/1.1\r\nHost: " + c.host()
                    + "\r\nContent-Length: 999999\r\n\r\n")));
            assertEquals(501, Client.status(c.raw("POST /api/edit HTTP/1.1\r\nHost: " + c.host()
                    + "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")));
            assertEquals(405, Client.status(c.raw("DELETE /api/summary HTTP/1.1\r\nHost: " + c.host() + "\r\n\r\n")));
            assertEquals(List.of(), submitted);
        }
    }

    @Test
    void shouldDropEventStreamsThatDoNotRead() throws Exception {
        try (Fixture f = new Fixture(3000, 3, 0, (fx, o) -> o).start()) {
            Client c = f.client;
            c.getTicking("/api/summary");
            List<Socket> idle = new ArrayList<>();
            try {
                for (int i = 0; i < Streams.MAX_STREAMS; i++) {
                    Socket s = new Socket();
                    s.setReceiveBufferSize(2048); // before connecting: a small window that fills soon
                    s.connect(new InetSocketAddress("127.0.0.1", f.explorer.port()), 10_000);
                    s.getOutputStream().write(("GET /api/stream HTTP/1.1\r\nHost: " + c.host() + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    idle.add(s); // and never read
                }
                Streams streams = f.explorer.routes().streams();
                waitFor(() -> streams.size() == Streams.MAX_STREAMS, 30, "the idle streams to open");
                String ninth = c.rawGet("/api/stream", c.host());
                assertEquals(503, Client.status(ninth), "every place is taken while they stay: " + ninth);
                // the hub writes on; the idle streams fill up and are dropped after the stall time
                // The hub removes a stream, then counts it dropped: wait for the count, which comes last
                // (volatile, same thread), then check that none is left open.
                waitFor(() -> streams.dropped() >= Streams.MAX_STREAMS, 90, "the " + Streams.MAX_STREAMS
                        + " streams that do not read to be counted dropped");
                assertEquals(0, streams.size(), "streams still open after " + streams.dropped() + " were dropped");
                HttpResponse<InputStream> fresh = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        c.uri("/api/stream")).build(), HttpResponse.BodyHandlers.ofInputStream());
                assertEquals(200, fresh.statusCode(), "a reading page gets a place again");
                fresh.body().close();
            } finally {
                for (Socket s : idle) {
                    s.close();
                }
            }
        }
    }

    @Test
    void shouldCloseSlowPartialRequestsAtTheDeadlineWithBoundedThreads() throws Exception {
        try (Fixture f = new Fixture(100, 1, 0, (fx, o) -> o).start()) {
            Client c = f.client;
            c.getTicking("/api/summary");
            int before = explorerThreads();
            List<Socket> slow = new ArrayList<>();
            long start = System.nanoTime();
            try {
                for (int i = 0; i < 400; i++) {
                    Socket s = new Socket();
                    s.connect(new InetSocketAddress("127.0.0.1", f.explorer.port()), 10_000);
                    s.setSoTimeout(60_000);
                    OutputStream out = s.getOutputStream();
                    out.write(("GET /api/summary HTTP/1.1\r\nHost: " + c.host() + "\r\nX-Slow: ")
                            .getBytes(StandardCharsets.ISO_8859_1)); // and never the end of the head
                    out.flush();
                    slow.add(s);
                }
                int during = explorerThreads();
                assertTrue(during <= WebServer.WORKERS + 4, "explorer threads under 400 slow requests: " + during
                        + " (before: " + before + ")");
                // one per request thread, one per place in the queue, and the one the acceptor holds
                // between accepting it and closing it for want of a place
                assertTrue(f.explorer.routes().server().openConnections() <= WebServer.WORKERS + WebServer.QUEUED + 1,
                        "connections held: " + f.explorer.routes().server().openConnections());
                // each is closed by the server: at once when no place was free, else at the deadline
                for (Socket s : slow) {
                    assertTrue(closedByServer(s), "a slow request was still open after "
                            + (System.nanoTime() - start) / 1_000_000 + " ms");
                }
                long took = (System.nanoTime() - start) / 1_000_000;
                assertTrue(took < WebServer.REQUEST_DEADLINE_MILLIS + 30_000, "closed after " + took + " ms");
                assertTrue(f.explorer.routes().server().refusedConnections() > 0, "the queue was bounded");
            } finally {
                for (Socket s : slow) {
                    s.close();
                }
            }
            assertEquals(200, c.getTicking("/api/summary").statusCode(), "served again after the attack");
            assertTrue(explorerThreads() <= WebServer.WORKERS + 4);
        }
    }

    @Test
    void shouldHoldTheTickRateWhileTwoClientsLoopTheLargestRead() throws Exception {
        double hz = 30;
        try (Fixture f = new Fixture(50_000, 0, hz, (fx, o) -> o.withMap(fx.map()))) {
            f.start();
            Client c = f.client;
            c.getTicking("/api/summary");
            double quiet = rate(f, 4);
            AtomicBoolean hammer = new AtomicBoolean(true);
            AtomicInteger served = new AtomicInteger();
            AtomicInteger failed = new AtomicInteger();
            List<Thread> clients = new ArrayList<>();
            for (int k = 0; k < 2; k++) {
                Thread t = new Thread(() -> {
                    HttpClient http = HttpClient.newHttpClient();
                    URI uri = c.uri("/api/map?max=200000");
                    while (hammer.get()) {
                        try {
                            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri)
                                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
                            (r.statusCode() == 200 && r.body().length > 500_000 ? served : failed).incrementAndGet();
                        } catch (IOException | InterruptedException e) {
                            failed.incrementAndGet();
                        }
                    }
                }, "hammer-" + k);
                t.setDaemon(true);
                t.start();
                clients.add(t);
            }
            double loaded;
            try {
                rate(f, 2); // the clients get going
                loaded = rate(f, 6);
            } finally {
                hammer.set(false);
                for (Thread t : clients) {
                    t.join(30_000);
                }
            }
            assertTrue(served.get() >= 10, "the clients were served: " + served + " (failed " + failed + ")");
            // The two clients' answers are encoded on request threads that share the machine's cores
            // with the tick thread, so on a loaded two-core machine the tick loses some CPU to them
            // (0.84-0.89 of the quiet rate in 2 of 9 runs beside two busy loops): the bound is 0.75.
            // A read that held the tick while its answer is encoded (tens of ms per answer, looped)
            // would take far more; the explorer's own time per tick is checked exactly below.
            assertTrue(loaded >= 0.75 * Math.min(quiet, hz), String.format(
                    "ticks per second: %.1f quiet, %.1f with two clients looping the map (served %d)", quiet,
                    loaded, served.get()));
            double own = meanExplorerMillis(c);
            assertTrue(own < 0.1 * 1000 / hz, "the explorer's mean time per tick: " + own + " ms");
        }
    }

    /** Ticks per second over {@code seconds}, from the simulation's own counter. */
    private static double rate(Fixture f, int seconds) throws InterruptedException {
        long t0 = f.explorer.figures().recorded(); // a volatile count the tick thread publishes
        long n0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        return (f.explorer.figures().recorded() - t0) * 1e9 / (System.nanoTime() - n0);
    }

    /** The mean of the explorer's own milliseconds per tick over the kept history. */
    private static double meanExplorerMillis(Client c) throws Exception {
        String h = c.get("/api/history").body();
        int at = h.indexOf("\"explorerMs\":[") + 14;
        String[] values = h.substring(at, h.indexOf(']', at)).split(",");
        double sum = 0;
        for (String v : values) {
            sum += Double.parseDouble(v);
        }
        return sum / values.length;
    }

    private static int explorerThreads() {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("orrery-explorer") && t.isAlive()) {
                n++;
            }
        }
        return n;
    }

    /** Whether the server closes {@code s} (end of stream or reset) within a minute. */
    private static boolean closedByServer(Socket s) throws IOException {
        try {
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            while (true) {
                if (in.read(buf) < 0) {
                    return true;
                }
            }
        } catch (SocketException reset) {
            return true;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, int seconds, String what)
            throws InterruptedException {
        long until = System.nanoTime() + seconds * 1_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("waited " + seconds + " s for " + what);
            }
            Thread.sleep(50);
        }
    }
}
