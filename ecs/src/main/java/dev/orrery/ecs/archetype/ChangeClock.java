package dev.orrery.ecs.archetype;

/**
 * The world's change tick: the version that structural changes and direct writes stamp on
 * the chunk columns they touch ({@link Chunk#addedVersion}, {@link Chunk#changedVersion}).
 * It starts at 1, so a version of 0 means "never", and only grows: a direct iteration of a
 * query (filtered or not; a tool's read-only look takes none) takes the current tick and
 * advances it, except inside an exclusive system, where it takes the system's tick (see
 * {@link #enterSystem}), and the scheduler hands each
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
    // While a scheduled phase runs, its sync points included (see enterPhase): its name, else null.
    private String phase;

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

    /**
     * Phase {@code name} of a scheduled run starts on this (the owner's) thread: until
     * {@link #exitPhase}, which the scheduler calls after the phase's closing sync point, a
     * query with a change filter may not be iterated directly outside an exclusive system
     * (see {@link #checkOwnIteration}). Inside a phase the scheduler has planned a tick for each
     * system (phase base + its place) and sets the clock to the tick of the system a sync
     * point precedes; a tick an iteration took there is one a system yet to run will stamp its
     * writes with, so the iteration would never see them.
     */
    public void enterPhase(String name) {
        phase = name;
    }

    /** The phase started by {@link #enterPhase} has ended (its sync point included); harmless if none runs. */
    public void exitPhase() {
        phase = null;
    }

    /** The phase of a scheduled run in progress (see {@link #enterPhase}), or null. */
    public String phase() {
        return phase;
    }

    /**
     * Puts back the marks a scheduled run found as it started ({@link #phase}, {@link #inSystem},
     * {@link #systemTick}, {@link #systemSince}), as the run ends: a schedule run from inside an
     * exclusive system of another schedule on this world leaves that system's marks as they were,
     * so its own direct iterations stay the system's.
     */
    public void resume(String phase, boolean inSystem, long systemTick, long systemSince) {
        this.phase = phase;
        this.inSystem = inSystem;
        this.systemTick = systemTick;
        this.systemSince = systemSince;
    }

    /**
     * Refuses the direct iteration of {@code query} (its description), a query with a change
     * filter, outside an exclusive system while a scheduled phase runs (an observer hook fired
     * at one of its sync points): see {@link #enterPhase}. Between phases and between runs the
     * query takes ticks of its own, which nothing undercuts.
     *
     * @throws IllegalStateException while a phase runs and no exclusive system does
     */
    public void checkOwnIteration(String query) {
        if (phase != null && !inSystem) {
            throw new IllegalStateException(query + " has a change filter and was iterated directly during phase "
                    + phase + " of a scheduled run, outside an exclusive system (from an observer hook fired at one of "
                    + "its sync points): the tick it would take is one the schedule "
                    + "gave a system that has yet to run, so it would never see that system's writes. Iterate it in an "
                    + "exclusive system (the iteration is then the system's, and a snapshot keeps its last run), or "
                    + "between phases or runs (SyncPoint.afterPhase, after sim.tick())");
        }
    }

    /**
     * Refuses a read-only iteration ({@code Query.forEachChunkReadOnly}) with a change filter
     * during a scheduled phase, exclusive systems included: it compares against the clock as
     * it stood at its last such iteration, and inside a phase the clock is set to each
     * system's planned tick in turn, so what it passed would depend on where in the phase it ran.
     *
     * @throws IllegalStateException naming {@code query}, the phase and where to read instead
     */
    public void checkLook(String query) {
        if (phase != null) {
            throw new IllegalStateException(query + " has a change filter and was iterated read-only during phase "
                    + phase + " of a scheduled run: inside a phase the change clock runs on the schedule's planned "
                    + "ticks, so what it passed would depend on where it ran. Read changes in a system (its declared "
                    + "reads, or forEachChunk in an exclusive system), or iterate it read-only between phases or runs "
                    + "(SyncPoint.afterPhase, after sim.tick())");
        }
    }

    /** Returns the current tick and moves the clock one past it. */
    public long advance() {
        return now++;
    }
}
