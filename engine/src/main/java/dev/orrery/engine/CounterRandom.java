package dev.orrery.engine;

/**
 * Counter-based random numbers: a keyed mix of {@code (seed, tick, entity, stream)} to a
 * 64-bit value, with no state that changes when a number is drawn.
 *
 * <p><b>Construction.</b> The key words are absorbed one at a time into a 64-bit state,
 * each step {@code state = mix(state + word + GAMMA_i)} where {@code mix} is the SplitMix64
 * finaliser (a bijection with full avalanche) and each position has its own odd constant,
 * so {@code (tick 1, entity 2)} and {@code (tick 2, entity 1)} give unrelated states. The
 * result is the start state of a SplitMix64 sequence: the {@code n}-th number for a key is
 * {@code mix(state + (n + 1) * GOLDEN_GAMMA)}. That makes {@link #nextLong(long, long, int)}
 * equal to the first number a {@link RandomCursor} reset to the same key draws.
 *
 * <p>This is a statistical generator for simulations (it passes the uniformity checks in
 * its tests), not a cryptographic one: do not use it for secrets.
 *
 * <p><b>Streams.</b> Give each system (or each purpose within a system: "loot", "spawn
 * position") its own stream number so that adding draws to one never shifts another's
 * numbers; {@link #stream(String)} turns a name into a stable stream number.
 *
 * <p><b>Threading:</b> immutable and safe to share between any number of threads; every
 * method is a pure function of its arguments and the seed.
 */
public final class CounterRandom {
    /** The SplitMix64 increment (the golden ratio in 64-bit fixed point). */
    static final long GOLDEN_GAMMA = 0x9E37_79B9_7F4A_7C15L;
    private static final long TICK_GAMMA = 0xC2B2_AE3D_27D4_EB4FL;
    private static final long ENTITY_GAMMA = 0x1656_67B1_9E37_79F9L;
    private static final long STREAM_GAMMA = 0xD6E8_FEB8_6659_FD93L;

    private final long seed;
    private final long seedState;

    /**
     * A generator for {@code seed}; generators with equal seeds give equal numbers.
     *
     * @param seed any value, 0 included
     */
    public CounterRandom(long seed) {
        this.seed = seed;
        this.seedState = mix(seed + GOLDEN_GAMMA);
    }

    /**
     * The seed this generator was built with.
     *
     * @return the seed given to the constructor
     */
    public long seed() {
        return seed;
    }

    /**
     * The start state for a key: what a {@link RandomCursor} steps from. Exposed to the
     * package so the cursor and the one-shot methods share one definition.
     */
    long keyState(long tick, long entity, int stream) {
        long s = mix(seedState + tick + TICK_GAMMA);
        s = mix(s + entity + ENTITY_GAMMA);
        return mix(s + stream + STREAM_GAMMA);
    }

    /** The {@code n}-th (from 0) 64-bit number of the sequence that starts at {@code state}. */
    static long nth(long state, long n) {
        return mix(state + (n + 1) * GOLDEN_GAMMA);
    }

    /**
     * A uniformly distributed 64-bit value for the key.
     *
     * @param tick the tick the number is for (usually the simulation's current tick)
     * @param entity the entity the number is for, or any other long that tells draws apart (0 for
     *     none)
     * @param stream the stream number, one per system or purpose ({@link #stream(String)} makes one
     *     from a name)
     * @return any of the 2<sup>64</sup> values, the same for the same seed and key
     */
    public long nextLong(long tick, long entity, int stream) {
        return nth(keyState(tick, entity, stream), 0);
    }

    /**
     * A uniform {@code int} in {@code [0, bound)}, without modulo bias. Rejection draws
     * further numbers from the key's sequence, so the result is still a pure function of
     * the key.
     *
     * @param tick the tick the number is for (usually the simulation's current tick)
     * @param entity the entity the number is for, or any other long that tells draws apart (0 for
     *     none)
     * @param stream the stream number, one per system or purpose ({@link #stream(String)} makes one
     *     from a name)
     * @param bound the exclusive upper bound, 1 or more
     * @return a value from 0 to {@code bound - 1}, the same for the same seed, key and bound
     * @throws IllegalArgumentException if {@code bound <= 0}
     */
    public int nextInt(long tick, long entity, int stream, int bound) {
        checkBound(bound);
        long state = keyState(tick, entity, stream);
        long n = 0;
        int r;
        while ((r = boundedIntOrNegative(nth(state, n), bound)) < 0) {
            n++;
        }
        return r;
    }

    /**
     * A uniform {@code float} in {@code [0, 1)} with 24 bits of precision.
     *
     * @param tick the tick the number is for (usually the simulation's current tick)
     * @param entity the entity the number is for, or any other long that tells draws apart (0 for
     *     none)
     * @param stream the stream number, one per system or purpose ({@link #stream(String)} makes one
     *     from a name)
     * @return a multiple of 2<sup>-24</sup> from 0 (inclusive) to 1 (exclusive)
     */
    public float nextFloat(long tick, long entity, int stream) {
        return toFloat(nextLong(tick, entity, stream));
    }

    /**
     * A uniform {@code double} in {@code [0, 1)} with 53 bits of precision.
     *
     * @param tick the tick the number is for (usually the simulation's current tick)
     * @param entity the entity the number is for, or any other long that tells draws apart (0 for
     *     none)
     * @param stream the stream number, one per system or purpose ({@link #stream(String)} makes one
     *     from a name)
     * @return a multiple of 2<sup>-53</sup> from 0 (inclusive) to 1 (exclusive)
     */
    public double nextDouble(long tick, long entity, int stream) {
        return toDouble(nextLong(tick, entity, stream));
    }

    /**
     * A cursor positioned at the start of {@code (tick, entity, stream)}; reuse one cursor
     * per job and {@link RandomCursor#reset reset} it per entity instead of calling this in
     * a loop.
     *
     * @param tick the tick the number is for (usually the simulation's current tick)
     * @param entity the entity the number is for, or any other long that tells draws apart (0 for
     *     none)
     * @param stream the stream number, one per system or purpose ({@link #stream(String)} makes one
     *     from a name)
     * @return a new cursor whose first draw is {@code nextLong(tick, entity, stream)}
     */
    public RandomCursor cursor(long tick, long entity, int stream) {
        RandomCursor c = new RandomCursor(this);
        c.reset(tick, entity, stream);
        return c;
    }

    /**
     * A cursor not yet positioned; call {@link RandomCursor#reset} before drawing.
     *
     * @return a new cursor over this generator's seed
     */
    public RandomCursor cursor() {
        return new RandomCursor(this);
    }

    /**
     * A stable stream number for a name (FNV-1a over the name's UTF-16 code units, which
     * the Java language fixes, so it is the same on every JVM and release).
     *
     * @param name the stream's name ("loot"), not null
     * @return the 32-bit hash, the same for the same name everywhere; two different names can
     *     share one, so give the streams of one program names whose numbers differ
     */
    public static int stream(String name) {
        int h = 0x811C_9DC5;
        for (int i = 0; i < name.length(); i++) {
            h ^= name.charAt(i);
            h *= 0x0100_0193;
        }
        return h;
    }

    /** The SplitMix64 finaliser (Stafford's variant 13): a bijection on 64-bit values. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
        return z ^ (z >>> 31);
    }

    static void checkBound(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("random bound must be positive, got " + bound);
        }
    }

    static void checkBound(long bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("random bound must be positive, got " + bound);
        }
    }

    /**
     * Lemire's multiply-and-reject step: maps the high 32 bits of {@code x} into
     * {@code [0, bound)}, or returns -1 when {@code x} falls in the small rejected zone
     * that would otherwise make some results more likely than others.
     */
    static int boundedIntOrNegative(long x, int bound) {
        long m = (x >>> 32) * bound;
        long low = m & 0xFFFF_FFFFL;
        if (low < bound) {
            long threshold = (0x1_0000_0000L - bound) % bound;
            if (low < threshold) {
                return -1;
            }
        }
        return (int) (m >>> 32);
    }

    /**
     * The 128-bit variant of the same step for {@code long} bounds. Returns -1 when
     * {@code x} must be rejected.
     */
    static long boundedLongOrNegative(long x, long bound) {
        // unsigned high word of x * bound; bound > 0, so only x's sign needs correcting
        long high = Math.multiplyHigh(x, bound) + ((x >> 63) & bound);
        long low = x * bound;
        if (Long.compareUnsigned(low, bound) < 0) {
            long threshold = Long.remainderUnsigned(-bound, bound);
            if (Long.compareUnsigned(low, threshold) < 0) {
                return -1;
            }
        }
        return high;
    }

    static float toFloat(long x) {
        return (x >>> 40) * 0x1.0p-24f;
    }

    static double toDouble(long x) {
        return (x >>> 11) * 0x1.0p-53;
    }
}
