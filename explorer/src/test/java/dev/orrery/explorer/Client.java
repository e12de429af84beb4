package dev.orrery.explorer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** A test's client of one explorer: ordinary requests through java.net.http, hostile ones on a raw socket. */
final class Client {
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final Explorer explorer;

    Client(Explorer explorer) {
        this.explorer = explorer;
    }

    URI uri(String path) {
        return URI.create(explorer.url().substring(0, explorer.url().length() - 1) + path);
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** GETs {@code path}, asserting a 200, and gives its body. */
    String getOk(String path) throws Exception {
        HttpResponse<String> r = get(path);
        org.junit.jupiter.api.Assertions.assertEquals(200, r.statusCode(), path + ": " + r.body());
        return r.body();
    }

    /**
     * GETs until the answer is not 503 (no safe point yet) or 30 s pass; a summary made without
     * a safe point ({@code "live":false}, answered 200) counts as none yet too.
     */
    HttpResponse<String> getTicking(String path) throws Exception {
        long until = System.nanoTime() + 30_000_000_000L;
        HttpResponse<String> r = get(path);
        while ((r.statusCode() == 503 || r.statusCode() == 200 && r.body().contains("\"live\":false"))
                && System.nanoTime() < until) {
            Thread.sleep(50);
            r = get(path);
        }
        return r;
    }

    /**
     * How many entities {@code query} matches now: the {@code count} of {@code /api/query}, asked
     * until there is a safe point ({@link #getTicking}); asserts a 200.
     */
    int queryCount(String query) throws Exception {
        return count(getTicking("/api/query?size=1&q=" + enc(query)), query);
    }

    /**
     * How many entities {@code query} matched after {@code tick} of the timeline's recording: the
     * {@code count} of {@code /api/past/query}; asserts a 200.
     */
    int pastQueryCount(long tick, String query) throws Exception {
        return count(get("/api/past/query?size=1&tick=" + tick + "&q=" + enc(query)), query);
    }

    /** The {@code count} a query answer gives, asserting that {@code r} is a 200. */
    private static int count(HttpResponse<String> r, String query) {
        org.junit.jupiter.api.Assertions.assertEquals(200, r.statusCode(), query + ": " + r.body());
        String b = r.body();
        int at = b.indexOf("\"count\":") + 8;
        return Integer.parseInt(b.substring(at, b.indexOf(',', at)));
    }

    /** {@code s} encoded as a request parameter's value (a query's text). */
    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** POSTs an edit form as the explorer's page does: its origin and the session token. */
    HttpResponse<String> edit(String form) throws Exception {
        return post("/api/edit", form, Map.of("Origin", origin(), Guard.TOKEN_HEADER,
                explorer.routes().guard().token()));
    }

    HttpResponse<String> post(String path, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::setHeader);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    String origin() {
        return "http://127.0.0.1:" + explorer.port();
    }

    /** Sends {@code request} as it is on a new socket and returns all the server answers. */
    String raw(String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", explorer.port()), 10_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.UTF_8);
        }
    }

    /** A raw GET of {@code path} with the given Host header. */
    String rawGet(String path, String host) throws IOException {
        return raw("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
    }

    String host() {
        return "127.0.0.1:" + explorer.port();
    }

    /** The status code of a raw answer. */
    static int status(String answer) {
        if (!answer.startsWith("HTTP/1.1 ")) {
            return -1;
        }
        return Integer.parseInt(answer.substring(9, 12));
    }
}
