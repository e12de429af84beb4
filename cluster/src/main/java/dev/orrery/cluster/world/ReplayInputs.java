package dev.orrery.cluster.world;

import dev.orrery.cluster.store.JournalSegment;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.ReplayDivergenceException;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.scheduler.SystemFailedException;
import java.util.List;

/**
 * Hands each journaled tick to the replay (client payloads only), rebuilds the window and checks
 * the tick against the journal as a {@code JournalInputSource} does: every journaled hash,
 * whatever the blueprint's {@code hashEvery}, and every skipped tick ({@code FailurePolicy.SKIP_TICK}):
 * a tick the journal notes skipped must be skipped by the replay, for the same system, and the other way round, except
 * a tick the replay skips as the last of a segment a crash cut right after its end (the note may be
 * what the crash lost). A difference is the engine's {@code ReplayDivergenceException}, naming the
 * world, the segment, the tick, the system that threw and the causes; a skip that differs is named
 * before the hash it makes differ.
 *
 * <p><b>Threading:</b> the replaying simulation's tick thread, like every {@link InputSource}.
 */
final class ReplayInputs implements InputSource {
    private final String worldId;
    private final ClientWindows windows;
    private final List<String> leftOut;
    private final InputBatch batch = new InputBatch();
    private final JournaledInput input = new JournaledInput();
    private JournalTick current;
    private JournalSegment segment;
    private final SkipCheck skips = new SkipCheck();

    ReplayInputs(String worldId, ClientWindows windows, List<String> leftOut) {
        this.worldId = worldId;
        this.windows = windows;
        this.leftOut = leftOut;
    }

    /** The next tick to replay, read from {@code from}; {@code cutAfter} as {@link JournalHistory.TickVisitor} says. */
    void next(JournalTick tick, JournalSegment from, boolean cutAfter) {
        this.current = tick;
        this.segment = from;
        skips.next(tick, cutAfter);
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
    public void tickSkipped(long tick, SystemFailedException failure, List<String> systems) {
        String difference = skips.skipped(failure, systems);
        if (difference != null) {
            throw skipDivergence(tick, difference);
        }
    }

    @Override
    public void recordHash(long tick, long stateHash) {
        ticked(); // a tick run where the journal skipped it says so before its hash differs
        if (current.hasHash() && current.stateHash() != stateHash) {
            throw EngineInternals.replayDivergence("world '" + worldId + "': replay of tick " + tick + " from "
                    + segment.path() + " gave state hash 0x" + Long.toHexString(stateHash) + " but 0x"
                    + Long.toHexString(current.stateHash()) + " was journaled; "
                    + ResourcesLeftOut.replayMismatchCauses(leftOut), tick, current.stateHash(), stateHash);
        }
    }

    /**
     * Checks the tick just replayed against the journal's note of a skip: call after each replayed
     * tick (a tick with no journaled hash is checked here).
     *
     * @throws ReplayDivergenceException if the journal notes the tick skipped and the replay ran it
     */
    void ticked() {
        String difference = skips.ticked();
        if (difference != null) {
            throw skipDivergence(current.tick(), difference);
        }
    }

    private ReplayDivergenceException skipDivergence(long tick, String difference) {
        return EngineInternals.replaySkipDivergence("world '" + worldId + "': replay of tick " + tick + " from "
                + segment.path() + " diverged: " + difference + "; the state before that "
                + "tick already differed, or " + ResourcesLeftOut.replayMismatchCauses(leftOut), tick);
    }
}
