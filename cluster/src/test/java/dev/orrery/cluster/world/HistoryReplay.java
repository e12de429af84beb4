package dev.orrery.cluster.world;

import dev.orrery.cluster.DriftWorld;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The single-node reference of the cluster tests: a world's whole journal history, from tick
 * 0, replayed on one fresh simulation with no snapshot, counting the journaled hashes it does
 * not reproduce.
 */
public final class HistoryReplay {
    /**
     * What the replay gave.
     *
     * @param nextTick the tick after the last one in the history
     * @param hashMismatches journaled hashes the replay did not reproduce
     * @param stateHash the replayed world's state hash at the end
     * @param inputIds per tick, the {@link DriftWorld} input ids in journal order
     */
    public record Result(long nextTick, long hashMismatches, long stateHash, Map<Long, List<Integer>> inputIds) {
    }

    /** Replays the history of {@code worldId} in {@code store} on a fresh simulation of {@code blueprint}. */
    public static Result replay(WorldStore store, String worldId, WorldBlueprint blueprint) throws IOException {
        Map<Long, List<Integer>> ids = new HashMap<>();
        try (Simulation sim = blueprint.build(worldId, true)) {
            InputBatch[] current = {null};
            long[] expected = {0};
            long[] mismatches = {0};
            sim.inputs(new InputSource() {
                @Override
                public InputBatch beginTick(long tick) {
                    return current[0];
                }

                @Override
                public void recordHash(long tick, long stateHash) {
                    mismatches[0] += stateHash == expected[0] ? 0 : 1;
                }
            });
            byte[] payload = new byte[8];
            long next = JournalHistory.forEachTick(store, worldId, 0, (tick, segment) -> {
                List<Integer> here = new ArrayList<>();
                for (int i = 0; i < tick.inputs().size(); i++) {
                    tick.inputs().copyPayload(i, payload, 0);
                    here.add(DriftWorld.inputId(payload));
                }
                ids.put(tick.tick(), here);
                current[0] = tick.inputs();
                expected[0] = tick.stateHash();
                sim.tick();
            });
            return new Result(next, mismatches[0], sim.world().stateHash(), ids);
        }
    }

    private HistoryReplay() {
    }
}
