package dev.orrery.engine;

import java.io.IOException;

/**
 * Receives the stamped inputs and tick markers of an {@link InputPipeline}, in tick order:
 * for each tick, its inputs (sequence 0, 1, ...), then its tick end, then at most one state
 * hash for it. {@link dev.orrery.engine.journal.JournalWriter} implements it to write the
 * input journal; tests implement it to observe the stream.
 *
 * <p><b>Threading:</b> an {@link InputPipeline} calls every method from its one journal
 * thread; an implementation needs no locking of its own. An exception thrown from any
 * method stops the journal stage; the pipeline reports it to the tick thread on its next
 * call and from {@link InputPipeline#close()}.
 */
public interface InputRecorder {
    /**
     * One stamped input; the payload array is only valid during the call (copy it).
     *
     * @param tick the tick that consumes the input
     * @param sequence its position in that tick, from 0
     * @param client the sender, as the producer numbered it
     * @param type the command type, as the producer numbered it
     * @param payload the array holding the payload, reused after the call
     * @param offset where the payload starts in {@code payload}
     * @param length the payload's length in bytes, 0 or more
     * @throws IOException if the recording cannot be written; this stops the journal stage
     *     (see the class comment)
     */
    void recordInput(long tick, int sequence, int client, int type, byte[] payload, int offset, int length)
            throws IOException;

    /**
     * The end of {@code tick}, which consumed {@code inputCount} inputs (possibly 0).
     *
     * @param tick the tick that ended
     * @param inputCount the inputs recorded for it, 0 or more; equal to the {@code recordInput}
     *     calls for that tick
     * @throws IOException if the recording cannot be written; this stops the journal stage
     *     (see the class comment)
     */
    void recordTickEnd(long tick, int inputCount) throws IOException;

    /**
     * {@code tick} was skipped under {@code FailurePolicy.SKIP_TICK} because {@code system}
     * threw (on its chunk {@code chunk}, -1 if not known); follows that tick's
     * {@link #recordTickEnd}, precedes its hash. Ignored by default (a recorder that replays
     * must keep it, as the journal does).
     *
     * @param tick the tick skipped
     * @param system the name of the system that threw
     * @param chunk the chunk it threw on, from 0, or -1 when not known
     * @throws IOException if the recording cannot be written; this stops the journal stage
     *     (see the class comment)
     */
    default void recordTickSkipped(long tick, String system, int chunk) throws IOException {
    }

    /**
     * The state hash after {@code tick} ran; follows that tick's {@link #recordTickEnd} (and its skip note).
     *
     * @param tick the tick the hash follows
     * @param stateHash the world's state hash after that tick
     * @throws IOException if the recording cannot be written; this stops the journal stage
     *     (see the class comment)
     */
    void recordTickHash(long tick, long stateHash) throws IOException;

    /**
     * The end of a batch of calls: a good moment to write buffered bytes out.
     *
     * @throws IOException if writing out (or, with {@link #durableEachFlush()}, forcing to the
     *     device) fails; this stops the journal stage (see the class comment)
     */
    void flush() throws IOException;

    /**
     * Whether every {@link #flush()} makes what was recorded durable (forced to the device);
     * the pipeline then makes the tick thread wait, before each tick, until the ticks before
     * it are flushed. False by default.
     *
     * @return true when each flush forces to the device; the default is false
     */
    default boolean durableEachFlush() {
        return false;
    }

    /**
     * The last call: the pipeline is closing; finish the recording and release the file.
     *
     * @throws IOException if finishing the recording fails; {@link InputPipeline#close()}
     *     then throws an {@code UncheckedIOException} with it as the cause
     */
    void close() throws IOException;

    /**
     * Called instead of {@link #close()} after a failure stopped the journal thread (from the
     * thread closing the pipeline, after the journal thread has ended): release resources
     * without marking the recording complete, so a reader sees it as cut short. Does
     * nothing by default.
     *
     * @throws IOException if releasing fails; it is attached, suppressed, to the failure that
     *     stopped the journal thread, which {@link InputPipeline#close()} reports
     */
    default void abandon() throws IOException {
    }
}
