package dev.orrery.cluster.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The durable state of sharded worlds: per world id, its epochs, snapshots and input
 * journal segments. A world's incarnation on a node first {@link #claim claims} a new epoch,
 * which fences every older incarnation: an old writer checks {@link #isCurrent} after each
 * durable tick and acknowledges nothing once it has lost, and the history rules of
 * {@code JournalHistory} ignore what a fenced writer stored after the new epoch began.
 *
 * <p>A production store keeps the same three things in services built for them: the epoch
 * as a compare-and-set counter in a consensus store (etcd, ZooKeeper, or a conditional write
 * in DynamoDB or Postgres); the journal in a replicated log (Apache BookKeeper ledgers, a
 * Kafka partition per shard with the epoch as the producer fencing token, or a replicated
 * block volume); snapshots in object storage (S3, GCS) under a key holding tick and epoch.
 * {@link DirectoryWorldStore} is the shared-directory form for one machine or an NFS mount.
 *
 * <p><b>Threading:</b> implementations are thread-safe and may be shared by several nodes.
 */
public interface WorldStore {
    /**
     * Refuses a world id this store cannot keep a world under. {@code ClusterNode} asks before
     * it sends anything to a world, so a bad id is answered at once (an input refused, a
     * status or hold thrown) instead of reaching a world that fails to open on every retry.
     * The default refuses {@code null} and the empty id; a store whose keys are narrower
     * ({@link DirectoryWorldStore}: folder names) refuses what it cannot name.
     *
     * @param worldId the id to check; may be null (then refused)
     * @throws IllegalArgumentException naming the id and the ids this store takes
     */
    default void checkWorldId(String worldId) {
        if (worldId == null || worldId.isEmpty()) {
            throw new IllegalArgumentException("world id " + (worldId == null ? "null" : "''") + " names no world; "
                    + "give every world a non-empty id");
        }
    }

    /**
     * Claims the next epoch of {@code worldId}: greater than every epoch claimed before, by
     * any node. From now on {@link #isCurrent} is false for every older epoch.
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @return the new epoch (1 for a world never claimed)
     * @throws IOException if the store cannot be reached or written
     */
    long claim(String worldId) throws IOException;

    /**
     * Whether {@code epoch} is still the latest epoch claimed for {@code worldId}.
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @param epoch an epoch {@link #claim} returned
     * @return true while no later epoch has been claimed; false once one has, for good
     * @throws IOException if the store cannot be reached or read
     */
    boolean isCurrent(String worldId, long epoch) throws IOException;

    /**
     * Every stored snapshot of {@code worldId}, in no particular order (empty for a new world).
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @return the snapshots' ticks and epochs; an empty list for a world with none
     * @throws IOException if the store cannot be reached or read
     */
    List<SnapshotInfo> snapshots(String worldId) throws IOException;

    /**
     * The bytes of a snapshot listed by {@link #snapshots}.
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @param snapshot one of the entries {@link #snapshots} returned
     * @return the snapshot's bytes, as {@link #writeSnapshot} was given them
     * @throws java.nio.file.NoSuchFileException if it is not (or no longer) stored
     * @throws IOException if the store cannot be reached or read otherwise
     */
    byte[] readSnapshot(String worldId, SnapshotInfo snapshot) throws IOException;

    /**
     * Stores a snapshot of {@code worldId} taken by epoch {@code epoch} before tick
     * {@code tick}; a reader sees all of it or none of it.
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @param epoch the writer's epoch, as {@link #claim} returned it
     * @param tick the simulation's {@code currentTick()} when the snapshot was taken
     * @param snapshot the snapshot's bytes ({@code Simulation.snapshot()})
     * @throws IOException if the store cannot be reached or written; then no reader sees the snapshot
     */
    void writeSnapshot(String worldId, long epoch, long tick, byte[] snapshot) throws IOException;

    /**
     * Every journal segment of {@code worldId}, ordered by epoch, then start tick (empty for a new world).
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @return the segments in that order; an empty list for a world with none
     * @throws IOException if the store cannot be reached or read
     */
    List<JournalSegment> segments(String worldId) throws IOException;

    /**
     * Deletes a snapshot listed by {@link #snapshots} (retention, see
     * {@code WorldSettings#keepSnapshots()}).
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @param snapshot one of the entries {@link #snapshots} returned
     * @throws java.nio.file.NoSuchFileException if it is no longer stored
     * @throws IOException if the store cannot be reached or written otherwise
     */
    void deleteSnapshot(String worldId, SnapshotInfo snapshot) throws IOException;

    /**
     * Deletes a journal segment listed by {@link #segments} whose ticks the world's history
     * no longer needs (they lie before every snapshot kept).
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @param segment one of the entries {@link #segments} returned
     * @throws java.nio.file.NoSuchFileException if it is no longer stored
     * @throws IOException if the store cannot be reached or written otherwise
     */
    void deleteSegment(String worldId, JournalSegment segment) throws IOException;

    /**
     * Lets the store drop what it keeps of epochs of {@code worldId} below {@code epoch};
     * {@link #isCurrent} stays false for them and {@link #claim} still returns an epoch above
     * every one claimed. A no-op is correct.
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @param epoch the lowest epoch whose record must be kept
     * @throws IOException if the store cannot be reached or written
     */
    void forgetEpochsBefore(String worldId, long epoch) throws IOException;

    /**
     * The path where epoch {@code epoch} journals the ticks of {@code worldId} from
     * {@code startTick} on (the file does not exist yet; the caller creates it with
     * {@code JournalWriter.create}).
     *
     * @param worldId the world's id, one {@link #checkWorldId} takes
     * @param epoch the writer's epoch, as {@link #claim} returned it
     * @param startTick the first tick the segment will hold
     * @return the file's path; its parent folder exists
     * @throws IOException if the store cannot be reached or the segment's folder made
     */
    Path newSegment(String worldId, long epoch, long startTick) throws IOException;
}
