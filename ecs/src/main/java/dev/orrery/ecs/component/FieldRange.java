package dev.orrery.ecs.component;

/**
 * An inclusive numeric range, the validator behind {@link Range} and
 * {@link FieldValidator#range}: whole-number bounds for integral fields, bounds rounded to
 * {@code float} for {@code float} fields, NaN refused, infinities only on an open side.
 * Immutable; the refusal texts are built once, so a refusal allocates nothing.
 */
final class FieldRange implements FieldValidator {
    private final double min;
    private final double max;
    private final long wholeMin;
    private final long wholeMax;
    private final float floatMin;
    private final float floatMax;
    private final String wholeRule;
    private final String floatRule;
    private final String doubleRule;

    FieldRange(double min, double max) {
        if (Double.isNaN(min) || Double.isNaN(max) || min > max) {
            throw new IllegalArgumentException("a range needs min <= max and no NaN bound; got " + min + " to " + max);
        }
        this.min = min;
        this.max = max;
        // (long) saturates: an infinite or huge bound becomes Long.MIN_VALUE / MAX_VALUE.
        this.wholeMin = (long) Math.ceil(min);
        this.wholeMax = (long) Math.floor(max);
        this.floatMin = (float) min;
        this.floatMax = (float) max;
        this.wholeRule = "a whole number from " + wholeMin + " to " + wholeMax;
        this.floatRule = "a number from " + format(floatMin) + " to " + format(floatMax);
        this.doubleRule = "a number from " + format(min) + " to " + format(max);
    }

    /** The smallest value allowed, as declared. */
    double min() {
        return min;
    }

    /** The largest value allowed, as declared. */
    double max() {
        return max;
    }

    /**
     * Checks that the range suits a field of {@code type}: numeric, and for an integral
     * field with a whole number in it.
     *
     * @throws IllegalArgumentException naming {@code where} (record and field)
     */
    void checkFits(FieldType type, String where) {
        switch (type) {
            case FLOAT:
            case DOUBLE:
                return;
            case BOOLEAN:
            case OBJECT:
                throw new IllegalArgumentException(where + " is " + type + "; a range applies only to numeric "
                        + "fields: remove it, or use a FieldValidator");
            default:
                if (wholeMin > wholeMax) {
                    throw new IllegalArgumentException(where + " is " + type + " and its range " + format(min) + " to "
                            + format(max) + " holds no whole number; widen it");
                }
        }
    }

    @Override
    public String check(long entity, Field field, long bits) {
        switch (field.type()) {
            case FLOAT: {
                float v = Float.intBitsToFloat((int) bits);
                return v >= floatMin && v <= floatMax ? null : floatRule; // false for NaN
            }
            case DOUBLE: {
                double v = Double.longBitsToDouble(bits);
                return v >= min && v <= max ? null : doubleRule;
            }
            case BOOLEAN:
            case OBJECT:
                return "no value: a range applies only to numeric fields";
            default:
                return bits >= wholeMin && bits <= wholeMax ? null : wholeRule;
        }
    }

    /** The value of a numeric field's raw bits as a {@code double} (for {@link FieldValidator#ofDoubles}). */
    static double asDouble(FieldType type, long bits) {
        switch (type) {
            case FLOAT:
                return Float.intBitsToFloat((int) bits);
            case DOUBLE:
                return Double.longBitsToDouble(bits);
            default:
                return bits;
        }
    }

    private static String format(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    private static String format(float f) {
        return f == Math.rint(f) && Math.abs(f) < 1e15f ? Long.toString((long) f) : Float.toString(f);
    }

    @Override
    public String toString() {
        return "range " + format(min) + " to " + format(max);
    }
}
