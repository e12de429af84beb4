package dev.orrery.cluster.store;

import java.nio.file.Path;

/**
 * A piece of one incarnation's input journal: the ticks a world ran from {@code startTick}
 * on, while epoch {@code epoch} held it (an incarnation starts a new segment at each periodic
 * snapshot). A later segment's start cuts an earlier one there: ticks an old, fenced writer
 * journaled past it were never acknowledged and are not history.
 *
 * @param epoch the epoch of the writer
 * @param startTick the first tick the segment may hold
 * @param path the journal file (a {@code dev.orrery.engine.journal} journal)
 */
public record JournalSegment(long epoch, long startTick, Path path) {
}
