package dev.orrery.engine.host;

import java.util.Objects;

/**
 * Collects a world host's settings; made by {@link WorldHost#builder()}, finished by
 * {@link #build()}.
 *
 * <p><b>Threading:</b> use on one thread.
 */
public final class WorldHostBuilder {
    private static final System.Logger LOG = System.getLogger(WorldHost.class.getName());

    /**
     * The most pool threads a host takes: each is a platform thread with its own stack, and the
     * pool ticks one world per thread at a time, so past the worlds or the processors more
     * threads tick nothing sooner (as the scheduler bounds an executor's workers at 256).
     */
    private static final int MAX_THREADS = 1024;

    // Read by the WorldHost constructor (same package).
    int threads = Math.min(Runtime.getRuntime().availableProcessors(), MAX_THREADS);
    String threadName = "orrery-host";
    long earlyStartNanos = 1_000_000;
    WorldHost.FailureListener failureListener = (w, tick, e) -> LOG.log(System.Logger.Level.WARNING,
            w + " failed at tick " + tick + " and left the host: " + e + "; its simulation is left open to inspect: "
            + "take it back with bindTickThread() and close it, or WorldHost.close() closes it (a recorder or an "
            + "explorer attached to it is yours to close either way)", e);

    WorldHostBuilder() {
    }

    /**
     * Pool threads (default: one per processor, at most 1024).
     *
     * @param threads the pool's size, 1 to 1024
     * @return this builder
     * @throws IllegalArgumentException if {@code threads} is not 1 to 1024: each is a platform
     *     thread with its own stack, ticking one world at a time, so more threads than worlds or
     *     processors tick nothing sooner (and {@code Integer.MAX_VALUE} could not even be sized)
     */
    public WorldHostBuilder threads(int threads) {
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("a world host takes 1 to " + MAX_THREADS + " pool threads (each is a "
                    + "platform thread with its own stack, ticking one world at a time, so more threads than worlds "
                    + "or processors tick nothing sooner), got " + threads);
        }
        this.threads = threads;
        return this;
    }

    /**
     * The pool threads' name prefix (default {@code orrery-host}); they are named prefix-0, prefix-1, ...
     *
     * @param prefix the name prefix, not null
     * @return this builder
     * @throws NullPointerException if {@code prefix} is null
     */
    public WorldHostBuilder threadName(String prefix) {
        this.threadName = Objects.requireNonNull(prefix, "thread name prefix");
        return this;
    }

    /**
     * How early a pool thread with nothing due may start a world's tick (default 1 ms; zero:
     * never early). Starting the next world a little early instead of parking for a few
     * microseconds saves a park and a wake-up per tick when many worlds fall due close together.
     * A tick's start then jitters by up to this much; the rate does not change (the next tick is
     * due one period after the previous deadline, not after the early start), and an early start
     * counts as no lag. Keep it well under the shortest period.
     *
     * @param early how early, 0 or more; not null
     * @return this builder
     * @throws IllegalArgumentException when {@code early} is negative or does not fit a
     *     {@code long} of nanoseconds
     * @throws NullPointerException if {@code early} is null
     */
    public WorldHostBuilder earlyStart(java.time.Duration early) {
        long nanos = nanos(early, "earlyStart");
        if (nanos < 0) {
            throw new IllegalArgumentException("earlyStart must not be negative, got " + early);
        }
        this.earlyStartNanos = nanos;
        return this;
    }

    /**
     * Hears of every world that fails (default: a {@code System.Logger} warning).
     *
     * @param listener called on the pool thread for each failed world; not null
     * @return this builder
     * @throws NullPointerException if {@code listener} is null
     */
    public WorldHostBuilder onFailure(WorldHost.FailureListener listener) {
        this.failureListener = Objects.requireNonNull(listener, "failure listener");
        return this;
    }

    /**
     * {@code d} in nanoseconds; refused naming {@code what} when it is null or does not fit a
     * {@code long} (about 292 years), where {@code Duration.toNanos} would throw a bare
     * {@code ArithmeticException: long overflow}.
     */
    static long nanos(java.time.Duration d, String what) {
        Objects.requireNonNull(d, () -> what + " is null; give a Duration (Duration.ZERO for none)");
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + " " + d + " is too long: a host counts time in nanoseconds, "
                    + "at most about 292 years; keep it to a few of the worlds' periods", e);
        }
    }

    /**
     * Builds the host and starts its pool threads.
     *
     * @return the new host, its threads running; close it when done
     */
    public WorldHost build() {
        return new WorldHost(this);
    }
}
