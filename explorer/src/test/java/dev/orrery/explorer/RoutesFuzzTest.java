package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.orrery.ecs.Query;
import dev.orrery.engine.Simulation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Coverage-guided fuzzing of the explorer's whole request path: a client's bytes sent on a
 * socket to a running explorer over a small simulation ({@link FuzzWorld}, edits on, a map),
 * read by {@link RequestReader}, checked by the {@link Guard} and routed by {@code Routes.handle}.
 * The input is the request as sent, with three stand-ins the harness replaces: {@code {H}} by
 * the explorer's own {@code Host} ({@code 127.0.0.1:port}), {@code {O}} by its origin and
 * {@code {T}} by the session token, which a fuzzer cannot guess.
 *
 * <p>Whatever the bytes: no bytes get no answer; a request the reader refuses is answered
 * with the reader's status; every other gets one well-formed HTTP/1.1 response (status line,
 * headers, the security headers, a {@code Content-Length} that matches the body, none for a
 * {@code HEAD}, or the head of an event stream for {@code /api/stream}) with a status from
 * {@link #STATUSES} (never 500: no exception of a route escapes) and of bounded size; a request
 * with a foreign or no {@code Host} gets a 421 and nothing else; the session token is in an
 * answer only to a request with the explorer's own {@code Host} for the page or
 * {@code /api/session} (or one that sent it); an edit reaches the {@link EditSink} only from a
 * {@code POST /api/edit} with the own {@code Host}, the token, and no foreign origin; and no
 * request changes the world (its snapshot bytes are the same after every request: reads run
 * between ticks and change nothing, an edit goes only to the sink).
 *
 * <p>One explorer serves every input of a run (starting one takes a port and threads); the
 * harness's own thread is the simulation's tick thread and answers the explorer's waiting
 * reads ({@link SafePoint#drain}) while it waits for the answer. {@code mvn verify} runs the
 * committed corpus ({@code RoutesFuzzTestInputs/handleRequest}); a longer run is described in
 * docs/design/engine-and-cluster.md.
 */
class RoutesFuzzTest {
    private static final int MAX_INPUT = WebServer.MAX_HEAD + WebServer.MAX_BODY + 1024;
    /** Every status an answer may have: the reader's refusals, the guard's and the routes'. */
    private static final Set<Integer> STATUSES = Set.of(200, 202, 400, 403, 404, 405, 409, 413, 421, 431, 501, 503);
    /**
     * The largest answer: the largest file the page loads (viz.js's full renderer, about 2 MB)
     * with room to spare; no answer grows with the request beyond an echo of its bounded head.
     */
    private static final int MAX_ANSWER = 4 * 1024 * 1024;
    /** The largest JSON answer over this small world, error messages that echo the head included. */
    private static final int MAX_JSON = 512 * 1024;
    private static final long ANSWER_NANOS = 30_000_000_000L;
    private static final List<String> SECURITY_HEADERS = List.of("connection: close",
            "x-content-type-options: nosniff", "referrer-policy: no-referrer",
            "cross-origin-resource-policy: same-origin", "x-frame-options: deny");

    @FuzzTest(maxDuration = "10m")
    // libFuzzer's dictionary format: a line end is written \\x0D\\x0A
    @DictionaryEntries({"{H}", "{O}", "{T}", "Host: {H}\\x0D\\x0A", "Origin: {O}\\x0D\\x0A",
        "X-Orrery-Token: {T}\\x0D\\x0A", "Sec-Fetch-Site: ", "Content-Length: ", "\\x0D\\x0A\\x0D\\x0A", "GET ",
        "HEAD ", "POST ", " HTTP/1.1\\x0D\\x0A", "/api/edit", "/api/entity?id=", "/api/query?q=", "/api/search?q=",
        "/api/tree?parent=", "/api/map?max=", "/api/past/diff", "/api/session", "/api/stream", "/webjars/uplot/",
        "entity=", "&component=Health&field=hp&value=", "%2", "changed(", "ChildOf(*)"})
    void handleRequest(byte[] data) throws Throwable {
        if (data.length > MAX_INPUT) {
            return; // the reader stops at its limits; longer inputs add nothing
        }
        Served s = Served.get();
        try {
            s.tick.submit(() -> {
                s.check(data);
                return null;
            }).get();
        } catch (ExecutionException e) {
            throw e.getCause();
        }
    }

    /** The explorer every input is sent to, with its simulation and the tick thread that owns it. */
    private static final class Served {
        private static Served served;

        final ExecutorService tick = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "routes-fuzz-tick");
            t.setDaemon(true);
            return t;
        });
        final List<Edit> submitted = new CopyOnWriteArrayList<>();
        FuzzWorld fw;
        Simulation sim;
        Explorer explorer;
        String host;
        String origin;
        String token;
        Set<String> ownHosts;
        byte[] snapshot;

        static synchronized Served get() throws Exception {
            if (served == null) {
                Served s = new Served();
                s.tick.submit(() -> {
                    s.start();
                    return null;
                }).get(60, TimeUnit.SECONDS);
                served = s;
            }
            return served;
        }

        private void start() throws IOException {
            fw = new FuzzWorld();
            Query withPos = fw.world.query().with(fw.pos).build();
            sim = Simulation.builder(fw.world).seed(1).workers(1).hashEvery(0)
                    .systems(s -> s.system("look").query(withPos).reads(fw.pos).forEachChunk(job -> { })).build();
            sim.bindTickThread();
            EditSink sink = new EditSink() {
                @Override
                public String submit(Edit edit) {
                    submitted.add(edit);
                    return edit.value().equals("99") ? "BUSY the input queue is full; retry in a moment" : null;
                }

                @Override
                public String readOnly(String component, String field) {
                    return component.equals("Frozen") ? "FORBIDDEN Frozen is server-owned" : null;
                }
            };
            explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withEdits(sink).withMap(map(withPos))
                    .withRequestTimeout(java.time.Duration.ofSeconds(10)));
            int port = explorer.port();
            host = "127.0.0.1:" + port;
            origin = "http://" + host;
            token = explorer.routes().guard().token();
            ownHosts = Set.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port);
            snapshot = sim.snapshot();
        }

        private MapSource map(Query withPos) {
            return Fixture.positions(withPos, fw.pos.field("x"), fw.pos.field("y"), 100);
        }

        /** Sends one input and checks the answer. The tick thread. */
        void check(byte[] data) throws IOException {
            byte[] sent = new String(data, StandardCharsets.ISO_8859_1).replace("{H}", host).replace("{O}", origin)
                    .replace("{T}", token).getBytes(StandardCharsets.ISO_8859_1);
            WebServer.Request r;
            int refusal = 0;
            try {
                r = RequestReader.read(Channels.newChannel(new ByteArrayInputStream(sent)));
            } catch (WebServer.BadRequest bad) {
                r = null;
                refusal = bad.status;
            }
            int before = submitted.size();
            byte[] answer = exchange(sent);
            String edits = submitted.size() == before ? "" : " edits " + submitted.subList(before, submitted.size());
            if (r == null && refusal == 0) {
                assertEquals(0, answer.length, "an answer to no request");
                return;
            }
            Answer a = Answer.parse(answer, r != null && r.method().equals("HEAD"));
            String what = (r == null ? "refused request" : r.method() + " " + r.path()) + " -> " + a.status;
            if (refusal != 0) {
                assertEquals(refusal, a.status, "the reader's refusal: " + a);
                assertEquals(before, submitted.size(), "an edit from a refused request");
                return;
            }
            assertTrue(STATUSES.contains(a.status), "status " + a.status + ": " + a);
            String hostHeader = r.header("host");
            boolean ownHost = hostHeader != null && ownHosts.contains(hostHeader.toLowerCase(Locale.ROOT));
            if (!ownHost) {
                assertEquals(421, a.status, "a request to Host " + hostHeader + " was served: " + a);
                assertTrue(a.json(), what);
            }
            String path = decodedPath(r);
            boolean asksForToken = ownHost && (r.method().equals("GET") || r.method().equals("HEAD"))
                    && (path.equals("/") || path.equals("/index.html") || path.equals("/api/session"));
            if (!asksForToken && !contains(sent, token.getBytes(StandardCharsets.ISO_8859_1))) {
                assertTrue(!contains(a.body, token.getBytes(StandardCharsets.ISO_8859_1)),
                        "the session token in the answer to " + what + ": " + a);
            }
            boolean mayEdit = ownHost && r.method().equals("POST") && path.equals("/api/edit")
                    && token.equals(r.header(Guard.TOKEN_HEADER)) && (r.header("origin") == null
                    || r.header("origin").toLowerCase(Locale.ROOT).equals(origin))
                    && Set.of("same-origin", "none").contains(r.headers().getOrDefault("sec-fetch-site", "none"));
            if (!mayEdit) {
                assertEquals(before, submitted.size(), "an edit reached the sink from " + what + edits);
                assertTrue(a.status != 202 && a.status != 409, "an edit's answer to " + what + ": " + a);
            }
            assertTrue(submitted.size() <= before + 1, "one request, several edits:" + edits);
            assertTrue(Arrays.equals(snapshot, sim.snapshot()), "the world changed after " + what + ": " + a);
        }

        private static String decodedPath(WebServer.Request r) {
            try {
                return Routes.path(r.path());
            } catch (IllegalArgumentException badEscape) {
                return r.path();
            }
        }

        /**
         * Sends {@code request} on a new connection, closes the sending side, and reads the
         * answer until the server closes (or an event stream's head is in), answering the
         * explorer's waiting reads meanwhile.
         */
        private byte[] exchange(byte[] request) throws IOException {
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try (SocketChannel c = SocketChannel.open(new InetSocketAddress("127.0.0.1", explorer.port()))) {
                c.configureBlocking(false);
                ByteBuffer out = ByteBuffer.wrap(request);
                ByteBuffer in = ByteBuffer.allocate(64 * 1024);
                boolean shut = false;
                long start = System.nanoTime();
                while (true) {
                    try {
                        if (out.hasRemaining()) {
                            c.write(out);
                        } else if (!shut) {
                            c.shutdownOutput();
                            shut = true;
                        }
                    } catch (IOException closedEarly) { // the server answered before reading it all
                        out.position(out.limit());
                        shut = true;
                    }
                    in.clear();
                    int n = c.read(in);
                    if (n < 0) {
                        break;
                    }
                    if (n > 0) {
                        got.write(in.array(), 0, n);
                        assertTrue(got.size() <= MAX_ANSWER, "an answer over " + MAX_ANSWER + " bytes");
                        if (Answer.isStreamHead(got.toByteArray())) {
                            break;
                        }
                        continue;
                    }
                    if (explorer.safePoint().drain(sim, 10_000_000L) == 0) {
                        LockSupport.parkNanos(20_000);
                    }
                    if (System.nanoTime() - start > ANSWER_NANOS) {
                        fail("no answer within 30 s; so far: " + got.toString(StandardCharsets.ISO_8859_1));
                    }
                }
            }
            return got.toByteArray();
        }
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** One HTTP/1.1 answer as the server sent it, checked for form as it is parsed. */
    private record Answer(int status, List<String> headers, byte[] body) {
        private static final byte[] END = "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);

        static boolean isStreamHead(byte[] b) {
            int end = indexOf(b, END);
            return end >= 0 && new String(b, 0, end, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT)
                    .contains("\r\ncontent-type: text/event-stream");
        }

        static Answer parse(byte[] b, boolean head) {
            int end = indexOf(b, END);
            assertTrue(end > 0, "no head in the answer: " + new String(b, StandardCharsets.ISO_8859_1));
            String[] lines = new String(b, 0, end, StandardCharsets.ISO_8859_1).split("\r\n", -1);
            assertTrue(lines[0].matches("HTTP/1\\.1 [1-5][0-9]{2} [A-Za-z -]+"), "status line: " + lines[0]);
            int status = Integer.parseInt(lines[0].substring(9, 12));
            assertEquals(WebServer.reason(status), lines[0].substring(13), lines[0]);
            List<String> headers = Arrays.stream(lines).skip(1).map(l -> l.toLowerCase(Locale.ROOT)).toList();
            String length = null;
            String type = null;
            for (String h : headers) {
                assertTrue(h.matches("[a-z-]+: [ -~]*"), "header line: " + h);
                if (h.startsWith("content-length: ")) {
                    assertEquals(null, length, "two Content-Lengths: " + headers);
                    length = h.substring(16);
                } else if (h.startsWith("content-type: ")) {
                    type = h.substring(14);
                }
            }
            assertTrue(headers.containsAll(SECURITY_HEADERS), "security headers missing: " + headers);
            assertTrue(type != null, "no Content-Type: " + headers);
            byte[] body = Arrays.copyOfRange(b, end + 4, b.length);
            if (type.startsWith("text/event-stream")) {
                assertEquals(200, status);
                assertEquals(null, length, "an event stream has no length");
                return new Answer(status, headers, body);
            }
            assertTrue(length != null && length.matches("[0-9]{1,9}"), "Content-Length: " + length);
            assertEquals(head ? 0 : Integer.parseInt(length), body.length, "the body's length");
            if (type.startsWith("application/json")) {
                assertTrue(body.length <= MAX_JSON, "a JSON answer of " + body.length + " bytes");
                String text = new String(body, StandardCharsets.UTF_8);
                assertTrue(head || text.startsWith("{") && text.endsWith("}") || text.startsWith("[")
                        && text.endsWith("]"), "not a JSON object or array: " + text);
                if (status == 409) { // an edit refused: its ledger entry with the reason
                    assertTrue(head || text.contains("\"status\":\"refused\",\"reason\":\""), "a 409 without a reason: "
                            + text);
                } else if (status >= 400) {
                    assertTrue(head || text.startsWith("{\"error\":\""), "an error without its message: " + text);
                }
            }
            return new Answer(status, headers, body);
        }

        boolean json() {
            return headers.contains("content-type: application/json; charset=utf-8");
        }

        private static int indexOf(byte[] b, byte[] what) {
            outer:
            for (int i = 0; i + what.length <= b.length; i++) {
                for (int j = 0; j < what.length; j++) {
                    if (b[i + j] != what[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }

        @Override
        public String toString() {
            String text = new String(body, StandardCharsets.UTF_8);
            return status + " " + headers + " " + (text.length() > 400 ? text.substring(0, 400) + "..." : text);
        }
    }
}
