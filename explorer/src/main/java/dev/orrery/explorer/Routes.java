package dev.orrery.explorer;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The explorer's HTTP routes on the JDK's built-in server: the page and its libraries, the
 * JSON API, the event stream and the edit endpoint.
 *
 * <pre>
 * GET  /                    the page (also /app.js, /app.css)
 * GET  /webjars/...         uPlot and viz.js from their WebJars
 * GET  /api/summary         tick, rate, tick-time percentiles, per-system time, systems, state
 * GET  /api/graph           phases, systems, sync points, edges, DOT text
 * GET  /api/archetypes      archetypes by column, rows and chunks; sparse columns
 * GET  /api/entity?id=N     one entity's components and fields
 * GET  /api/named           component types with named instances
 * GET  /api/resources       resources; those with a codec with size and value
 * GET  /api/map?max=N       the live map's points (404 without a map source)
 * GET  /api/stream          Server-Sent Events: the summary figures four times a second
 * POST /api/edit            entity, component, field, value (form-encoded); 403 while edits are off
 * </pre>
 *
 * <p><b>Threading:</b> requests run on a pool of daemon threads; every world read goes
 * through the explorer's {@link SafePoint}. {@link #start} and {@link #stop} on the thread
 * that attaches and closes the explorer.
 */
final class Routes {
    /** Streams open at once; more are answered 503. */
    static final int MAX_STREAMS = 8;
    /** Time between two stream events. */
    static final long STREAM_PERIOD_MILLIS = 250;
    private static final long SECOND = 1_000_000_000L;
    private static final int DEFAULT_MAP_POINTS = 20_000;
    private static final int MAX_MAP_POINTS = 200_000;
    private static final Pattern WEBJAR = Pattern.compile("(uplot|viz\\.js)/[0-9.]+/[A-Za-z0-9._/-]+");
    private static final Map<String, String> PAGE = Map.of("/", "web/index.html", "/index.html", "web/index.html",
            "/app.js", "web/app.js", "/app.css", "web/app.css");

    private final Explorer explorer;
    private final Views views = new Views();
    private HttpServer server;
    private ExecutorService pool;
    private volatile boolean stopping;

    Routes(Explorer explorer) {
        this.explorer = explorer;
    }

    void start(InetSocketAddress address) throws IOException {
        server = HttpServer.create(address, 16);
        pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "orrery-explorer-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    InetSocketAddress address() {
        return server.getAddress();
    }

    void stop() {
        stopping = true;
        server.stop(0);
        pool.shutdownNow();
        try {
            pool.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            if (path.equals("/api/edit")) {
                if (!method.equals("POST")) {
                    fail(ex, 405, "POST the edit as a form: entity, component, field, value");
                } else {
                    edit(ex);
                }
                return;
            }
            if (!method.equals("GET") && !method.equals("HEAD")) {
                fail(ex, 405, method + " is not served here; the API is read with GET");
                return;
            }
            if (path.startsWith("/api/")) {
                explorer.touched();
                api(ex, path.substring(5), query(ex.getRequestURI().getRawQuery()));
            } else if (PAGE.containsKey(path)) {
                resource(ex, Explorer.class.getResourceAsStream(PAGE.get(path)), path);
            } else if (path.startsWith("/webjars/") && WEBJAR.matcher(path.substring(9)).matches()
                    && !path.contains("..")) {
                resource(ex, Explorer.class.getClassLoader().getResourceAsStream("META-INF/resources" + path), path);
            } else {
                fail(ex, 404, "no page or API at " + path + "; open / for the explorer");
            }
        } catch (RuntimeException e) {
            // a read that failed on the tick thread (a bad id, say): the page shows the message
            fail(ex, 500, String.valueOf(e.getMessage()));
        }
    }

    private void api(HttpExchange ex, String name, Map<String, String> q) throws IOException {
        Simulation sim = explorer.sim();
        switch (name) {
            case "summary" -> answer(ex, s -> summary(s));
            case "graph" -> send(ex, 200, "application/json", Views.graph(sim));
            case "archetypes" -> answer(ex, s -> views.archetypes(s.world()));
            case "entity" -> {
                Long id = parseLong(q.get("id"));
                if (id == null) {
                    fail(ex, 400, "give the entity id as a decimal number: /api/entity?id=123");
                } else {
                    answer(ex, s -> Views.entity(s.world(), id));
                }
            }
            case "named" -> answer(ex, s -> Views.named(s.world()));
            case "resources" -> answer(ex, Views::resources);
            case "map" -> map(ex, q);
            case "stream" -> stream(ex);
            default -> fail(ex, 404, "no API /api/" + name + "; see the list in Routes");
        }
    }

    /** The summary: rate and tick times of the last second, systems and their times, and the state. */
    private String summary(Simulation s) {
        Json json = new Json().beginObject();
        explorer.figures().summarize(System.nanoTime(), SECOND, json);
        json.key("systemNames").beginArray();
        Views.systemNames(s).forEach(json::value);
        json.endArray().field("edits", explorer.editsEnabled()).field("map", explorer.options().map() != null);
        Views.state(s, json);
        return json.endObject().toString();
    }

    private void map(HttpExchange ex, Map<String, String> q) throws IOException {
        MapSource source = explorer.options().map();
        if (source == null) {
            fail(ex, 404, "this simulation has no map; attach the explorer with "
                    + "ExplorerOptions.withMap(source)");
            return;
        }
        Long asked = parseLong(q.get("max"));
        int max = asked == null ? DEFAULT_MAP_POINTS : (int) Math.max(1, Math.min(MAX_MAP_POINTS, asked));
        answer(ex, s -> {
            MapPoints points = new MapPoints(max);
            source.sample(points);
            Json json = new Json().beginObject().field("width", source.width()).field("height", source.height())
                    .key("kinds").beginArray();
            source.kinds().forEach(json::value);
            json.endArray();
            points.writeTo(json);
            return json.endObject().toString();
        });
    }

    /** Streams the summary figures until the client goes or the explorer closes. */
    private void stream(HttpExchange ex) throws IOException {
        if (explorer.streams().incrementAndGet() > MAX_STREAMS) {
            explorer.streams().decrementAndGet();
            fail(ex, 503, "already " + MAX_STREAMS + " streams open; close a page");
            return;
        }
        try {
            ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
            ex.getResponseHeaders().set("Cache-Control", "no-store");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            while (!stopping) {
                Json json = new Json().beginObject();
                explorer.figures().summarize(System.nanoTime(), SECOND, json);
                out.write(("data: " + json.endObject() + "\n\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                Thread.sleep(STREAM_PERIOD_MILLIS);
            }
        } catch (IOException | InterruptedException gone) {
            // the client closed the page, or the explorer is closing
        } finally {
            explorer.streams().decrementAndGet();
        }
    }

    private void edit(HttpExchange ex) throws IOException {
        explorer.touched();
        EditSink sink = explorer.options().edits();
        if (sink == null) {
            fail(ex, 403, "edits are off; attach the explorer with ExplorerOptions.withEdits "
                    + "(the demo: --explore-edits)");
            return;
        }
        Map<String, String> form = query(new String(ex.getRequestBody().readNBytes(4096), StandardCharsets.UTF_8));
        Long entity = parseLong(form.get("entity"));
        String component = form.get("component");
        String field = form.get("field");
        String value = form.get("value");
        if (entity == null || component == null || field == null || value == null) {
            fail(ex, 400, "an edit needs entity (decimal id), component, field and value");
            return;
        }
        String refused = sink.submit(entity, component, field, value.strip());
        if (refused != null) {
            fail(ex, 409, refused);
            return;
        }
        Json json = new Json().beginObject().field("taken", true).key("outcomes").beginArray();
        List<String> outcomes = sink.outcomes();
        outcomes.forEach(json::value);
        send(ex, 200, "application/json", json.endArray().endObject().toString());
    }

    /** Runs {@code read} at a safe point and sends its JSON, or 503 when the tick thread does not get to it. */
    private void answer(HttpExchange ex, Function<Simulation, String> read) throws IOException {
        String body;
        try {
            body = explorer.safePoint().call(read);
        } catch (SafePoint.Unavailable e) {
            fail(ex, 503, e.getMessage());
            return;
        }
        send(ex, 200, "application/json", body);
    }

    private void resource(HttpExchange ex, InputStream in, String path) throws IOException {
        if (in == null) {
            fail(ex, 404, path + " is not in the explorer's jar; rebuild the explorer module");
            return;
        }
        byte[] bytes;
        try (in) {
            bytes = in.readAllBytes();
        }
        ex.getResponseHeaders().set("Cache-Control", "max-age=60");
        send(ex, 200, contentType(path), bytes);
    }

    private static String contentType(String path) {
        if (path.endsWith(".js")) {
            return "application/javascript";
        }
        if (path.endsWith(".css")) {
            return "text/css";
        }
        return "text/html";
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        send(ex, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
        boolean head = ex.getRequestMethod().equals("HEAD");
        ex.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Answers {@code status} with the JSON error body {@code {"error": message}}. */
    private static void fail(HttpExchange ex, int status, String message) throws IOException {
        send(ex, status, "application/json", error(message));
    }

    private static String error(String message) {
        return new Json().beginObject().field("error", message).endObject().toString();
    }

    private static Long parseLong(String s) {
        if (s == null) {
            return null;
        }
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A form or query string's fields (the last of a repeated name wins). */
    static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            out.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return out;
    }
}
