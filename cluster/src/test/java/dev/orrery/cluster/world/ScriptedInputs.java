package dev.orrery.cluster.world;

import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The inputs a test offered a world, by tick, fed to a straight run of the same blueprint as
 * client 1's inputs of one type: the reference a moved or replayed world must match.
 *
 * <p><b>Threading:</b> the simulation's tick thread.
 */
final class ScriptedInputs implements InputSource {
    private final Map<Long, List<Integer>> script;
    private final int type;
    private final IntFunction<byte[]> payload;
    private final InputBatch batch = new InputBatch();

    /** Each id in {@code script}'s list for a tick becomes an input of {@code type} with {@code payload.apply(id)}. */
    ScriptedInputs(Map<Long, List<Integer>> script, int type, IntFunction<byte[]> payload) {
        this.script = script;
        this.type = type;
        this.payload = payload;
    }

    @Override
    public InputBatch beginTick(long tick) {
        batch.reset(tick);
        for (int id : script.getOrDefault(tick, List.of())) {
            byte[] p = payload.apply(id);
            batch.add(1, type, p, 0, p.length);
        }
        return batch;
    }

    @Override
    public void recordHash(long tick, long stateHash) {
    }
}
