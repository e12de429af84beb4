package dev.orrery.engine;

import dev.orrery.scheduler.SystemFailedException;
import java.util.List;

/**
 * Where a tick loop gets each tick's inputs: live from an {@link InputPipeline}, or
 * recorded from a journal during replay
 * ({@link dev.orrery.engine.JournalInputSource}). The tick loop is written once
 * against this interface, so a replay runs exactly the code the recording ran.
 *
 * <p><b>Threading:</b> every method is called by the one tick thread.
 */
public interface InputSource {
    /**
     * The inputs that {@code tick} consumes, stamped with it and sequences 0, 1, ...; the
     * batch is valid until the next call. Ticks must increase from call to call.
     *
     * @param tick the tick about to run, greater than the one before
     * @return the tick's inputs, possibly none; the source's own batch, reused on the next call
     */
    InputBatch beginTick(long tick);

    /**
     * The state hash after {@code tick} (the tick last begun) ran: a live source records it;
     * a replaying source checks it against the recording.
     *
     * @param tick the tick last begun
     * @param stateHash the world's state hash after that tick ran
     */
    void recordHash(long tick, long stateHash);

    /**
     * True when this source wants the state hash after {@code tick} (the tick last begun)
     * handed to {@link #recordHash} whatever the simulation's {@code hashEvery}: a replaying
     * source whose recording hashed that tick, so that no recorded hash goes unchecked by a
     * simulation built to hash at other ticks. False by default.
     *
     * @param tick the tick last begun
     * @return true to be handed that tick's hash; the default is false
     */
    default boolean wantsHash(long tick) {
        return false;
    }

    /**
     * {@code tick} (the tick last begun) was skipped under {@code FailurePolicy.SKIP_TICK}
     * because {@code system} threw on its chunk {@code chunk} (-1: not known); called before
     * {@link #recordHash} for that tick. A live source records it; a replaying source checks
     * that the recording skipped the same tick. Does nothing by default.
     *
     * @param tick the tick last begun
     * @param system the name of the system that threw
     * @param chunk the chunk it threw on, from 0, or -1 when not known
     */
    default void tickSkipped(long tick, String system, int chunk) {
    }

    /**
     * {@code tick} (the tick last begun) was skipped under {@code FailurePolicy.SKIP_TICK}
     * because of {@code failure}; what the simulation calls, with its schedule's
     * {@code systems}. A replaying source checks that the recording skipped the same tick
     * because the same system failed, and can say what the replay's threw and whether the
     * replaying game still has the recorded system. By default it calls
     * {@link #tickSkipped(long, String, int)} with the failure's system and chunk, so a source
     * that implements only that one is told as before.
     *
     * @param tick the tick last begun
     * @param failure what skipped the tick: {@link SystemFailedException#system()} names the
     *     system (or sync point), its cause is what it threw
     * @param systems the names of the simulation's systems, in schedule order
     */
    default void tickSkipped(long tick, SystemFailedException failure, List<String> systems) {
        tickSkipped(tick, failure.system(), failure.chunkOrdinal());
    }

    /**
     * Makes the calling thread this source's tick thread from now on, for a source that
     * checks which thread calls it (an {@link InputPipeline}); the old tick thread's last call
     * must happen-before this one. Called by {@code Simulation.bindTickThread()}. Does nothing
     * by default.
     */
    default void bindTickThread() {
    }
}
