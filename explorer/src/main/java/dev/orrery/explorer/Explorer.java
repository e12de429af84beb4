package dev.orrery.explorer;

import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A live explorer over a running {@link Simulation}: attached with one call, it serves a page
 * and a small JSON API on an HTTP port (loopback unless asked), and streams per-tick figures
 * to the page with Server-Sent Events.
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
 * job runs: there it records the tick's figures into a preallocated ring, answers the reads
 * waiting in a bounded queue (an HTTP thread waits for its answer up to
 * {@link ExplorerOptions#requestTimeout()} and answers 503 after), and times the systems
 * ({@link Simulation#observeJobs}) only while a client is attached: a stream is open or a
 * request came in the last {@value #ACTIVE_SECONDS} seconds. With no client, a tick pays for
 * a few stores into the ring and one empty-queue poll, and allocates nothing.
 *
 * <p>Edits are off unless {@link ExplorerOptions#edits()} names an {@link EditSink}; the
 * explorer never writes the world itself.
 *
 * <p><b>Threading:</b> {@link #attach} and {@link #close} on the tick thread between ticks
 * (or before the first tick, or after the last); the hook runs on the tick thread; HTTP
 * requests on the explorer's own daemon threads, which reach the world only through the
 * safe-point queue. {@link #port()} and {@link #url()} on any thread.
 */
public final class Explorer implements AutoCloseable {
    /** Seconds after the last request during which the systems stay timed. */
    public static final int ACTIVE_SECONDS = 5;
    private static final long ACTIVE_NANOS = ACTIVE_SECONDS * 1_000_000_000L;

    private final Simulation sim;
    private final ExplorerOptions options;
    private final TickFigures figures;
    private final SafePoint safePoint;
    private final Routes routes;
    private final AtomicInteger streams = new AtomicInteger();
    private volatile long lastRequest = System.nanoTime() - 2 * ACTIVE_NANOS;
    /** Whether the figures observe the jobs now; tick thread. */
    private boolean observing;
    private boolean closed;

    private Explorer(Simulation sim, ExplorerOptions options) {
        this.sim = sim;
        this.options = options;
        this.figures = new TickFigures(SchedulerInternals.graph(sim.schedule()).size(), sim.workers());
        this.safePoint = new SafePoint(options.requestTimeout().toNanos());
        this.routes = new Routes(this);
    }

    /**
     * Starts an explorer over {@code sim} and hooks its ticks. Tick thread, between ticks.
     *
     * @throws IOException when the port cannot be bound (in use, or not allowed); nothing is hooked then
     */
    public static Explorer attach(Simulation sim, ExplorerOptions options) throws IOException {
        Explorer e = new Explorer(Objects.requireNonNull(sim, "sim"), Objects.requireNonNull(options, "options"));
        e.routes.start(new InetSocketAddress(options.bind(), options.port()));
        sim.atEndOfTick(e::endOfTick);
        return e;
    }

    /** The port the explorer listens on. */
    public int port() {
        return routes.address().getPort();
    }

    /** The page's address, {@code http://host:port/}. */
    public String url() {
        InetSocketAddress a = routes.address();
        String host = a.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + "/";
    }

    /** Whether edits from the page are on (an {@link EditSink} was given). */
    public boolean editsEnabled() {
        return options.edits() != null;
    }

    /** The end-of-tick hook: figures, job timing on or off, waiting reads. Tick thread. */
    private void endOfTick(long tick, long nanos) {
        long now = System.nanoTime();
        figures.record(tick, nanos, now, sim.world().entityCount(), observing);
        boolean attached = streams.get() > 0 || now - lastRequest < ACTIVE_NANOS;
        if (attached != observing) {
            observing = attached;
            sim.observeJobs(attached ? figures : null);
        }
        safePoint.drain(sim);
    }

    /**
     * Unhooks the simulation and stops serving; waiting reads and open streams end. Tick
     * thread, between ticks or after the last.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        sim.atEndOfTick(null);
        if (observing) {
            sim.observeJobs(null);
            observing = false;
        }
        routes.stop();
        safePoint.refuseAll();
    }

    Simulation sim() {
        return sim;
    }

    ExplorerOptions options() {
        return options;
    }

    TickFigures figures() {
        return figures;
    }

    SafePoint safePoint() {
        return safePoint;
    }

    /** Notes a request, so the systems are timed for a while. Any thread. */
    void touched() {
        lastRequest = System.nanoTime();
    }

    AtomicInteger streams() {
        return streams;
    }
}
