package dev.orrery.engine.input;

/**
 * One entry of the tick thread's marker ring to the journal thread: "tick {@code tick}
 * ended after input ring sequence {@code lastInput}", "the state hash after a tick", or
 * "close". Reused in place, like every Disruptor event.
 */
final class RecordingMarker {
    static final int TICK_END = 1;
    static final int TICK_HASH = 2;
    static final int CLOSE = 3;

    int kind;
    long tick;
    long lastInput;
    int inputCount;
    long hash;
}
