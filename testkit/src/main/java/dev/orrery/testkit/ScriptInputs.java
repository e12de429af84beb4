package dev.orrery.testkit;

import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.scheduler.SystemFailedException;
import java.util.List;

/**
 * An {@link InputSource} fed by an {@link InputScript}: each tick's batch is the script's inputs
 * for it. It also keeps what skipped the tick last begun ({@code FailurePolicy.SKIP_TICK}), so
 * that a check can compare which system failed in two runs, not only their states.
 *
 * <p><b>Threading:</b> the simulation's tick thread only.
 */
final class ScriptInputs implements InputSource {
    private final InputScript script;
    private final InputBatch batch = new InputBatch();
    private SystemFailedException skipped;

    ScriptInputs(InputScript script) {
        this.script = script;
    }

    @Override
    public InputBatch beginTick(long tick) {
        skipped = null;
        batch.reset(tick);
        script.inputs(tick, (client, type, payload) -> batch.add(client, type, payload, 0, payload.length));
        return batch;
    }

    @Override
    public void recordHash(long tick, long hash) {
    }

    @Override
    public void tickSkipped(long tick, SystemFailedException failure, List<String> systems) {
        skipped = failure;
    }

    /** What skipped the tick last begun, or null when it ran in full. */
    SystemFailedException skipped() {
        return skipped;
    }
}
