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

    /**
     * Checks the port range, the address and the timeout.
     *
     * @param port TCP port, 0 to 65535 (0: a free one)
     * @param bind the address to listen on, not null
     * @param edits where edits go, or null: edits off
     * @param map the live map's source, or null: no map
     * @param requestTimeout how long a request waits for a safe point, positive, not null
     * @param timeline the recording to travel back in, or null: no timeline
     * @throws IllegalArgumentException naming the value when the port is out of range or the
     *     timeout is not positive
     * @throws NullPointerException if {@code bind} or {@code requestTimeout} is null
     */
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

    /**
     * Port {@code port} on 127.0.0.1 (this machine only), edits off, no map, no timeline.
     *
     * @param port TCP port, 0 to 65535 (0: a free one)
     * @return the options, with the default request timeout {@link #DEFAULT_REQUEST_TIMEOUT}
     * @throws IllegalArgumentException when the port is out of range
     */
    public static ExplorerOptions loopback(int port) {
        return new ExplorerOptions(port, InetAddress.getLoopbackAddress(), null, null, DEFAULT_REQUEST_TIMEOUT, null);
    }

    /**
     * These options listening on {@code address}. A non-loopback address opens the explorer to
     * the network; it still answers only requests addressed to that address or to the loopback
     * names (a guard against DNS rebinding).
     *
     * @param address the address to listen on, not null ({@code InetAddress.getByName("0.0.0.0")}:
     *     every interface)
     * @return new options; these are unchanged
     * @throws NullPointerException if {@code address} is null
     */
    public ExplorerOptions withBind(InetAddress address) {
        return new ExplorerOptions(port, address, edits, map, requestTimeout, timeline);
    }

    /**
     * These options with edits on, handed to {@code sink} (null: off).
     *
     * @param sink where edits go, or {@code null} to turn them off
     * @return new options; these are unchanged
     */
    public ExplorerOptions withEdits(EditSink sink) {
        return new ExplorerOptions(port, bind, sink, map, requestTimeout, timeline);
    }

    /**
     * These options with a live map drawn from {@code source} (null: none).
     *
     * @param source the map's source, or {@code null} for none
     * @return new options; these are unchanged
     */
    public ExplorerOptions withMap(MapSource source) {
        return new ExplorerOptions(port, bind, edits, source, requestTimeout, timeline);
    }

    /**
     * These options waiting {@code timeout} for a safe point.
     *
     * @param timeout the wait, positive, not null; a request waiting longer is answered 503
     * @return new options; these are unchanged
     * @throws IllegalArgumentException when {@code timeout} is zero or negative
     * @throws NullPointerException if {@code timeout} is null
     */
    public ExplorerOptions withRequestTimeout(Duration timeout) {
        return new ExplorerOptions(port, bind, edits, map, timeout, timeline);
    }

    /**
     * These options with a timeline over {@code recording} (null: none): the page may travel back in it.
     *
     * @param recording the timeline ({@link Timeline#ofRecording}), or {@code null} for none
     * @return new options; these are unchanged
     */
    public ExplorerOptions withTimeline(Timeline recording) {
        return new ExplorerOptions(port, bind, edits, map, requestTimeout, recording);
    }
}
