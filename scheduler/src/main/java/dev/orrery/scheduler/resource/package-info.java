/**
 * Resources: a schedule's singleton values (settings, counts, grids, this tick's inputs),
 * stored in {@link dev.orrery.scheduler.resource.Resources} under the typed
 * {@link dev.orrery.scheduler.access.ResourceKey}s systems declare, and
 * {@link dev.orrery.scheduler.resource.LongSum}, a count that parallel jobs add to with no
 * lock (per-worker padded slots, folded into one total for later readers). The engine keeps
 * its snapshot codecs on top of the same store.
 *
 * <p><b>Memory ordering:</b> the store is plain (unsynchronised) memory. The owner thread
 * writes it between runs; jobs read it during a run, after the executor's job hand-off,
 * which is the happens-before edge; a system's reductions are read by systems ordered after
 * it, whose start the executor orders after the reducing jobs' completion.
 */
package dev.orrery.scheduler.resource;
