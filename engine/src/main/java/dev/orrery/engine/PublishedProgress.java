package dev.orrery.engine;

/**
 * A simulation's tick count and last state hash, written by its tick thread and read on any
 * thread ({@link Simulation#currentTick()}, {@link Simulation#lastHash()},
 * {@link Simulation#progress()}).
 *
 * <p>The next tick's number is one volatile field. The hash and the tick it was taken after
 * are a pair, replaced under a sequence count (a seqlock): the writer makes the count odd,
 * writes both, and makes it even again; a reader reads the count, the fields and the count
 * again, and retries while the count was odd or moved. Every field is volatile, so the
 * argument is that of sequential consistency: a read whose two counts are equal and even saw
 * no write of the pair in between, so the pair it read is one the writer wrote, and the next
 * tick's number it read between them was current beside that pair. The writer's window
 * holds two stores and calls nothing (the hash is computed before it opens), so a reader
 * never waits long and a reader on the tick thread itself never finds it open.
 *
 * <p><b>Threading:</b> {@link #nextTick(long)} and {@link #hashed} on the tick thread only (one
 * writer); the reads on any thread. Five volatile stores a hashed tick, one an unhashed tick;
 * nothing is allocated but {@link #read()}'s record, on the reader's thread.
 */
final class PublishedProgress {
    /** The next tick to run. */
    private volatile long nextTick;
    /** Even while {@link #hashedTick} and {@link #hash} are stable; odd while the tick thread replaces them. */
    private volatile long sequence;
    private volatile long hashedTick = -1;
    private volatile long hash;

    /** The next tick to run; any thread. */
    long nextTick() {
        return nextTick;
    }

    /** Publishes {@code next} as the next tick to run; the tick thread (or a restore before the first tick). */
    void nextTick(long next) {
        nextTick = next;
    }

    /** The last hash; any thread. */
    long hash() {
        return hash;
    }

    /** Publishes {@code stateHash} as the hash taken after tick {@code tick}; the tick thread. */
    void hashed(long tick, long stateHash) {
        long s = sequence;
        sequence = s + 1;
        hashedTick = tick;
        hash = stateHash;
        sequence = s + 2;
    }

    /** The next tick, the last hash and its tick, read together; any thread. */
    TickProgress read() {
        for (;;) {
            long before = sequence;
            long next = nextTick;
            long tick = hashedTick;
            long h = hash;
            if ((before & 1) == 0 && sequence == before) {
                return new TickProgress(next, tick, h);
            }
            Thread.onSpinWait(); // the tick thread is between two of its stores
        }
    }
}
