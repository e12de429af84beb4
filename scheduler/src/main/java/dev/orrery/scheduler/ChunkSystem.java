package dev.orrery.scheduler;

/**
 * The body of an ordinary system: called once per matching chunk, with the chunk bound to
 * {@link JobContext#chunk()}. It may read and write the columns its system declared, and
 * nothing else; it must not make structural changes (they throw while jobs run) nor iterate
 * a {@code Query} itself (iteration takes the world's structure lock, which only the
 * calling thread may touch).
 *
 * <p><b>Threading:</b> called from any worker thread, possibly on several threads at once
 * for different chunks of the same system. Keep per-call state in locals; state shared
 * between calls must be thread-safe or per worker (index it by {@link JobContext#workerId()}).
 */
@FunctionalInterface
public interface ChunkSystem {
    /**
     * Processes rows {@code [0, job.chunk().size())} of the bound chunk.
     *
     * @param job the worker's context, its chunk bound; valid only during the call
     */
    void run(JobContext job);
}
