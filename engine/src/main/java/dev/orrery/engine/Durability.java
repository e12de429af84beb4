package dev.orrery.engine;

import dev.orrery.engine.journal.JournalWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How often a {@link JournalWriter} forces its file to the storage device
 * ({@link java.nio.channels.FileChannel#force}), and so how many ticks a power loss can take
 * from a recording. Records are always written to the file (the operating system's cache)
 * at the end of each batch the journal thread handles, so a process crash ({@code kill -9})
 * loses only what the journal thread had not yet written; forcing is about power loss and
 * operating-system crashes.
 *
 * <ul>
 *   <li>{@link #EVERY_TICK} ({@code --fsync=tick}): the journal thread forces after every
 *       batch, and the tick thread does not begin a tick until everything recorded for the
 *       ticks before it is on the device. A process crash or a power loss loses at most the
 *       tick in progress. Costs one {@code fsync} per tick on the tick thread's path.
 *   <li>{@link #interval(Duration)} ({@code --fsync=interval}, one second by default): the
 *       journal thread forces when that long has passed since its last force. A power loss
 *       loses at most the ticks begun in the last interval (60 at 60 ticks/s), plus any the
 *       journal thread had not yet written (none while the disk keeps up; never more than
 *       its queue, half of {@code InputPipeline.Builder.markerQueueSize}, 512 ticks by
 *       default). A process crash loses at most the tick in progress plus that backlog.
 *   <li>{@link #NONE} ({@code --fsync=none}): forced only by a clean close. A process crash
 *       loses as with {@code interval}; a power loss can take every tick the operating system
 *       had not yet written back (on Linux typically the last 30 seconds, with no bound
 *       Orrery can promise).
 * </ul>
 *
 * <p><b>Threading:</b> immutable.
 */
public final class Durability {
    /** What the writer forces when. */
    public enum Mode {
        /** After every batch; the tick thread waits for the previous tick to be forced. */
        TICK,
        /** When the interval has passed since the last force. */
        INTERVAL,
        /** Only on a clean close. */
        NONE
    }

    /** Force every tick. */
    public static final Durability EVERY_TICK = new Durability(Mode.TICK, 0);
    /** Force only on close (what {@link JournalWriter#create(java.nio.file.Path)} does). */
    public static final Durability NONE = new Durability(Mode.NONE, 0);
    /** The default interval of {@code --fsync=interval}. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

    private final Mode mode;
    private final long intervalNanos;

    private Durability(Mode mode, long intervalNanos) {
        this.mode = mode;
        this.intervalNanos = intervalNanos;
    }

    /**
     * Force at most {@code interval} after the last force.
     *
     * @param interval the longest time between forces, positive; not null
     * @return an {@link Mode#INTERVAL} durability with that period
     * @throws IllegalArgumentException unless the interval is positive
     */
    public static Durability interval(Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the fsync interval must be positive, got " + interval);
        }
        return new Durability(Mode.INTERVAL, interval.toNanos());
    }

    /**
     * The mode named {@code tick}, {@code interval} (with {@code interval} as its period) or
     * {@code none}, as the demo's {@code --fsync} option takes it.
     *
     * @param name {@code tick}, {@code interval} or {@code none}, in any case; not null
     * @param interval the period for {@code interval}; ignored for the other two
     * @return {@link #EVERY_TICK}, a new interval durability, or {@link #NONE}
     * @throws IllegalArgumentException naming the three
     * @throws NullPointerException if {@code name} is null
     */
    public static Durability parse(String name, Duration interval) {
        switch (Objects.requireNonNull(name, "name").toLowerCase(Locale.ROOT)) {
            case "tick":
                return EVERY_TICK;
            case "interval":
                return interval(interval);
            case "none":
                return NONE;
            default:
                throw new IllegalArgumentException("--fsync must be tick, interval or none; got '" + name + "'");
        }
    }

    /**
     * The mode.
     *
     * @return the mode, never null
     */
    public Mode mode() {
        return mode;
    }

    /**
     * The interval in nanoseconds ({@link Mode#INTERVAL} only; 0 otherwise).
     *
     * @return the period in nanoseconds, positive for {@link Mode#INTERVAL}, 0 for the other modes
     */
    public long intervalNanos() {
        return intervalNanos;
    }

    @Override
    public String toString() {
        return mode == Mode.INTERVAL ? "interval(" + intervalNanos / 1_000_000 + "ms)" : mode.name().toLowerCase(Locale.ROOT);
    }
}
