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
    /**
     * Checks the fields; each message names the one that is wrong.
     *
     * @param snapshotEvery the snapshot period in ticks, 0 or more (0: only on a hand-off)
     * @param keepSnapshots the snapshots kept, 0 (all) or 2 or more
     * @param window the sequences remembered per client, 1 to 65536
     * @param maxClients the clients remembered per world, 1 or more
     * @param clientExpiryTicks the idle ticks before a client is forgotten, 1 or more
     * @param maxPendingInputs the inputs one tick takes, 1 or more
     * @throws IllegalArgumentException naming the field and its range when one is out of range
     */
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
     *
     * @return the settings above
     */
    public static WorldSettings defaults() {
        return new WorldSettings(300, 2, 512, 1024, 18_000, 10_000);
    }

    /**
     * These settings with a snapshot every {@code ticks} ticks (0: only on hand-off).
     *
     * @param ticks the snapshot period in ticks, 0 or more
     * @return new settings; these are unchanged
     * @throws IllegalArgumentException when {@code ticks} is negative
     */
    public WorldSettings withSnapshotEvery(int ticks) {
        return new WorldSettings(ticks, keepSnapshots, window, maxClients, clientExpiryTicks, maxPendingInputs);
    }

    /**
     * These settings keeping the last {@code k} snapshots (0: keep everything).
     *
     * @param k the snapshots kept, 0 (all) or 2 or more
     * @return new settings; these are unchanged
     * @throws IllegalArgumentException naming the value when it is 1 or negative
     */
    public WorldSettings withKeepSnapshots(int k) {
        return new WorldSettings(snapshotEvery, k, window, maxClients, clientExpiryTicks, maxPendingInputs);
    }

    /**
     * These settings with another de-duplication window, client limit and expiry.
     *
     * @param sequences the sequences remembered per client, 1 to 65536; keep it above the inputs a
     *     client leaves unanswered per world
     * @param clients the clients remembered per world, 1 or more
     * @param expiryTicks the idle ticks before a client is forgotten, 1 or more; keep it above how
     *     long a client retries an input
     * @return new settings; these are unchanged
     * @throws IllegalArgumentException naming the field when one is out of range
     */
    public WorldSettings withWindow(int sequences, int clients, long expiryTicks) {
        return new WorldSettings(snapshotEvery, keepSnapshots, sequences, clients, expiryTicks, maxPendingInputs);
    }

    /**
     * These settings taking at most {@code n} inputs a tick.
     *
     * @param n the inputs one tick takes, 1 or more
     * @return new settings; these are unchanged
     * @throws IllegalArgumentException when {@code n} is below 1
     */
    public WorldSettings withMaxPendingInputs(int n) {
        return new WorldSettings(snapshotEvery, keepSnapshots, window, maxClients, clientExpiryTicks, n);
    }
}
