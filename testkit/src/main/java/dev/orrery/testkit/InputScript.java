package dev.orrery.testkit;

/**
 * The inputs a run receives, tick by tick: what players or a network would send. Every run
 * the kit makes gets the same inputs at the same ticks, so any difference is the simulation's.
 *
 * <pre>{@code
 * InputScript script = (tick, send) -> {
 *     if (tick % 10 == 0) send.input(1, MOVE, ByteBuffer.allocate(4).putInt((int) tick).array());
 * };
 * }</pre>
 *
 * <p><b>Threading:</b> called on the thread that runs the check, before each tick; it must
 * depend on {@code tick} alone.
 */
@FunctionalInterface
public interface InputScript {
    /** No inputs at all. */
    InputScript NONE = (tick, send) -> { };

    /**
     * Sends the inputs of tick {@code tick} through {@code send}.
     *
     * @param tick the tick about to run, from 0
     * @param send where to send the tick's inputs, valid during the call only; send none for a tick
     *     without inputs
     */
    void inputs(long tick, Sender send);

    /** Where a script sends an input. */
    @FunctionalInterface
    interface Sender {
        /**
         * One input from {@code client}, of {@code type}, with {@code payload} (copied).
         *
         * @param client the sender, the game's own numbering
         * @param type the command type, the game's own numbering
         * @param payload the command's bytes, copied before the call returns (the array may be
         *     reused)
         */
        void input(int client, int type, byte[] payload);
    }
}
