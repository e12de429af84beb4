package dev.orrery.engine;

/**
 * Draws several random numbers for one key {@code (tick, entity, stream)} of a
 * {@link CounterRandom}: the {@code n}-th draw after {@link #reset} is a pure function of
 * the seed, the key and {@code n}. A job keeps one cursor and resets it per entity, so
 * nothing is allocated per entity.
 *
 * <pre>{@code
 * RandomCursor rng = random.cursor();            // once per job
 * for (int i = 0; i < chunk.size(); i++) {
 *     rng.reset(tick, ids[i], WANDER_STREAM);     // per entity
 *     vx[i] += rng.nextFloat() - 0.5f;
 *     vy[i] += rng.nextFloat() - 0.5f;
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> a cursor is mutable and belongs to one thread at a time (one per
 * job, or one per worker); it is not safe to share between threads that draw at the same
 * time. Two cursors reset to the same key on different threads draw the same numbers.
 */
public final class RandomCursor {
    private final CounterRandom random;
    private long state;
    private long drawn;

    RandomCursor(CounterRandom random) {
        this.random = random;
    }

    /**
     * Positions the cursor at the first number of {@code (tick, entity, stream)}.
     *
     * @param tick the tick the numbers are for
     * @param entity the entity the numbers are for, or any other long that tells draws apart
     * @param stream the stream number ({@link CounterRandom#stream(String)} makes one from a name)
     * @return this cursor, for chaining; {@link #drawn()} is 0 again
     */
    public RandomCursor reset(long tick, long entity, int stream) {
        this.state = random.keyState(tick, entity, stream);
        this.drawn = 0;
        return this;
    }

    /**
     * How many 64-bit numbers have been drawn since the last reset (rejections included).
     *
     * @return the count, 0 right after a reset; one {@code nextDouble} counts 1, a rejected bounded
     *     draw more
     */
    public long drawn() {
        return drawn;
    }

    /**
     * The next uniformly distributed 64-bit value.
     *
     * @return any of the 2<sup>64</sup> values
     */
    public long nextLong() {
        return CounterRandom.nth(state, drawn++);
    }

    /**
     * The next uniform {@code int} (all 32 bits random).
     *
     * @return any of the 2<sup>32</sup> values (the high half of one 64-bit draw)
     */
    public int nextInt() {
        return (int) (nextLong() >>> 32);
    }

    /**
     * The next uniform {@code int} in {@code [0, bound)}, without modulo bias.
     *
     * @param bound the exclusive upper bound, 1 or more
     * @return a value from 0 to {@code bound - 1}
     * @throws IllegalArgumentException if {@code bound <= 0}
     */
    public int nextInt(int bound) {
        CounterRandom.checkBound(bound);
        int r;
        while ((r = CounterRandom.boundedIntOrNegative(nextLong(), bound)) < 0) {
            // rejected: draw again
        }
        return r;
    }

    /**
     * The next uniform {@code int} in {@code [origin, bound)}.
     *
     * @param origin the lowest value (inclusive), may be negative
     * @param bound the upper bound (exclusive), above {@code origin}
     * @return a value from {@code origin} to {@code bound - 1}
     * @throws IllegalArgumentException if {@code origin >= bound}
     */
    public int nextInt(int origin, int bound) {
        if (origin >= bound) {
            throw new IllegalArgumentException("random range [" + origin + ", " + bound + ") is empty; give a bound "
                    + "above the origin (the bound is exclusive: nextInt(" + origin + ", " + origin + " + 1) draws "
                    + origin + ")");
        }
        long width = (long) bound - origin;
        return (int) (origin + nextLong(width));
    }

    /**
     * The next uniform {@code long} in {@code [0, bound)}, without modulo bias.
     *
     * @param bound the exclusive upper bound, 1 or more
     * @return a value from 0 to {@code bound - 1}
     * @throws IllegalArgumentException if {@code bound <= 0}
     */
    public long nextLong(long bound) {
        CounterRandom.checkBound(bound);
        long r;
        while ((r = CounterRandom.boundedLongOrNegative(nextLong(), bound)) < 0) {
            // rejected: draw again
        }
        return r;
    }

    /**
     * The next uniform {@code float} in {@code [0, 1)}.
     *
     * @return a multiple of 2<sup>-24</sup> from 0 (inclusive) to 1 (exclusive)
     */
    public float nextFloat() {
        return CounterRandom.toFloat(nextLong());
    }

    /**
     * The next uniform {@code double} in {@code [0, 1)}.
     *
     * @return a multiple of 2<sup>-53</sup> from 0 (inclusive) to 1 (exclusive)
     */
    public double nextDouble() {
        return CounterRandom.toDouble(nextLong());
    }

    /**
     * The next {@code boolean}, true with probability one half.
     *
     * @return the top bit of one 64-bit draw
     */
    public boolean nextBoolean() {
        return nextLong() < 0;
    }

    /**
     * The next standard normal value (mean 0, deviation 1) by Marsaglia's polar method:
     * pairs of draws are taken until one falls inside the unit circle (about 1.27 pairs on
     * average), then {@link StrictMath#log} makes it bit-identical on every JVM. No
     * trigonometry is needed, so nothing is allocated on JDKs whose {@code StrictMath}
     * trigonometry is written in Java. The second value of the pair is discarded rather
     * than cached, so the cursor stays a pure function of its draw count.
     *
     * @return a finite value, normally distributed; draws an even number of 64-bit values, 2 or
     *     more
     */
    public double nextGaussian() {
        double u;
        double s;
        do {
            u = 2.0 * nextDouble() - 1.0;
            double v = 2.0 * nextDouble() - 1.0;
            s = u * u + v * v;
        } while (s >= 1.0 || s == 0.0);
        return u * StrictMath.sqrt(-2.0 * StrictMath.log(s) / s);
    }
}
