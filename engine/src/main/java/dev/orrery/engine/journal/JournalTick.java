package dev.orrery.engine.journal;

import dev.orrery.engine.InputBatch;

/**
 * One tick as recorded in a journal: its inputs (in the same {@link InputBatch} form the
 * live tick saw) and, when one was recorded, the state hash after it. Filled by
 * {@link JournalReader#nextTick} and reused from tick to tick.
 *
 * <p><b>Threading:</b> filled by the reader's thread; hand it to other threads only through
 * a happens-before edge, and not while the reader refills it.
 */
public final class JournalTick {
    private final InputBatch inputs = new InputBatch();
    private boolean hasHash;
    private long hash;
    private String skippedSystem;
    private int skippedChunk;

    /** The tick number. */
    public long tick() {
        return inputs.tick();
    }

    /** The inputs the tick consumed, in their recorded order. */
    public InputBatch inputs() {
        return inputs;
    }

    /** Whether a state hash was recorded after this tick. */
    public boolean hasHash() {
        return hasHash;
    }

    /**
     * The state hash recorded after this tick.
     *
     * @throws IllegalStateException if none was recorded (check {@link #hasHash()})
     */
    public long stateHash() {
        if (!hasHash) {
            throw new IllegalStateException("no state hash was recorded for tick " + tick()
                    + "; hashes are recorded every N ticks, check hasHash() first");
        }
        return hash;
    }

    /** Whether the recording skipped this tick (a system threw under {@code FailurePolicy.SKIP_TICK}). */
    public boolean skipped() {
        return skippedSystem != null;
    }

    /** The system whose failure skipped this tick, or null if the tick was not skipped. */
    public String skippedSystem() {
        return skippedSystem;
    }

    /** The failing chunk's ordinal in that system's query order (-1: not known), if skipped. */
    public int skippedChunk() {
        return skippedChunk;
    }

    void reset(long tick) {
        inputs.reset(tick);
        hasHash = false;
        skippedSystem = null;
    }

    void skipped(String system, int chunk) {
        this.skippedSystem = system;
        this.skippedChunk = chunk;
    }

    void hash(long hash) {
        this.hasHash = true;
        this.hash = hash;
    }

    @Override
    public String toString() {
        return "JournalTick[tick " + tick() + ", " + inputs.size() + " inputs"
                + (skippedSystem != null ? ", skipped (" + skippedSystem + ")" : "")
                + (hasHash ? ", hash " + Long.toHexString(hash) : "") + "]";
    }
}
