package dev.orrery.scheduler;

/**
 * The body of a range system: a data-parallel loop over the indices {@code [0, count)} that
 * its system's count gives when the system starts, split into ranges that run as jobs on
 * the workers. It works on resources (declared with {@code readsResource} and
 * {@code writesResource}), not on chunks: a spatial grid, a flow field, a table built by an
 * earlier system. Each index belongs to exactly one range per run.
 *
 * <p>{@link JobContext#chunk()} is {@code null} inside a range body. Structural changes go
 * through {@link JobContext#commands()}: playback applies them in index order (the order
 * one thread running {@code [0, count)} would record them), whichever worker ran which
 * range and however the indices were split.
 *
 * <p><b>Threading:</b> called from any worker thread, possibly on several threads at once
 * for disjoint ranges of the same run. A body may write the slots of a resource that belong
 * to its own indices; anything it shares with other ranges must be thread-safe. The end of
 * every range happens-before the start of any system that waits for this one.
 */
@FunctionalInterface
public interface RangeSystem {
    /**
     * Processes indices {@code [from, to)}, {@code from < to}.
     *
     * @param job the worker's context (no chunk); valid only during the call
     * @param from the first index, inclusive, 0 or more
     * @param to the end, exclusive, at most the count the system started with
     */
    void run(JobContext job, int from, int to);
}
