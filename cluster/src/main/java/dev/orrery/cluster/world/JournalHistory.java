package dev.orrery.cluster.world;

import dev.orrery.cluster.store.JournalSegment;
import dev.orrery.cluster.store.SnapshotInfo;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The rules that make a world's stored segments and snapshots one history, whatever moves
 * and fenced writers left behind:
 * <ul>
 *   <li>segments are read in epoch order (an epoch's segments by start tick: a world starts
 *       a new segment at each periodic snapshot); a segment holds history only up to the
 *       start tick of any later segment (a fenced writer may have journaled past it,
 *       unacknowledged);
 *   <li>a segment cut by a crash holds history up to its last complete tick;
 *   <li>a snapshot of epoch {@code e} at tick {@code S} is valid when a segment of epoch
 *       {@code e} exists and {@code S} lies between its start tick and its limit.
 * </ul>
 * Retention ({@link #retain}) deletes only what these rules no longer need: snapshots older
 * than the ones kept, and a prefix of the segments (in epoch order) whose ticks all lie
 * before the oldest snapshot kept and which validate no snapshot kept; limits depend only on
 * later segments, so deleting a prefix changes no remaining segment's history.
 * Ticks read this way are consecutive; a gap means the store lost a segment and is
 * reported, never skipped.
 *
 * <p><b>Threading:</b> stateless; call from any thread.
 */
final class JournalHistory {
    /** Epoch markers kept below the current epoch when retention is on. */
    static final int EPOCHS_KEPT = 16;

    /** Receives the ticks of a history in order. */
    @FunctionalInterface
    public interface TickVisitor {
        /**
         * Tick {@code tick} (reused by the next call) was read from {@code segment}, journaled
         * under failure policy {@code policy} (the segment's). {@code cutAfter}: the segment's
         * file ends right after the tick's end (a crash cut it there), so a skipped-tick note or
         * a hash journaled after it may be what the crash lost; a replay that skips such a tick
         * with no note is let pass, as a {@code JournalInputSource} lets the last tick of a cut
         * journal pass.
         */
        void visit(JournalTick tick, JournalSegment segment, FailurePolicy policy, boolean cutAfter)
                throws IOException;
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
                    // cut() is set as soon as nothing followed the tick's end
                    visitor.visit(tick, segment, reader.failurePolicy(), reader.cut() != null);
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

    /** The snapshots of {@code worldId} the history rules accept, newest first (by tick, then epoch). */
    public static List<SnapshotInfo> validSnapshots(WorldStore store, String worldId) throws IOException {
        return validSnapshots(store.snapshots(worldId), store.segments(worldId));
    }

    private static List<SnapshotInfo> validSnapshots(List<SnapshotInfo> snapshots, List<JournalSegment> segments) {
        List<SnapshotInfo> out = new ArrayList<>();
        for (SnapshotInfo s : snapshots) {
            if (valid(s, segments)) {
                out.add(s);
            }
        }
        out.sort(Comparator.comparingLong(SnapshotInfo::tick).thenComparingLong(SnapshotInfo::epoch).reversed());
        return out;
    }

    /**
     * Keeps the {@code keep} newest valid snapshots of {@code worldId} and deletes what the
     * history no longer needs: every other snapshot older than the oldest kept or written by
     * an epoch before {@code epoch} and invalid (a fenced writer's), the segments wholly
     * before the oldest kept snapshot (a prefix in epoch order, never a segment that
     * validates a kept snapshot, never epoch {@code epoch}'s), and epoch markers more than
     * 16 below {@code epoch}. Called by the holder of epoch {@code epoch} after a snapshot.
     *
     * @return the number of files deleted
     */
    public static int retain(WorldStore store, String worldId, long epoch, int keep) throws IOException {
        if (keep < 1) {
            return 0;
        }
        List<JournalSegment> segments = store.segments(worldId);
        List<SnapshotInfo> all = store.snapshots(worldId);
        List<SnapshotInfo> valid = validSnapshots(all, segments);
        if (valid.isEmpty()) {
            return 0;
        }
        List<SnapshotInfo> kept = valid.subList(0, Math.min(keep, valid.size()));
        long keepFrom = Long.MAX_VALUE;
        for (SnapshotInfo s : kept) {
            keepFrom = Math.min(keepFrom, s.tick());
        }
        int deleted = 0;
        for (SnapshotInfo s : all) {
            if (kept.contains(s)) {
                continue;
            }
            boolean isValid = valid.contains(s);
            if (s.tick() <= keepFrom && isValid || !isValid && s.epoch() < epoch) {
                deleted += delete(() -> store.deleteSnapshot(worldId, s));
            }
        }
        for (int i = 0; i < segments.size(); i++) {
            JournalSegment seg = segments.get(i);
            long limit = limit(segments, i);
            if (seg.epoch() > epoch || limit > keepFrom || validates(seg, limit, kept)) {
                break;
            }
            deleted += delete(() -> store.deleteSegment(worldId, seg));
        }
        if (epoch > EPOCHS_KEPT) {
            store.forgetEpochsBefore(worldId, epoch - EPOCHS_KEPT);
        }
        return deleted;
    }

    private static boolean validates(JournalSegment seg, long limit, List<SnapshotInfo> kept) {
        for (SnapshotInfo s : kept) {
            if (s.epoch() == seg.epoch() && s.tick() >= seg.startTick() && s.tick() <= limit) {
                return true;
            }
        }
        return false;
    }

    private interface Deletion {
        void run() throws IOException;
    }

    private static int delete(Deletion d) throws IOException {
        try {
            d.run();
            return 1;
        } catch (NoSuchFileException raced) {
            return 0; // another holder's retention got there first
        }
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

    /**
     * The policy to replay a tick journaled under {@code journaled} with, on a simulation whose
     * blueprint says {@code blueprint}: {@code SKIP_TICK} where the journal skipped under it, so
     * that its skipped ticks replay skipped (as {@code RunReplayer} replays under the recorded
     * policy) whatever the blueprint says now; otherwise the blueprint's, so that a world whose
     * tick failed under {@code STOP} (the failing tick journaled last, in a cut segment) opens
     * again once its blueprint says {@code SKIP_TICK}.
     */
    static FailurePolicy replayPolicy(FailurePolicy journaled, FailurePolicy blueprint) {
        return journaled == FailurePolicy.SKIP_TICK ? journaled : blueprint;
    }

    private JournalHistory() {
    }
}
