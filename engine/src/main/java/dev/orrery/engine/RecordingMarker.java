package dev.orrery.engine;

/**
 * One entry of the tick thread's marker ring to the journal thread: "tick {@code tick}
 * ended after input ring sequence {@code lastInput}", "the state hash after a tick", or
 * "close". Reused in place, like every Disruptor event.
 */
final class RecordingMarker {
    static final int TICK_END = 1;
    static final int TICK_HASH = 2;
    static final int CLOSE = 3;
    static final int TICK_SKIPPED = 4;

    int kind;
    long tick;
    long lastInput;
    int inputCount;
    long hash;
    /** The failing system of a {@code TICK_SKIPPED} marker (its chunk in {@link #inputCount}). */
    String system;
}
