package dev.orrery.explorer;

import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * How an {@link Explorer} serves: its port and address (loopback unless asked), whether edits
 * are on (an {@link EditSink} given: on; none: the page is read-only), an optional live map
 * ({@link MapSource}), an optional recording to travel back in ({@link Timeline}), and how
 * long a request waits for the tick thread.
 *
 * @param port           TCP port, 0 = a free one ({@link Explorer#port()} says which)
 * @param bind           the address to listen on; {@link #loopback(int)} takes 127.0.0.1
 * @param edits          where edits from the page go, or null: edits off (the default)
 * @param map            the live map's points, or null: no map
 * @param requestTimeout how long a request waits for a safe point before it is answered 503
 * @param timeline       the recording the page may travel back in, or null: no timeline
 */
public record ExplorerOptions(int port, InetAddress bind, EditSink edits, MapSource map, Duration requestTimeout,
        Timeline timeline) {
    /** The default wait for a safe point: two seconds. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(2);

    /** Checks the port range, the address and the timeout. */
    public ExplorerOptions {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("the explorer's port must be 0 (a free one) to 65535; got " + port);
        }
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("the explorer's request timeout must be positive; got " + requestTimeout);
        }
    }

    /** Port {@code port} on 127.0.0.1 (this machine only), edits off, no map, no timeline. */
    public static ExplorerOptions loopback(int port) {
        return new ExplorerOptions(port, InetAddress.getLoopbackAddress(), null, null, DEFAULT_REQUEST_TIMEOUT, null);
    }

    /**
     * These options listening on {@code address}. A non-loopback address opens the explorer to
     * the network; it still answers only requests addressed to that address or to the loopback
     * names (a guard against DNS rebinding).
     */
    public ExplorerOptions withBind(InetAddress address) {
        return new ExplorerOptions(port, address, edits, map, requestTimeout, timeline);
    }

    /** These options with edits on, handed to {@code sink} (null: off). */
    public ExplorerOptions withEdits(EditSink sink) {
        return new ExplorerOptions(port, bind, sink, map, requestTimeout, timeline);
    }

    /** These options with a live map drawn from {@code source} (null: none). */
    public ExplorerOptions withMap(MapSource source) {
        return new ExplorerOptions(port, bind, edits, source, requestTimeout, timeline);
    }

    /** These options waiting {@code timeout} for a safe point. */
    public ExplorerOptions withRequestTimeout(Duration timeout) {
        return new ExplorerOptions(port, bind, edits, map, timeout, timeline);
    }

    /** These options with a timeline over {@code recording} (null: none): the page may travel back in it. */
    public ExplorerOptions withTimeline(Timeline recording) {
        return new ExplorerOptions(port, bind, edits, map, requestTimeout, recording);
    }
}
