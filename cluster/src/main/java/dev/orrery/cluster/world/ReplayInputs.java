package dev.orrery.cluster.world;

import dev.orrery.cluster.store.JournalSegment;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.engine.journal.JournalTick;
import java.util.List;

/**
 * Hands each journaled tick to the replay (client payloads only), rebuilds the window and checks
 * the hash: a hash that differs is the engine's {@code ReplayDivergenceException}, as a
 * {@code JournalInputSource} throws it, naming the world, the segment, the tick and the causes.
 */
final class ReplayInputs implements InputSource {
    private final String worldId;
    private final ClientWindows windows;
    private final List<String> leftOut;
    private final InputBatch batch = new InputBatch();
    private final JournaledInput input = new JournaledInput();
    private JournalTick current;
    private JournalSegment segment;

    ReplayInputs(String worldId, ClientWindows windows, List<String> leftOut) {
        this.worldId = worldId;
        this.windows = windows;
        this.leftOut = leftOut;
    }

    void next(JournalTick tick, JournalSegment from) {
        this.current = tick;
        this.segment = from;
    }

    @Override
    public InputBatch beginTick(long tick) {
        if (current == null || current.tick() != tick) {
            throw new IllegalStateException("world '" + worldId + "': replay ran tick " + tick
                    + " but the journal's next tick is " + (current == null ? "none" : current.tick()));
        }
        batch.reset(tick);
        windows.tick(tick);
        InputBatch journaled = current.inputs();
        for (int i = 0; i < journaled.size(); i++) {
            input.read(journaled, i, worldId);
            batch.add(input.client, input.type, input.buffer(), JournaledInput.HEADER, input.length);
            windows.applied(input.clientId, input.sequence, tick);
        }
        return batch;
    }

    @Override
    public boolean wantsHash(long tick) {
        return current.hasHash(); // every journaled hash checked, whatever the blueprint's hashEvery
    }

    @Override
    public void recordHash(long tick, long stateHash) {
        if (current.hasHash() && current.stateHash() != stateHash) {
            throw EngineInternals.replayDivergence("world '" + worldId + "': replay of tick " + tick + " from "
                    + segment.path() + " gave state hash 0x" + Long.toHexString(stateHash) + " but 0x"
                    + Long.toHexString(current.stateHash()) + " was journaled; "
                    + ResourcesLeftOut.replayMismatchCauses(leftOut), tick, current.stateHash(), stateHash);
        }
    }
}
