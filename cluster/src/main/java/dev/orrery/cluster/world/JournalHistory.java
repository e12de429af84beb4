package dev.orrery.cluster.world;

import dev.orrery.cluster.store.JournalSegment;
import dev.orrery.cluster.store.SnapshotInfo;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The rules that make a world's stored segments and snapshots one history, whatever moves
 * and fenced writers left behind:
 * <ul>
 *   <li>segments are read in epoch order; a segment holds history only up to the start tick
 *       of any later segment (a fenced writer may have journaled past it, unacknowledged);
 *   <li>a segment cut by a crash holds history up to its last complete tick;
 *   <li>a snapshot of epoch {@code e} at tick {@code S} is valid when a segment of epoch
 *       {@code e} exists and {@code S} lies between its start tick and its limit.
 * </ul>
 * Ticks read this way are consecutive; a gap means the store lost a segment and is
 * reported, never skipped.
 *
 * <p><b>Threading:</b> stateless; call from any thread.
 */
final class JournalHistory {
    /** Receives the ticks of a history in order. */
    @FunctionalInterface
    public interface TickVisitor {
        /** Tick {@code tick} (reused by the next call) was read from {@code segment}. */
        void visit(JournalTick tick, JournalSegment segment) throws IOException;
    }

    /**
     * Reads the history of {@code worldId} from tick {@code fromTick} on, in order, into
     * {@code visitor}.
     *
     * @return the tick after the last one visited ({@code fromTick} if none was)
     * @throws IOException if a segment is damaged in a way a crash does not explain (a
     *     {@code CorruptJournalException}), or the history has a gap before its end
     */
    public static long forEachTick(WorldStore store, String worldId, long fromTick, TickVisitor visitor)
            throws IOException {
        List<JournalSegment> segments = store.segments(worldId);
        long next = fromTick;
        JournalTick tick = new JournalTick();
        for (int i = 0; i < segments.size(); i++) {
            JournalSegment segment = segments.get(i);
            long limit = limit(segments, i);
            if (limit <= next) {
                continue;
            }
            try (JournalReader reader = JournalReader.openAllowingCut(segment.path())) {
                while (reader.nextTick(tick)) {
                    long t = tick.tick();
                    if (t >= limit) {
                        break;
                    }
                    if (t < next) {
                        continue;
                    }
                    if (t > next) {
                        throw new IOException("world '" + worldId + "': journal history jumps from tick "
                                + next + " to tick " + t + " in " + segment.path()
                                + "; a segment is missing from the store, restore it or replay from a later snapshot");
                    }
                    next = t + 1;
                    visitor.visit(tick, segment);
                }
            }
        }
        return next;
    }

    /** The latest snapshot of {@code worldId} that the history rules accept, if any. */
    public static Optional<SnapshotInfo> latestValidSnapshot(WorldStore store, String worldId) throws IOException {
        List<JournalSegment> segments = store.segments(worldId);
        SnapshotInfo best = null;
        for (SnapshotInfo s : store.snapshots(worldId)) {
            if ((best == null || s.tick() > best.tick()) && valid(s, segments)) {
                best = s;
            }
        }
        return Optional.ofNullable(best);
    }

    private static boolean valid(SnapshotInfo s, List<JournalSegment> segments) {
        for (int i = 0; i < segments.size(); i++) {
            JournalSegment seg = segments.get(i);
            if (seg.epoch() == s.epoch() && s.tick() >= seg.startTick() && s.tick() <= limit(segments, i)) {
                return true;
            }
        }
        return false;
    }

    /** The first tick segment {@code i} may not hold: the earliest start of a later segment. */
    private static long limit(List<JournalSegment> segments, int i) {
        long limit = Long.MAX_VALUE;
        for (int j = i + 1; j < segments.size(); j++) {
            limit = Math.min(limit, segments.get(j).startTick());
        }
        return limit;
    }

    private JournalHistory() {
    }
}
