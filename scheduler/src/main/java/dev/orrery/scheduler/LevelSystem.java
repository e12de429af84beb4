package dev.orrery.scheduler;

import dev.orrery.ecs.Hierarchy;

/**
 * The body of a level system: a walk of a forest relation ({@code ChildOf}) in its
 * {@link Hierarchy} order, level by level, where a slot's parent is always done before the
 * slot. Transform propagation is the classic use:
 *
 * <pre>{@code
 * .system("propagate").reads(local).writes(global)
 *     .forEachLevel(childOf, (job, h, from, to) -> {
 *         for (int i = from; i < to; i++) {
 *             int p = h.parentSlot(i);                          // -1 for a root
 *             long e = h.entity(i);
 *             float x = job.getFloat(e, localX);
 *             if (p >= 0) x += job.getFloat(h.entity(p), globalX); // the parent's, written a level earlier
 *             job.setFloat(e, globalX, x);
 *         }
 *     })
 * }</pre>
 *
 * By-id access costs a checked look-up per field; for a pass over a whole large forest, keep
 * the data in arrays indexed by slot in a resource (filled and emptied by chunk systems in
 * row order through {@link Hierarchy#slotOf}) and let the body work on the arrays alone,
 * declaring {@code writesResource}: the transform propagation of the book's relations chapter, over 20 times
 * faster than the by-id body above.
 *
 * <p><b>How it runs.</b> As the system starts (on the executor's calling thread, after every
 * system it waits for) the executor takes the relation's current {@link Hierarchy}; the pairs
 * do not change until the system ends (they change only at sync points, and pair commands
 * recorded now are applied at the next one). It then runs the levels in order: a level large
 * enough is split into ranges of slots run as jobs on the workers (sized like a range
 * system's: {@code minBatchRows}, or adaptively), and every job of level {@code L} finishes
 * before any slot of level {@code L + 1} starts; consecutive small levels run together as one
 * job; a hierarchy too small to split runs inline on the calling thread. Each call gets slots
 * {@code [from, to)} of one level, {@code from < to}.
 *
 * <p><b>Access.</b> The body reads and writes components by id through the {@link JobContext}
 * ({@link JobContext#getFloat}, {@link JobContext#setFloat}, ...), checked against the
 * system's declared reads and writes; the relation's marker column counts as declared read
 * (so {@code job.getLong(e, childOf.target())} works and the graph puts a sync point before
 * the system after a system that declared pair changes). {@link JobContext#chunk()} is
 * {@code null} and {@link JobContext#chunkOrdinal()} is -1.
 *
 * <p><b>Commands and events</b> recorded through {@link JobContext#commands()} and
 * {@link JobContext#send} are keyed by the first slot of the call, so playback applies them in
 * slot order (the order one thread walking {@code [0, size)} would record them), however the
 * levels were split and whichever worker ran which range. The hierarchy may hold at most
 * 2<sup>24</sup> slots (the key's chunk-ordinal bits); a larger one fails the system.
 *
 * <p><b>Threading:</b> called on any worker thread, on several at once for disjoint ranges of
 * the same level. A call may write only the entities of its own slots; it may read any
 * entity of an earlier level (every write of an earlier level happens-before it: the jobs
 * of a level come back through the executor's completion queue before the next level's are
 * handed out) and of its own slots. The end of the last level happens-before the start of
 * any system that waits for this one.
 */
@FunctionalInterface
public interface LevelSystem {
    /**
     * Processes slots {@code [from, to)} of {@code hierarchy}, all of one level; every slot of
     * the levels before it is done.
     *
     * @param job the worker's context (no chunk); valid only during the call
     * @param hierarchy the relation's hierarchy, read-only; {@code hierarchy.entity(i)} is slot
     *     {@code i}'s entity
     * @param from the first slot, inclusive
     * @param to the end, exclusive; {@code [from, to)} lies within one level
     */
    void run(JobContext job, Hierarchy hierarchy, int from, int to);
}
