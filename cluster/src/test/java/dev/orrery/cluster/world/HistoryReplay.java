package dev.orrery.cluster.world;

import dev.orrery.cluster.DriftWorld;
import dev.orrery.cluster.store.SnapshotInfo;
import dev.orrery.cluster.store.WorldStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The single-node reference of the cluster tests: a world's whole journal history, replayed
 * on one fresh simulation by {@link WorldVerifier} (from tick 0 when the store keeps it),
 * counting the journaled hashes it does not reproduce and collecting each tick's inputs.
 */
public final class HistoryReplay {
    /**
     * What the replay gave.
     *
     * @param nextTick the tick after the last one in the history
     * @param hashMismatches journaled hashes the replay did not reproduce
     * @param stateHash the replayed world's state hash at the end
     * @param inputIds per tick, the {@link DriftWorld} input ids in journal order
     * @param applied per client id and sequence, the tick it applied in (a second application is in {@code report})
     * @param report the verifier's report
     */
    public record Result(long nextTick, long hashMismatches, long stateHash, Map<Long, List<Integer>> inputIds,
            Map<List<Long>, Long> applied, WorldVerifier.Report report) {
    }

    /** Replays the history of {@code worldId} in {@code store} on a fresh simulation of {@code blueprint}. */
    public static Result replay(WorldStore store, String worldId, WorldBlueprint blueprint) throws IOException {
        Map<Long, List<Integer>> ids = new HashMap<>();
        Map<List<Long>, Long> applied = new HashMap<>();
        WorldVerifier.Report r = WorldVerifier.verify(store, worldId, blueprint,
                (tick, index, clientId, sequence, type, payload, length) -> {
                    ids.computeIfAbsent(tick, t -> new ArrayList<>()).add(ByteBuffer.wrap(payload).getInt());
                    applied.putIfAbsent(List.of(clientId, sequence), tick);
                });
        return new Result(r.nextTick(), r.hashMismatches() + r.snapshotMismatches(), r.stateHash(), ids, applied, r);
    }

    /**
     * The state hash of the snapshot of {@code worldId} that epoch {@code epoch} stored before
     * tick {@code tick} (a hand-off snapshot), restored on a fresh simulation of
     * {@code blueprint}; empty if the store holds no such snapshot.
     */
    public static OptionalLong snapshotHash(WorldStore store, String worldId, long epoch, long tick,
            WorldBlueprint blueprint) throws IOException {
        for (SnapshotInfo s : store.snapshots(worldId)) {
            if (s.epoch() == epoch && s.tick() == tick) {
                return OptionalLong.of(WorldVerifier.restoredHash(store, worldId, blueprint, s));
            }
        }
        return OptionalLong.empty();
    }

    private HistoryReplay() {
    }
}
