package dev.orrery.cluster.world;

/**
 * What opening a world on a node cost: where it was restored from and how many journaled
 * ticks it replayed to reach the tick where it had left off.
 *
 * @param worldId the world
 * @param epoch the epoch this incarnation claimed
 * @param snapshotTick the tick of the snapshot restored, or -1 if the world was built fresh
 * @param ticksReplayed journaled ticks run again after the snapshot
 * @param resumeTick the first tick this incarnation runs live
 * @param restoreNanos time spent building the simulation and restoring the snapshot
 * @param replayNanos time spent replaying the journal
 */
public record RecoveryReport(String worldId, long epoch, long snapshotTick, long ticksReplayed, long resumeTick,
        long restoreNanos, long replayNanos) {
    /**
     * Building, restoring and replaying together, in milliseconds.
     *
     * @return {@code (restoreNanos + replayNanos) / 1e6}
     */
    public double openMillis() {
        return (restoreNanos + replayNanos) / 1e6;
    }
}
