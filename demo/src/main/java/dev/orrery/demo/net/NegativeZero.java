package dev.orrery.demo.net;

/**
 * The demo's one rule for a number's sign of zero: {@code -0} is stored as {@code 0}, so a
 * value a client wrote as {@code -0} (or a negative that rounds to it) leaves the same bits,
 * hash and snapshot as {@code 0}. Applied where a value enters a record or a field:
 * {@link ClientCommand.MoveSquad}'s coordinates, the {@code SET} payload the arena's
 * {@code InputCodec} writes, and the arena's conversion of a nonzero payload to a float (an
 * exact {@code -0} payload, which only an older recording holds, is left as it was recorded).
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class NegativeZero {
    private NegativeZero() {
    }

    /**
     * {@code v}, with {@code -0} made {@code 0}.
     *
     * @param v any float
     * @return {@code 0} for {@code -0}, {@code v} itself otherwise, bits included, but for a NaN:
     *     a NaN stays a NaN, yet a signalling one comes back quiet (the add sets its quiet bit:
     *     {@code 0x7f800001} gives {@code 0x7fc00001})
     */
    public static float toZero(float v) {
        return v + 0.0f; // -0 + 0 is +0; every other value is unchanged but a signalling NaN
    }

    /**
     * {@code v}, with {@code -0} made {@code 0}.
     *
     * @param v any double
     * @return {@code 0} for {@code -0}, {@code v} itself otherwise (a NaN stays a NaN, a
     *     signalling one quiet, as for {@link #toZero(float)})
     */
    public static double toZero(double v) {
        return v + 0.0; // -0 + 0 is +0; every other value is unchanged but a signalling NaN
    }
}
