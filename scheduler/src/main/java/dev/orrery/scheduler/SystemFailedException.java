package dev.orrery.scheduler;

import dev.orrery.ecs.archetype.Chunk;

/**
 * Thrown by {@code ScheduleExecutor.run} when a tick's run failed: a system threw (its
 * message names the system, the chunk, or a range system's indices, and the worker; its cause
 * is what the system threw), a sync point failed (an observer hook threw, or a cascade of hooks
 * was refused: {@link #system()} then names the sync point), or a job did not return before the
 * run's deadline ({@code ScheduleExecutor.runDeadline}; its cause is a
 * {@link java.util.concurrent.TimeoutException} with the report of the stuck job). The executor
 * throws only after every job it still waits for has finished (or, past the deadline, has been
 * abandoned), so no worker it keeps touches the world after the caller sees this. Further
 * failures of the same run are attached as suppressed exceptions.
 *
 * <p>The message ends by saying exactly what the failed run left: which sync points applied
 * structural changes before the failure (they stay), how many commands were still pending in
 * the failing phase (discarded), and that column values written before the failure stay.
 *
 * <p><b>Threading:</b> made on the executor's calling thread; its message is completed there
 * before the exception leaves {@code run}, and is not changed afterwards.
 */
public final class SystemFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** What a failed run leaves, until the executor says exactly. */
    private static final String GENERIC_OUTCOME = "; the run stopped; structural changes applied at the sync points "
            + "before the failure stay, the failing phase's pending commands are discarded, and columns written before "
            + "the failure keep their new values";

    /**
     * The two forms of a sync point's name ({@code "sync point ending phase Update"},
     * {@code "sync point before system 'b'"}): built only by {@link #syncPointEndingPhase} and
     * {@link #syncPointBeforeSystem} (the executor reaches them through {@code SchedulerInternals}),
     * recognized by {@link #namesSyncPoint}; one place owns the format, so they cannot drift.
     */
    private static final String SYNC_ENDING_PHASE = "sync point ending phase ";
    private static final String SYNC_BEFORE_SYSTEM = "sync point before system '";

    /** The failed system's name, or the sync point's (see {@link #system()}). */
    private final String system;
    /** The failed chunk's ordinal in query order, or -1 (see {@link #chunkOrdinal()}). */
    private final int chunkOrdinal;
    /** True when a sync point failed rather than a system; picks the message's last advice. */
    private final boolean atSyncPoint;
    /** What the failed run left, completed by the executor; the end of the message. */
    private String outcome = GENERIC_OUTCOME;

    /**
     * The failure of an ordinary system's job on its chunk {@code chunkOrdinal} ({@code chunk}),
     * or of an exclusive system ({@code chunk} null, ordinal -1); executor use.
     */
    static SystemFailedException inChunk(String system, Chunk chunk, int chunkOrdinal, int worker,
            Throwable cause) {
        return new SystemFailedException(system, chunkOrdinal, chunk == null ? "" : " on its chunk #" + chunkOrdinal
                + " (chunk " + chunk.index() + " of " + chunk.archetype() + ")", worker, cause);
    }

    private SystemFailedException(String system, int chunkOrdinal, String where, int worker, Throwable cause) {
        this(system, chunkOrdinal, false, "system '" + system + "' failed" + where + " on worker " + worker + ": "
                + cause, cause);
    }

    private SystemFailedException(String system, int chunkOrdinal, boolean atSyncPoint, String message,
            Throwable cause) {
        super(message, cause);
        this.system = system;
        this.chunkOrdinal = chunkOrdinal;
        this.atSyncPoint = atSyncPoint;
    }

    /** The failure of a range system's job over indices {@code [from, to)}, or of its count; executor use. */
    static SystemFailedException ofRange(String system, int from, int to, int worker, Throwable cause) {
        String where = from < to ? " on its indices [" + from + ", " + to + ")" : " counting its indices";
        return new SystemFailedException(system, -1, where, worker, cause);
    }

    /**
     * The failure of sync point {@code syncPoint} ({@code "sync point before system 'b'"},
     * {@code "sync point ending phase Update"}): what its playback or its observer hooks threw;
     * executor use.
     */
    static SystemFailedException atSyncPoint(String syncPoint, Throwable cause) {
        return new SystemFailedException(syncPoint, -1, true, "the " + syncPoint + " failed (its command playback, or "
                + "an observer hook the changes fired): " + cause, cause);
    }

    /**
     * The failure of system {@code system}'s job that was still running when the run's deadline
     * passed ({@code cause} says where and for how long); executor use.
     */
    static SystemFailedException pastDeadline(String system, Throwable cause) {
        return new SystemFailedException(system, -1, false, "system '" + system + "' did not finish: " + cause.getMessage(),
                cause);
    }

    /** Completes the message with what the failed run left (see the class comment); executor use. */
    void outcome(String text) {
        this.outcome = text;
    }

    /** The message, ending with what the failed run left and what to do. */
    @Override
    public String getMessage() {
        return super.getMessage() + outcome + (atSyncPoint ? ". Fix the hook" : ". Fix the system")
                + "; a simulation under FailurePolicy.SKIP_TICK skips the tick and goes on";
    }

    /**
     * The name of the system that failed; for a failure at a sync point, where no system runs,
     * the sync point's own name ({@code "sync point before system 'b'"}, {@code "sync point
     * ending phase Update"}).
     *
     * @return the system's or the sync point's name, never null
     */
    public String system() {
        return system;
    }

    /**
     * Whether {@code name} is a sync point's name as {@link #system()} gives it for a failure at
     * one, and as a journal keeps it: {@code "sync point ending phase <phase>"} or
     * {@code "sync point before system '<system>'"}. No system may be named so (the schedule's
     * builder refuses it), so a name alone says which failed, where a journal keeps no more; a
     * system's name that merely begins with "sync point" ({@code "sync point 3"}) is a system's.
     *
     * @param name a system's or a sync point's name, not null
     * @return true when it has one of the two forms the scheduler names its sync points with
     */
    public static boolean namesSyncPoint(String name) {
        return name.startsWith(SYNC_ENDING_PHASE) || name.startsWith(SYNC_BEFORE_SYSTEM);
    }

    /** The name of the sync point ending phase {@code phase} ({@code "sync point ending phase Update"}); executor use. */
    static String syncPointEndingPhase(String phase) {
        return SYNC_ENDING_PHASE + phase;
    }

    /** The name of the sync point before system {@code system} ({@code "sync point before system 'b'"}); executor use. */
    static String syncPointBeforeSystem(String system) {
        return SYNC_BEFORE_SYSTEM + system + "'";
    }

    /**
     * Which of the system's matching chunks failed, counted from 0 in query order; -1 for an
     * exclusive or a range system, a sync point, a job past the run's deadline, and for a
     * violation the checked mode finds after a job (a write into a read-only column, over the
     * job's chunks together).
     *
     * @return the chunk's ordinal, 0 or more, or -1
     */
    public int chunkOrdinal() {
        return chunkOrdinal;
    }
}
