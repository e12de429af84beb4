package dev.orrery.ecs.hash;

/**
 * An order-sensitive 64-bit hash accumulator for world state: each word is multiplied in
 * and rotated (a variant of the xxHash64 round), so a change to any word or to their order
 * changes the result with overwhelming probability. Not cryptographic.
 */
public final class StateHasher {
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long SEED = 0x27D4EB2F165667C5L;
    private long acc = SEED;
    private long count;

    /** Creates an accumulator with the fixed seed. */
    public StateHasher() {
    }

    /** Starts over, as a new accumulator: lets a caller that hashes every tick keep one. */
    public StateHasher reset() {
        acc = SEED;
        count = 0;
        return this;
    }

    /** Mixes one 64-bit word into the hash. */
    public StateHasher mix(long word) {
        acc ^= Long.rotateLeft(word * P2, 31) * P1;
        acc = Long.rotateLeft(acc, 27) * P1 + 0x85EBCA77C2B2AE63L;
        count++;
        return this;
    }

    /** The hash of the words mixed so far. */
    public long value() {
        long h = acc ^ count;
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= 0x165667B19E3779F9L;
        h ^= h >>> 32;
        return h;
    }
}
