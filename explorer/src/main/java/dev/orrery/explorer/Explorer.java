package dev.orrery.explorer;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * A live explorer over a running {@link Simulation}: attached with one call, it serves a page
 * and a JSON API on an HTTP port (loopback unless asked), and streams per-tick figures to the
 * page with Server-Sent Events. The page finds and browses entities (lists per archetype and
 * per query, search, the {@code ChildOf} tree), answers queries typed in it, charts the
 * figures over time, edits fields through the application's {@link EditSink}, and, given a
 * {@link Timeline}, travels back to an earlier tick and diffs two.
 *
 * <pre>{@code
 * try (Simulation sim = Simulation.builder(world).systems(rules).build();
 *      Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(8080))) {
 *     System.out.println("open " + explorer.url());   // http://127.0.0.1:8080/
 *     sim.run(0, 60);                                  // at 60 Hz until stop()
 * }
 * }</pre>
 *
 * <p>It hooks the end of every tick ({@link Simulation#atEndOfTick}), a safe point where no
 * job runs: there it records the tick's figures into a preallocated ring and answers the reads
 * waiting in a bounded queue, until its budget for the tick is spent ({@value #BUDGET_PERCENT}%
 * of the tick's time, at least {@value #MIN_BUDGET_MICROS} microseconds, and at least one
 * read); the JSON is written afterwards, off the tick thread, and shared by the requests of
 * the next quarter second. An HTTP thread waits for its read up to
 * {@link ExplorerOptions#requestTimeout()} and answers 503 after, saying why when it can tell:
 * the world is between two {@code WorldHost}s (it was last seen hosted and is on none now),
 * a system's failure ended the run, no run is in progress (stopped, or not started: then
 * {@link #idle} keeps the page live), a run's tick is late, or the simulation is closed (then
 * at once, since no safe point will come). {@code /api/summary} answers then too, with the
 * figures and what any thread may read of the state, and says why the world is not shown. The simulation's watchdog
 * counts this hook's time as the tick's and names it when it overruns. Systems are timed
 * ({@link Simulation#observeJobs}) only while a client is attached: a stream is open or a
 * request came in the last {@value #ACTIVE_SECONDS} seconds. With no client, a tick pays
 * for a few stores into the ring and one empty-queue poll, and allocates nothing.
 *
 * <p>It is safe to leave running beside a browser: it answers only requests addressed to
 * itself (a foreign {@code Host} is refused), a change needs the session's token and this
 * origin, request heads have a deadline, threads and streams are bounded, and a stream that
 * stops reading is dropped. Edits are off unless {@link ExplorerOptions#edits()} names an
 * {@link EditSink}; the explorer never writes the world itself.
 *
 * <p><b>Threading:</b> {@link #attach} and {@link #close} on the tick thread between ticks
 * (or before the first tick, or after the last); on a world a {@code WorldHost} holds, inside
 * {@code hostedWorld.call}, and {@link #close} also on the thread that took the world back from
 * its host, with or without {@code bindTickThread()} (see {@link #close}); the hook runs on the
 * tick thread, whichever host's pool thread that is (a world moved to another host keeps its
 * explorer); HTTP
 * requests on the explorer's own daemon threads, which reach the world only through the
 * safe-point queue; the timeline replays on a thread of its own. {@link #port()}, {@link #url()}
 * and {@link #editsEnabled()} on any thread; {@link #idle} on the tick thread. Two volatile
 * fields cross threads outside the safe point: the time of the last request (written by the
 * request threads, read by the tick thread to decide whether anyone watches), the
 * archetype count (written by the tick thread at a tick's end, read by the request threads)
 * and the host the world was last seen on (the same); each is a single value, read as it was
 * last written.
 */
public final class Explorer implements AutoCloseable {
    /** Seconds after the last request during which the systems stay timed. */
    public static final int ACTIVE_SECONDS = 5;
    /** The share of a tick's time the explorer's reads may take at its end, in percent. */
    static final int BUDGET_PERCENT = 5;
    /** The least budget for reads at the end of a tick, in microseconds. */
    static final int MIN_BUDGET_MICROS = 100;
    private static final long ACTIVE_NANOS = ACTIVE_SECONDS * 1_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    private final Simulation sim;
    private final ExplorerOptions options;
    private final TickFigures figures;
    private final SecondFigures seconds = new SecondFigures();
    private final SafePoint safePoint;
    private final EditLedger ledger = new EditLedger();
    private final EditRules editRules;
    private final Routes routes;
    private final List<String> systemNames;
    private final PastWorlds past;
    private volatile long lastRequest = System.nanoTime() - 2 * ACTIVE_NANOS;
    /** Archetypes with rows, counted on the tick thread about once a second while a client is attached; -1: not yet. */
    private volatile int archetypes = -1;
    /** The world as its last host named it ({@code world 'name'}), seen at attach or a tick's end; null: never hosted. */
    private volatile String lastHosted;
    /** The simulation's next tick when the explorer was attached (tick thread, at attach). */
    private final long tickAtAttach;
    /** Set (once) by the hook at the end of the first tick after attach; read by any thread. */
    private volatile boolean tickEnded;
    /** Whether the figures observe the jobs now; tick thread. */
    private boolean observing;
    private long lastArchetypeCount;
    private boolean closed;
    /** The last tick and second the stream sent; the stream hub's thread. */
    private long streamedSeq = -1;
    private long streamedSecond = -1;

    private Explorer(Simulation sim, ExplorerOptions options) {
        this.sim = sim;
        this.options = options;
        this.figures = new TickFigures(SchedulerInternals.graph(sim.schedule()).size(), sim.workers());
        this.safePoint = new SafePoint(options.requestTimeout().toNanos(), new SafePoint.Stall() {
            @Override
            public String never() {
                return closedRefusal();
            }

            @Override
            public String late(long waitedMillis) {
                return LateRefusal.why(sim, lastHosted, tickedSinceAttach(), waitedMillis);
            }
        });
        this.lastHosted = EngineInternals.hostedWorld(sim);
        this.tickAtAttach = sim.currentTick();
        this.editRules = new EditRules(options.edits(), sim.world());
        this.systemNames = List.copyOf(Views.systemNames(sim));
        this.past = options.timeline() == null ? null : new PastWorlds(options.timeline(), 30_000);
        this.routes = new Routes(this);
    }

    /**
     * Starts an explorer over {@code sim} and hooks its ticks. Tick thread, between ticks.
     *
     * @param sim the simulation to show, open; not null
     * @param options the port, address, edits, map and timeline ({@link ExplorerOptions#loopback}
     *     for a local, read-only page); not null
     * @return the running explorer; close it to unhook it and free the port
     * @throws IOException when the port cannot be bound (in use, or not allowed); nothing is hooked then
     * @throws IllegalStateException when called off the tick thread of a simulation a
     *     {@code WorldHost} holds (attach inside {@code hostedWorld.call}), or on a closed
     *     simulation; nothing is started then
     * @throws NullPointerException if {@code sim} or {@code options} is null
     */
    public static Explorer attach(Simulation sim, ExplorerOptions options) throws IOException {
        Objects.requireNonNull(sim, "sim");
        Objects.requireNonNull(options, "options");
        EngineInternals.requireHostTurn(sim, "Explorer.attach()"); // before anything is made or started
        Explorer e = new Explorer(sim, options);
        sim.atEndOfTick(e::endOfTick); // before a port is bound
        try {
            e.routes.start(new InetSocketAddress(options.bind(), options.port()));
        } catch (IOException | RuntimeException | Error failed) {
            sim.atEndOfTick(null);
            throw failed;
        }
        return e;
    }

    /**
     * The port the explorer listens on.
     *
     * @return the bound port, the one chosen by the system when the options gave 0
     * @throws IllegalStateException after {@link #close}, as {@link #url()} does
     */
    public int port() {
        return routes.address().getPort();
    }

    /**
     * The page's address, {@code http://host:port/}.
     *
     * @return the address, an IPv6 host in brackets
     */
    public String url() {
        InetSocketAddress a = routes.address();
        String host = a.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/";
    }

    /**
     * Whether edits from the page are on (an {@link EditSink} was given).
     *
     * @return true when the options gave an {@link EditSink}
     */
    public boolean editsEnabled() {
        return options.edits() != null;
    }

    /** The end-of-tick hook: waiting reads within the budget, figures, job timing on or off. Tick thread. */
    private void endOfTick(long tick, long nanos) {
        long start = System.nanoTime();
        if (!tickEnded) {
            tickEnded = true;
        }
        if (safePoint.waiting() > 0) {
            safePoint.drain(sim, Math.max(MIN_BUDGET_MICROS * 1_000L, nanos * BUDGET_PERCENT / 100));
        }
        if (observing && start - lastArchetypeCount > SECOND) {
            lastArchetypeCount = start;
            archetypes = routes.browse().archetypes(sim.world()).size();
        }
        String hosted = EngineInternals.hostedWorld(sim); // a volatile read; written only when it changed
        if (hosted != null && !hosted.equals(lastHosted)) {
            lastHosted = hosted;
        }
        long end = System.nanoTime();
        figures.record(tick, nanos, start, sim.world().entityCount(), end - start, observing);
        boolean attached = routes.streams().size() > 0 || end - lastRequest < ACTIVE_NANOS;
        if (attached != observing) {
            observing = attached;
            sim.observeJobs(attached ? figures : null);
        }
    }

    /**
     * Answers the waiting reads on the calling thread for {@code time}, for a simulation that
     * does not tick now (paused, or a replay that has finished) but whose page should stay
     * live. Tick thread, between ticks; returns early when the explorer is closed. Reads of a
     * closed simulation are refused, not answered here.
     *
     * @param time how long to answer reads, not null
     */
    public void idle(Duration time) {
        long until = System.nanoTime() + time.toNanos();
        touched();
        if (!closed) {
            archetypes = routes.browse().archetypes(sim.world()).size(); // counted at a tick's end only while watched
        }
        while (!closed && System.nanoTime() - until < 0) {
            safePoint.drain(sim, 50_000_000L);
            LockSupport.parkNanos(Math.min(5_000_000L, Math.max(0, until - System.nanoTime())));
        }
    }

    /**
     * Unhooks the simulation and stops serving; waiting reads and open streams end, and a
     * timeline's replay stops at its next tick. Tick thread, between ticks or after the last.
     *
     * <p>On a world a {@code WorldHost} holds, that is inside {@code hostedWorld.call}. Once the
     * world has left its host ({@code remove()}, {@code done()} or the host's {@code close()}
     * returned), the thread that took it back may close the explorer without
     * {@code bindTickThread()}: the close only unhooks (it neither ticks nor reads the world),
     * so what it needs is that no tick runs meanwhile and that the world's last tick is ordered
     * before it, which the future's {@code join()} (or the host's {@code close()}) gives. A
     * thread that ticks the simulation afterwards must be handed it after the close, as
     * {@link Simulation#bindTickThread()} says.
     *
     * @throws IllegalStateException when a {@code WorldHost} holds the simulation and this is
     *     not its tick thread between two ticks (close inside {@code hostedWorld.call}, or after
     *     {@code remove().join()}); the explorer is left open and serving then, so the close
     *     made there still frees its port and threads
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            sim.atEndOfTick(null); // first: refused off the host's turn, before anything is stopped
        } catch (IllegalStateException offTheHostsTurn) {
            throw new IllegalStateException("Explorer.close() called on thread '" + Thread.currentThread().getName()
                    + "' while the explorer's simulation is on a WorldHost, whose pool threads tick it (a refused close "
                    + "leaves the explorer open): close it inside hostedWorld.call(sim -> { explorer.close(); return "
                    + "null; }), or after hostedWorld.remove().join() on the thread that took the world back. "
                    + offTheHostsTurn.getMessage(), offTheHostsTurn);
        }
        closed = true;
        if (observing) {
            sim.observeJobs(null);
            observing = false;
        }
        routes.stop();
        safePoint.refuseAll();
        if (past != null) {
            past.close();
        }
    }

    // ---- what the routes and the stream hub ask (any thread unless said)

    /** A read's refusal when the simulation is closed (no safe point will come), naming the fix; null while open. */
    private String closedRefusal() {
        if (!EngineInternals.closed(sim)) {
            return null;
        }
        String was = lastHosted;
        return "the simulation" + (was == null ? "" : " of " + was) + " is closed, so no safe point will come to read "
                + "the world at (the figures' history, /api/history, still answers); close the explorer "
                + "(Explorer.close()) to free its port and threads, and attach a new one to the simulation that "
                + "goes on, if any";
    }

    /**
     * Whether a tick ran since the explorer was attached: the hook saw one end, or the
     * simulation's next tick moved (a tick that ran its systems and then threw before its end,
     * a replay's hash check or a recorder's write, never reaches the hook). Decided by these
     * facts, not by whether the figures hold a tick. A restore between the attach and the first
     * tick moves the next tick too, and counts. Any thread: two volatile reads.
     */
    boolean tickedSinceAttach() {
        return tickEnded || sim.currentTick() != tickAtAttach;
    }

    Simulation sim() {
        return sim;
    }

    ExplorerOptions options() {
        return options;
    }

    SafePoint safePoint() {
        return safePoint;
    }

    EditLedger ledger() {
        return ledger;
    }

    /** The replay of the timeline, or null without one. */
    PastWorlds past() {
        return past;
    }

    EditRules editRules() {
        return editRules;
    }

    TickFigures figures() {
        return figures;
    }

    Routes routes() {
        return routes;
    }

    /** Notes a request, so the systems are timed for a while. Any thread. */
    void touched() {
        lastRequest = System.nanoTime();
    }

    /**
     * The summary from the figures and {@code state} (the state as a JSON object): read at a safe
     * point, with {@code whyNotLive} null, or, when none came, what any thread may read
     * ({@link Views#stateOffTick}) with the refusal's reason, so a paused run's page still has
     * its figures and says why the world is not shown. The figures count the ticks up to
     * {@code stateTick}, the tick the state was read after ({@code nextTick - 1}), so that
     * {@code tick} is never past it. Live, it runs at the safe point, on the tick thread, so no
     * tick ends while the figures are summarized; off tick, on a request thread.
     */
    byte[] summary(String state, long stateTick, String whyNotLive) {
        Json json = new Json().beginObject();
        figures.summarize(System.nanoTime(), stateTick, json);
        double[] heap = seconds.latest();
        json.field("heapAfterGcMb", Math.round(heap[0] * 10) / 10.0).field("heapMb", Math.round(heap[1] * 10) / 10.0)
                .field("archetypes", archetypes).key("systemNames").beginArray();
        systemNames.forEach(json::value);
        json.endArray().field("edits", editsEnabled()).field("map", options.map() != null)
                .field("live", whyNotLive == null).key("whyNotLive");
        if (whyNotLive == null) {
            json.nullValue();
        } else {
            json.value(whyNotLive);
        }
        json.raw(state.substring(1, state.length() - 1));
        return json.endObject().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The kept figures after tick sequence {@code after} and second {@code afterSecond} (-1: all). */
    String history(long after, long afterSecond) {
        Json json = new Json().beginObject().key("systemNames").beginArray();
        systemNames.forEach(json::value);
        json.endArray().key("ticks").beginObject();
        figures.rows(after, json);
        json.endObject().key("seconds").beginObject();
        seconds.write(afterSecond, json);
        return json.endObject().endObject().toString();
    }

    /** The next stream event: the summary figures, and the ticks and seconds since the last event. Hub thread. */
    String event() {
        Json json = new Json().beginObject();
        figures.summarize(System.nanoTime(), Long.MAX_VALUE, json);
        double[] heap = seconds.latest();
        json.field("heapAfterGcMb", Math.round(heap[0] * 10) / 10.0).field("archetypes", archetypes)
                .key("rows").beginObject();
        streamedSeq = figures.rows(streamedSeq < 0 ? figures.recorded() - 2 : streamedSeq, json);
        json.endObject().key("seconds").beginObject();
        streamedSecond = seconds.write(streamedSecond < 0 ? Long.MAX_VALUE - 1 : streamedSecond, json);
        return json.endObject().endObject().toString();
    }

    /** Samples the per-second figures. Hub thread, about once a second. */
    void second() {
        long now = System.nanoTime();
        seconds.sample(figures.epochSeconds(now), figures.ticksInLastSecond(now), archetypes);
    }

    /** The per-system table: what each system matches and does (read at a safe point) and its time. */
    byte[] systemsJson(List<Browse.SystemRow> rows) {
        double[][] times = figures.systemTimes(System.nanoTime(), 10 * SECOND);
        Json json = new Json().beginObject().field("timedTicks", (long) times[times.length - 1][0])
                .field("windowSeconds", 10).key("systems").beginArray();
        for (Browse.SystemRow r : rows) {
            json.beginObject().field("index", r.index()).field("name", r.name()).field("phase", r.phase())
                    .field("kind", r.kind()).field("syncBefore", r.syncBefore());
            nullable(json, "entities", r.entities());
            nullable(json, "archetypes", r.archetypes());
            nullable(json, "jobs", r.jobs());
            if (r.rows() < 0) {
                json.key("rows").nullValue();
            } else {
                json.field("rows", r.rows());
            }
            json.field("mode", r.mode());
            if (times[times.length - 1][0] == 0) {
                json.key("meanMs").nullValue().key("maxMs").nullValue();
            } else {
                json.field("meanMs", Math.round(times[r.index()][0] * 1e4) / 1e4)
                        .field("maxMs", Math.round(times[r.index()][1] * 1e4) / 1e4);
            }
            json.endObject();
        }
        return json.endArray().endObject().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void nullable(Json json, String name, long v) {
        if (v < 0) {
            json.key(name).nullValue();
        } else {
            json.field(name, v);
        }
    }
}
