package dev.orrery.cluster.world;

/**
 * How a world's incarnation snapshots, keeps storage bounded and de-duplicates inputs.
 *
 * <p><b>Storage bound.</b> With {@code keepSnapshots} K above 0, after each snapshot the
 * world keeps its K latest valid snapshots (a hand-off snapshot counts among them) and
 * deletes older snapshots, the journal segments that lie wholly before the oldest one kept,
 * and all but the last 16 epoch markers. A world then stores at most K snapshots, the
 * journal ticks from the oldest of them on (at most K x {@code snapshotEvery} ticks plus
 * those since the last snapshot), and 17 empty epoch files. K = 0 keeps everything (for
 * audits that replay a world from tick 0).
 *
 * <p><b>De-duplication.</b> Per client id the world remembers the highest sequence it
 * applied and which of the {@code window} sequences below it applied, at which tick; that
 * table is in every snapshot and rebuilt by replay, so a retry is recognised after any move.
 * A sequence at or below {@code highest - window} that is not remembered is refused (a
 * client keeps fewer than {@code window} inputs unanswered per world). At most
 * {@code maxClients} clients are remembered (a new one beyond is refused); a client sending
 * nothing for {@code clientExpiryTicks} ticks is forgotten, so a client must not retry an
 * input longer than that. Memory: at most 16 x {@code window} x {@code maxClients} bytes
 * per world.
 *
 * @param snapshotEvery snapshot every this many ticks (0: only on a hand-off); bounds a
 *     crash's replay
 * @param keepSnapshots snapshots kept per world, 2 or more (0: keep everything)
 * @param window sequences remembered per client below its highest
 * @param maxClients clients remembered per world
 * @param clientExpiryTicks ticks without an input after which a client is forgotten
 * @param maxPendingInputs inputs one tick takes; more are answered unknown (busy, retry)
 */
public record WorldSettings(int snapshotEvery, int keepSnapshots, int window, int maxClients, long clientExpiryTicks,
        int maxPendingInputs) {
    /** Checks the fields; each message names the one that is wrong. */
    public WorldSettings {
        if (snapshotEvery < 0) {
            throw new IllegalArgumentException("snapshotEvery must be 0 (only on hand-off) or positive, got "
                    + snapshotEvery);
        }
        if (keepSnapshots < 0 || keepSnapshots == 1) {
            throw new IllegalArgumentException("keepSnapshots must be 0 (keep everything) or 2 or more, got "
                    + keepSnapshots + " (with 2, a node opening a world never finds the snapshot it reads deleted by "
                    + "a fenced holder's last clean-up)");
        }
        if (window < 1 || window > 1 << 16) {
            throw new IllegalArgumentException("the de-duplication window must be 1 to 65536 sequences, got " + window);
        }
        if (maxClients < 1) {
            throw new IllegalArgumentException("maxClients must be 1 or more, got " + maxClients);
        }
        if (clientExpiryTicks < 1) {
            throw new IllegalArgumentException("clientExpiryTicks must be 1 or more, got " + clientExpiryTicks);
        }
        if (maxPendingInputs < 1) {
            throw new IllegalArgumentException("maxPendingInputs must be 1 or more, got " + maxPendingInputs);
        }
    }

    /**
     * A snapshot every 300 ticks, the last 2 kept; a window of 512 sequences for up to 1024
     * clients each, forgotten after 18 000 idle ticks (10 minutes at 30 Hz); 10 000 inputs a
     * tick.
     */
    public static WorldSettings defaults() {
        return new WorldSettings(300, 2, 512, 1024, 18_000, 10_000);
    }

    /** These settings with a snapshot every {@code ticks} ticks (0: only on hand-off). */
    public WorldSettings withSnapshotEvery(int ticks) {
        return new WorldSettings(ticks, keepSnapshots, window, maxClients, clientExpiryTicks, maxPendingInputs);
    }

    /** These settings keeping the last {@code k} snapshots (0: keep everything). */
    public WorldSettings withKeepSnapshots(int k) {
        return new WorldSettings(snapshotEvery, k, window, maxClients, clientExpiryTicks, maxPendingInputs);
    }

    /** These settings with another de-duplication window, client limit and expiry. */
    public WorldSettings withWindow(int sequences, int clients, long expiryTicks) {
        return new WorldSettings(snapshotEvery, keepSnapshots, sequences, clients, expiryTicks, maxPendingInputs);
    }

    /** These settings taking at most {@code n} inputs a tick. */
    public WorldSettings withMaxPendingInputs(int n) {
        return new WorldSettings(snapshotEvery, keepSnapshots, window, maxClients, clientExpiryTicks, n);
    }
}
