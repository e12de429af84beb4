package dev.orrery.scheduler;

import dev.orrery.ecs.archetype.Chunk;

/**
 * Thrown by {@code ScheduleExecutor.run} when a system threw: names the system, the chunk
 * (or a range system's indices) and the worker, and carries what the system threw as its cause. The executor stops
 * handing out jobs at the first failure and throws only after every job already started
 * has finished, so no worker touches the world after the caller sees this; the world's
 * structure is unchanged and unlocked (column values written before the failure stay).
 * Further failures of the same run are attached as suppressed exceptions.
 */
public final class SystemFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String system;
    private final int chunkOrdinal;

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
        super(message(system, where, worker, cause), cause);
        this.system = system;
        this.chunkOrdinal = chunkOrdinal;
    }

    /** The failure of a range system's job over indices {@code [from, to)}, or of its count; executor use. */
    static SystemFailedException ofRange(String system, int from, int to, int worker, Throwable cause) {
        String where = from < to ? " on its indices [" + from + ", " + to + ")" : " counting its indices";
        return new SystemFailedException(system, -1, where, worker, cause);
    }

    private static String message(String system, String where, int worker, Throwable cause) {
        return "system '" + system + "' failed" + where + " on worker " + worker + ": " + cause
                + "; the run stopped once the jobs already started had finished, so the world's structure is "
                + "unchanged, but columns written before the failure keep their new values. Fix the system; a "
                + "simulation under FailurePolicy.SKIP_TICK skips the tick and goes on";
    }

    /** The name of the system that failed. */
    public String system() {
        return system;
    }

    /**
     * Which of the system's matching chunks failed, counted from 0 in query order; -1 for an
     * exclusive or a range system, and for a violation the checked mode finds after a job
     * (a write into a read-only column, over the job's chunks together).
     */
    public int chunkOrdinal() {
        return chunkOrdinal;
    }
}
