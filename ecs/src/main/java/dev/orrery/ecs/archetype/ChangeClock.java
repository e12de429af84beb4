package dev.orrery.ecs.archetype;

/**
 * The world's change tick: the version that structural changes and direct writes stamp on
 * the chunk columns they touch ({@link Chunk#addedVersion}, {@link Chunk#changedVersion}).
 * It starts at 1, so a version of 0 means "never", and only grows: a direct iteration of a
 * filtered query takes the current tick and advances it, and the scheduler hands each
 * system run and each sync point a tick of its own in schedule order (so the ticks, like
 * everything else, do not depend on the number of workers).
 *
 * <p><b>Threading:</b> read and set on the thread that owns the world; workers read the
 * tick the scheduler gave their system, never this clock.
 */
public final class ChangeClock {
    private long now = 1;
    // While an exclusive system runs (see enterSystem): its tick and the tick it last ran before.
    private boolean inSystem;
    private long systemTick;
    private long systemSince;

    /** A clock at tick 1. */
    public ChangeClock() {
    }

    /** The tick that structural changes and direct writes stamp now. */
    public long now() {
        return now;
    }

    /**
     * Sets the current tick (the scheduler, at sync points; a snapshot restore).
     *
     * @throws IllegalArgumentException if {@code tick} is below 1
     */
    public void set(long tick) {
        if (tick < 1) {
            throw new IllegalArgumentException("change tick " + tick + " is below 1; ticks start at 1");
        }
        now = tick;
    }

    /**
     * The index of the first entry of {@code ticks[from, to)} stamped after {@code tick}
     * ({@code to} if none); the range must be in ascending order, as every log of stamps is.
     */
    public static int firstAfter(long[] ticks, int from, int to, long tick) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ticks[mid] > tick) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * An exclusive system that runs at change tick {@code tick} and last ran at {@code since}
     * starts on this (the owner's) thread: until {@link #exitSystem}, a query it iterates
     * directly compares against {@code since} and stamps its writes with {@code tick}, as the
     * system's jobs would, instead of taking a tick of its own (which the scheduler's ticks,
     * set again at every sync point, would undercut: the query would miss later writes).
     */
    public void enterSystem(long tick, long since) {
        systemTick = tick;
        systemSince = since;
        inSystem = true;
    }

    /** The exclusive system started by {@link #enterSystem} has ended. */
    public void exitSystem() {
        inSystem = false;
    }

    /** True between {@link #enterSystem} and {@link #exitSystem}. */
    public boolean inSystem() {
        return inSystem;
    }

    /** The running exclusive system's change tick (see {@link #enterSystem}). */
    public long systemTick() {
        return systemTick;
    }

    /** The tick the running exclusive system last ran at, 0 if never (see {@link #enterSystem}). */
    public long systemSince() {
        return systemSince;
    }

    /** Returns the current tick and moves the clock one past it. */
    public long advance() {
        return now++;
    }
}
