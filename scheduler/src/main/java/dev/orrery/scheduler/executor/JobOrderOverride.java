package dev.orrery.scheduler.executor;

/**
 * Makes the single-threaded executors made on this thread split every system's work into its
 * finest jobs and run them last to first: how the determinism kit catches a game whose result
 * depends on the order in which one system's jobs run (a float total the jobs add to, a list
 * they append to, "the first job to see it wins"), which on several workers only changes with
 * timing. Not for production use.
 *
 * <p>In this mode a chunk system runs one job per chunk, from its last matching chunk to its
 * first; a range system runs up to {@value #RANGE_JOBS} jobs of ascending index ranges, the
 * last range first; a level system keeps its levels in order (a level's parents must be done
 * first) and runs the jobs of each stage last to first, each level of at least two slots split
 * into up to {@value #RANGE_JOBS} jobs. Exclusive systems run as always. A game that keeps to the
 * rules gives bit-identical results, because the commands and events its jobs record are
 * merged by (system, chunk ordinal or range job, sequence), never in the order the jobs ran, and
 * a {@code LongSum} adds integers. A parallel executor ignores the switch: its order is the
 * workers' timing.
 *
 * <p><b>Threading:</b> per thread: {@link #reverse} before building a simulation or an executor
 * on this thread, {@link #clear} after; the executor reads it once, at construction.
 */
public final class JobOrderOverride {
    /** The most jobs a range system, or one level of a level system, is split into in reverse mode. */
    public static final int RANGE_JOBS = 64;
    // Boolean.TRUE: every system; a String: only the system of that name.
    private static final ThreadLocal<Object> REVERSE = new ThreadLocal<>();

    private JobOrderOverride() {
    }

    /** Single-threaded executors made on this thread from now on run every system's finest jobs last to first. */
    public static void reverse() {
        REVERSE.set(Boolean.TRUE);
    }

    /**
     * Single-threaded executors made on this thread from now on split only the system named
     * {@code system} into its finest jobs and run them last to first; every other system runs as
     * one job. How the determinism kit finds which system's job order a difference follows when
     * the difference first shows in a later system (jobs that add to a float total kept outside
     * the world, which a later system reads).
     */
    public static void reverseOnly(String system) {
        REVERSE.set(java.util.Objects.requireNonNull(system, "system"));
    }

    /** Executors made on this thread from now on run each system as one job again. */
    public static void clear() {
        REVERSE.remove();
    }

    /** Whether reverse order is set on this thread (for every system or for one). */
    static boolean reversed() {
        return REVERSE.get() != null;
    }

    /** Whether reverse order, as set on this thread, applies to the system named {@code system}. */
    static boolean reverses(String system) {
        Object r = REVERSE.get();
        return r == Boolean.TRUE || r != null && r.equals(system);
    }
}
