package dev.orrery.explorer;

import dev.orrery.ecs.component.Entity;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.TickProgress;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The explorer's routes: the page and its libraries, the JSON API, the event stream and the
 * edit endpoint, behind the {@link Guard} (a foreign {@code Host} is refused; a change needs
 * the session token and this origin).
 *
 * <pre>
 * GET  /                       the page (also /app.js, /app.css, /favicon.svg)
 * GET  /webjars/...            uPlot and viz.js from their WebJars
 * GET  /api                    this list
 * GET  /api/session            the session token a change carries, and what is on (edits, map)
 * GET  /api/summary            tick, rate, tick-time percentiles (10 s), per-system time, heap, state
 *                              (200 with live false and whyNotLive when no safe point comes)
 * GET  /api/history            the kept per-tick and per-second figures, for the charts
 * GET  /api/stream             Server-Sent Events: the summary and the new ticks, four times a second
 * GET  /api/graph              phases, systems, sync points, edges, DOT text
 * GET  /api/systems            per system: phase, kind, matched archetypes and entities, jobs, time
 * GET  /api/archetypes         archetypes with rows and chunks; sparse columns; relations
 * GET  /api/query?q=Q&amp;page=P    a query's count, archetypes and a page of entities with fields
 * GET  /api/tree?parent=ID     the ChildOf tree one level at a time (no parent: the roots)
 * GET  /api/search?q=TEXT      entities by id; components, relations, resources, systems by name
 * GET  /api/entity?id=N        one entity's components, fields (editable or why not), relations
 * GET  /api/named              component types with named instances
 * GET  /api/resources          resources with their values
 * GET  /api/map?max=N          the live map's points (404 without a map source)
 * GET  /api/edits?entity=N     the edits made on the page with their outcomes
 * GET  /api/timeline           the recording's span and the replay's state (given a Timeline)
 * GET  /api/past/entity?tick=T&amp;id=N       an entity as it was after tick T
 * GET  /api/past/query?tick=T&amp;q=Q         a query's matches as they were after tick T
 * GET  /api/past/diff?from=A&amp;to=B&amp;id=N   an entity's fields that differ between two ticks (or q=Q)
 * POST /api/edit               entity, component, field, value (form); header X-Orrery-Token
 * </pre>
 *
 * <p><b>Threading:</b> requests run on the server's request threads; every world read goes
 * through the explorer's {@link SafePoint}. {@link #start} and {@link #stop} on the thread
 * that attaches and closes the explorer.
 */
final class Routes {
    /** How long an answer is shared among the requests that ask for it (a page refreshes every second). */
    static final long SHARE_NANOS = 250_000_000L;
    private static final int DEFAULT_MAP_POINTS = 20_000;
    private static final int MAX_MAP_POINTS = 200_000;
    private static final int DEFAULT_PAGE = 50;
    private static final int MAX_PAGE_NUMBER = 1_000_000;
    private static final String AFTER = "-1 (all) or the seq of the answer before";
    /** Longest value an edit may carry (a number or a boolean is far shorter). */
    static final int MAX_VALUE = EditForm.MAX_VALUE;
    private static final Pattern WEBJAR = Pattern.compile("(uplot|viz\\.js)/[0-9.]+/[A-Za-z0-9._/-]+");
    private static final Map<String, String> PAGE = Map.of("/app.js", "web/app.js", "/app.css", "web/app.css",
            "/favicon.svg", "web/favicon.svg", "/favicon.ico", "web/favicon.svg");
    private static final String API = "GET /api/session, /api/summary, /api/history, /api/stream, /api/graph, "
            + "/api/systems, /api/archetypes, /api/query?q=, /api/tree?parent=, /api/search?q=, /api/entity?id=, "
            + "/api/named, /api/resources, /api/map?max=, /api/edits, /api/timeline, /api/past/entity?tick=&id=, "
            + "/api/past/query?tick=&q=, /api/past/diff?from=&to=&id=|q=; POST /api/edit";

    /** Large answers sent a second at most, all clients together. */
    static final long PACED_BYTES_PER_SECOND = 4L * 1024 * 1024;
    /** How long the live map's sample is shared: the page asks twice a second. */
    static final long MAP_SHARE_NANOS = 500_000_000L;

    private final Explorer explorer;
    private final Browse browse = new Browse();
    private final Pacer pacer = new Pacer(PACED_BYTES_PER_SECOND, 2L * 1024 * 1024);
    /** The last map sample's point count, to size the next one's arrays. */
    private volatile int lastMapPoints = 1024;
    private final Streams streams;
    private final WebServer server;
    private Guard guard;
    private byte[] page;

    Routes(Explorer explorer) {
        this.explorer = explorer;
        this.streams = new Streams(new Streams.Source() {
            @Override
            public String event() {
                return explorer.event();
            }

            @Override
            public void second() {
                explorer.second();
            }
        });
        this.server = new WebServer(this::handle, streams);
    }

    void start(InetSocketAddress address) throws IOException {
        server.start(address);
        guard = new Guard(address.getAddress(), server.address().getPort());
        String html;
        try (InputStream in = Explorer.class.getResourceAsStream("web/index.html")) {
            if (in == null) {
                server.stop();
                throw new IOException("the explorer's page is not in its jar; rebuild the explorer module");
            }
            html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        page = html.replace("{{token}}", guard.token()).getBytes(StandardCharsets.UTF_8);
        streams.start();
    }

    InetSocketAddress address() {
        return server.address();
    }

    void stop() {
        server.stop();
        streams.stop();
    }

    Streams streams() {
        return streams;
    }

    WebServer server() {
        return server;
    }

    Guard guard() {
        return guard;
    }

    Browse browse() {
        return browse;
    }

    private void handle(WebServer.Request r, WebServer.Exchange ex) throws IOException {
        String refused = guard.checkHost(r.header("host"));
        if (refused != null) {
            fail(ex, 421, refused);
            return;
        }
        String path = r.path();
        Map<String, String> q;
        try {
            path = path(path);
            q = query(r.rawQuery());
        } catch (IllegalArgumentException e) {
            fail(ex, 400, "the address has a bad %-escape (" + e.getMessage() + "); escape '%' as %25");
            return;
        }
        String method = r.method();
        if (path.equals("/api/edit")) {
            if (!method.equals("POST")) {
                fail(ex, 405, "POST the edit as a form (entity, component, field, value) with the "
                        + Guard.TOKEN_HEADER + " header", Map.of("Allow", "POST"));
                return;
            }
            String no = guard.checkChange(r);
            if (no != null) {
                fail(ex, 403, no);
                return;
            }
            Map<String, String> form;
            try {
                form = query(new String(r.body(), StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                fail(ex, 400, "the form has a bad %-escape (" + e.getMessage() + "); escape '%' as %25");
                return;
            }
            edit(ex, form);
            return;
        }
        if (!method.equals("GET") && !method.equals("HEAD")) {
            fail(ex, 405, method + " " + path + " is not served; the API is read with GET, and an edit is a POST to "
                    + "/api/edit", Map.of("Allow", "GET, HEAD"));
            return;
        }
        if (path.equals("/api") || path.startsWith("/api/")) {
            explorer.touched();
            try {
                api(ex, path.equals("/api") ? "" : path.substring(5), q);
            } catch (SafePoint.Unavailable e) {
                fail(ex, 503, e.getMessage(), Map.of("Retry-After", "1"));
            } catch (QueryText.BadQuery e) {
                fail(ex, 400, e.getMessage());
            }
        } else if (path.equals("/") || path.equals("/index.html")) {
            ex.send(200, "text/html", page, Map.of("Cache-Control", "no-store", "Content-Security-Policy",
                    "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; "
                            + "img-src 'self' data: blob:; connect-src 'self'; worker-src 'self' blob:; "
                            + "frame-ancestors 'none'; form-action 'self'"));
        } else if (PAGE.containsKey(path)) {
            resource(ex, Explorer.class.getResourceAsStream(PAGE.get(path)), path);
        } else if (path.startsWith("/webjars/") && WEBJAR.matcher(path.substring(9)).matches()
                && !path.contains("..")) {
            resource(ex, Explorer.class.getClassLoader().getResourceAsStream("META-INF/resources" + path), path);
        } else {
            fail(ex, 404, "no page or API at " + path + "; open / for the explorer, or GET /api for the API");
        }
    }

    private void api(WebServer.Exchange ex, String name, Map<String, String> q)
            throws IOException, SafePoint.Unavailable {
        Simulation sim = explorer.sim();
        switch (name) {
            case "" -> ok(ex, new Json().beginObject().field("api", API).endObject().toString());
            case "session" -> ok(ex, new Json().beginObject().field("token", guard.token())
                    .field("header", Guard.TOKEN_HEADER).field("edits", explorer.editsEnabled())
                    .field("map", explorer.options().map() != null).endObject().toString());
            case "summary" -> send(ex, summary(sim));
            case "history" -> ok(ex, explorer.history(Params.number(q, "after", -1, AFTER),
                    Params.number(q, "afterSecond", -1, AFTER)));
            case "stream" -> ex.stream();
            case "graph" -> ok(ex, Views.graph(sim));
            case "systems" -> send(ex, explorer.safePoint().shared("systems", SHARE_NANOS,
                    s -> browse.systems(s), explorer::systemsJson));
            case "archetypes" -> shared(ex, "archetypes", s -> browse.archetypesJson(s.world()));
            case "query" -> {
                String text = q.getOrDefault("q", "");
                int size = Params.bounded(q, "size", 1, Browse.MAX_PAGE, DEFAULT_PAGE);
                int pageNo = Params.bounded(q, "page", 0, MAX_PAGE_NUMBER, 0);
                shared(ex, "query:" + size + ":" + pageNo + ":" + text,
                        s -> Json.tickFirst(s.currentTick() - 1, browse.query(s.world(), text, pageNo, size)));
            }
            case "tree" -> {
                long parent = Params.entity(q, "parent", Entity.NULL);
                int size = Params.bounded(q, "size", 1, Browse.MAX_PAGE, 100);
                int pageNo = Params.bounded(q, "page", 0, MAX_PAGE_NUMBER, 0);
                shared(ex, "tree:" + parent + ":" + size + ":" + pageNo, s -> browse.tree(s.world(), parent, pageNo,
                        size));
            }
            case "search" -> {
                String text = q.getOrDefault("q", "");
                shared(ex, "search:" + text, s -> browse.search(s, text));
            }
            case "entity" -> {
                String raw = q.get("id");
                if (raw == null || raw.isBlank()) {
                    fail(ex, 400, "give the entity id: /api/entity?id=123 (a decimal long, or 12v3)");
                    return;
                }
                long id = QueryText.entityId(raw, "id=" + raw);
                shared(ex, "entity:" + id, s -> Json.tickFirst(s.currentTick() - 1,
                        Views.entity(s.world(), id, explorer.editRules())));
            }
            case "named" -> shared(ex, "named", s -> Views.named(s.world()));
            case "resources" -> shared(ex, "resources", Views::resources);
            case "map" -> map(ex, q);
            case "timeline" -> ok(ex, explorer.past() == null ? new Json().beginObject().field("available", false)
                    .field("message", "no recording to travel back in: attach the explorer with ExplorerOptions"
                            + ".withTimeline(Timeline.ofRecording(folder, builder)) (the demo: --record DIR --explore, "
                            + "or --replay DIR --explore)").endObject().toString()
                    : explorer.past().info(explorer.figures().lastTick()));
            case "past/entity", "past/query", "past/diff" -> past(ex, name.substring(5), q);
            case "edits" -> {
                Json json = new Json().beginObject().field("edits", explorer.editsEnabled()).key("list");
                explorer.ledger().write(json, Params.entity(q, "entity", 0), 50);
                ok(ex, json.endObject().toString());
            }
            default -> fail(ex, 404, "no API /api/" + name + "; the API is " + API);
        }
    }

    /** The timeline's reads: an entity or a query at a past tick, or their diff between two ticks. */
    private void past(WebServer.Exchange ex, String what, Map<String, String> q)
            throws IOException, SafePoint.Unavailable {
        PastWorlds past = explorer.past();
        if (past == null) {
            fail(ex, 404, "no recording to travel back in; see GET /api/timeline");
            return;
        }
        try {
            switch (what) {
                case "entity" -> ok(ex, past.entity(Params.tick(q, "tick"), Params.requiredEntity(q, "id")));
                case "query" -> ok(ex, past.query(Params.tick(q, "tick"), q.getOrDefault("q", ""),
                        Params.bounded(q, "page", 0, MAX_PAGE_NUMBER, 0),
                        Params.bounded(q, "size", 1, Browse.MAX_PAGE, DEFAULT_PAGE)));
                default -> {
                    long from = Params.tick(q, "from");
                    long to = Params.tick(q, "to");
                    if (q.containsKey("id")) {
                        ok(ex, past.diffEntity(from, to, Params.requiredEntity(q, "id")));
                    } else if (q.containsKey("q")) {
                        ok(ex, past.diffQuery(from, to, q.get("q")));
                    } else {
                        fail(ex, 400, "a diff needs id=ENTITY or q=QUERY, with from=TICK and to=TICK");
                    }
                }
            }
        } catch (PastWorlds.Refused e) {
            fail(ex, e.status, e.getMessage());
        }
    }

    /**
     * The summary: its state read at a safe point, or, when none comes (the run stopped, never
     * started, failed, between hosts, closed), the figures with what any thread may read of the
     * state and why the world is not shown ({@code live} false, {@code whyNotLive}), so a paused
     * run's page keeps its figures. A request thread; the world and the figures are read at the
     * safe point, on the tick thread.
     */
    private byte[] summary(Simulation sim) {
        try {
            // The figures too at the safe point: no tick ends while they are summarized, so the
            // figures' tick is the state's (a run ticking fast ended thousands of ticks between a
            // state read here and figures summarized on this thread, more than the figures keep).
            return explorer.safePoint().shared("summary", SHARE_NANOS, s -> {
                Json json = new Json().beginObject();
                Views.state(s, json);
                return explorer.summary(json.endObject().toString(), s.currentTick() - 1, null);
            }, bytes -> bytes);
        } catch (SafePoint.Unavailable e) {
            TickProgress p = sim.progress();
            return explorer.summary(Views.stateOffTick(sim, p), p.nextTick() - 1, e.getMessage());
        }
    }

    private void shared(WebServer.Exchange ex, String key, Function<Simulation, String> read)
            throws IOException, SafePoint.Unavailable {
        send(ex, explorer.safePoint().shared(key, SHARE_NANOS, read, s -> s.getBytes(StandardCharsets.UTF_8)));
    }

    private void map(WebServer.Exchange ex, Map<String, String> q) throws IOException, SafePoint.Unavailable {
        MapSource source = explorer.options().map();
        if (source == null) {
            fail(ex, 404, "this simulation has no map; attach the explorer with ExplorerOptions.withMap(source)");
            return;
        }
        int max = Params.bounded(q, "max", 1, MAX_MAP_POINTS, DEFAULT_MAP_POINTS);
        // The tick thread only fills the points; the JSON is written here, once per share window.
        send(ex, explorer.safePoint().shared("map:" + max, MAP_SHARE_NANOS, s -> {
            MapPoints points = new MapPoints(max, lastMapPoints);
            source.sample(points);
            lastMapPoints = points.size();
            return points;
        }, points -> {
            Json json = new Json().beginObject().field("width", source.width()).field("height", source.height())
                    .key("kinds").beginArray();
            source.kinds().forEach(json::value);
            json.endArray();
            points.writeTo(json);
            return json.endObject().toString().getBytes(StandardCharsets.UTF_8);
        }));
    }

    private void edit(WebServer.Exchange ex, Map<String, String> form) throws IOException {
        explorer.touched();
        EditSink sink = explorer.options().edits();
        if (sink == null) {
            fail(ex, 403, "edits are off; attach the explorer with ExplorerOptions.withEdits(sink) "
                    + "(the demo: --explore-edits)");
            return;
        }
        EditForm asked; // what the request says; EditRules.check then reads it against the world
        try {
            asked = EditForm.of(form);
        } catch (QueryText.BadQuery e) {
            fail(ex, 400, e.getMessage());
            return;
        }
        long entity = asked.entity();
        String component = asked.component();
        String field = asked.field();
        String typed = asked.value();
        String no;
        try {
            // the names first (a mistyped one is named, not refused for the sink's reasons), then
            // whether the field may be edited, then the value's type, against the world as it is now
            no = explorer.safePoint().call(s -> explorer.editRules().check(s.world(), component, field, typed));
        } catch (SafePoint.Unavailable e) {
            fail(ex, 503, e.getMessage() + " (the edit was not made)", Map.of("Retry-After", "1"));
            return;
        }
        Edit edit = explorer.ledger().open(entity, component, field, typed);
        if (no == null) {
            try {
                no = sink.submit(edit);
            } catch (RuntimeException e) {
                no = "the application's EditSink failed: " + e;
            }
        }
        if (no != null) {
            edit.refused(no);
        }
        Json json = new Json();
        explorer.ledger().write(json, edit, System.currentTimeMillis());
        send(ex, no == null ? 202 : 409, json.toString());
    }

    private void ok(WebServer.Exchange ex, String json) throws IOException {
        send(ex, json.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends an answer, waiting its turn at the {@link Pacer} when it is large. */
    private void send(WebServer.Exchange ex, byte[] json) throws IOException {
        try {
            if (!pacer.acquire(json.length)) {
                fail(ex, 503, "the explorer is sending large answers as fast as it lets itself ("
                        + PACED_BYTES_PER_SECOND / (1024 * 1024) + " MB/s, so the simulation keeps its cores); "
                        + "retry in a moment", Map.of("Retry-After", "2"));
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while pacing an answer", e);
        }
        ex.send(200, "application/json", json, Map.of());
    }

    private static void send(WebServer.Exchange ex, int status, String json) throws IOException {
        ex.send(status, "application/json", json, Map.of());
    }

    private void resource(WebServer.Exchange ex, InputStream in, String path) throws IOException {
        if (in == null) {
            fail(ex, 404, path + " is not in the explorer's jar; rebuild the explorer module");
            return;
        }
        byte[] bytes;
        try (in) {
            bytes = in.readAllBytes();
        }
        ex.send(200, contentType(path), bytes, Map.of("Cache-Control", path.startsWith("/webjars/")
                ? "max-age=3600" : "no-cache"));
    }

    private static String contentType(String path) {
        if (path.endsWith(".js")) {
            return "application/javascript";
        }
        if (path.endsWith(".css")) {
            return "text/css";
        }
        if (path.endsWith(".svg") || path.endsWith(".ico")) {
            return "image/svg+xml";
        }
        return "text/html";
    }

    /** Answers {@code status} with the JSON error body {@code {"error": message}}. */
    static void fail(WebServer.Exchange ex, int status, String message) throws IOException {
        fail(ex, status, message, Map.of());
    }

    static void fail(WebServer.Exchange ex, int status, String message, Map<String, String> headers)
            throws IOException {
        ex.send(status, "application/json", Json.error(message), headers);
    }

    /**
     * A request path with its %-escapes decoded (a '+' in a path is a plus, not a space).
     *
     * @throws IllegalArgumentException for a bad %-escape
     */
    static String path(String raw) {
        return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /**
     * A form or query string's fields (the last of a repeated name wins).
     *
     * @throws IllegalArgumentException for a bad %-escape
     */
    static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            out.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
        }
        return out;
    }

    /** The API's list, for messages and tests. */
    static List<String> api() {
        return List.of(API.split(", "));
    }
}
