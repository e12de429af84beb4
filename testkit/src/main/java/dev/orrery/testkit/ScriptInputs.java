package dev.orrery.testkit;

import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;

/** An {@link InputSource} fed by an {@link InputScript}: each tick's batch is the script's inputs for it. */
final class ScriptInputs implements InputSource {
    private final InputScript script;
    private final InputBatch batch = new InputBatch();

    ScriptInputs(InputScript script) {
        this.script = script;
    }

    @Override
    public InputBatch beginTick(long tick) {
        batch.reset(tick);
        script.inputs(tick, (client, type, payload) -> batch.add(client, type, payload, 0, payload.length));
        return batch;
    }

    @Override
    public void recordHash(long tick, long hash) {
    }
}
