package dev.orrery.ecs.component;

/**
 * The primitive field types a value component may hold, with the column operations each
 * needs. A value component's field is stored as one primitive array per chunk.
 */
public enum FieldType {
    /** {@code boolean}, stored in a {@code boolean[]}. */
    BOOLEAN(boolean.class, 1),
    /** {@code byte}, stored in a {@code byte[]}. */
    BYTE(byte.class, 1),
    /** {@code short}, stored in a {@code short[]}. */
    SHORT(short.class, 2),
    /** {@code char}, stored in a {@code char[]}. */
    CHAR(char.class, 2),
    /** {@code int}, stored in an {@code int[]}. */
    INT(int.class, 4),
    /** {@code float}, stored in a {@code float[]}. */
    FLOAT(float.class, 4),
    /** {@code long}, stored in a {@code long[]}. */
    LONG(long.class, 8),
    /** {@code double}, stored in a {@code double[]}. */
    DOUBLE(double.class, 8),
    /** A reference component's single object slot, stored in an {@code Object[]}. */
    OBJECT(Object.class, 4);

    private final Class<?> javaType;
    private final int bytes;

    FieldType(Class<?> javaType, int bytes) {
        this.javaType = javaType;
        this.bytes = bytes;
    }

    /**
     * The Java type of one element.
     *
     * @return the primitive class ({@code int.class}), or {@code Object.class} for {@code OBJECT}
     */
    public Class<?> javaType() {
        return javaType;
    }

    /**
     * Bytes per element, used to size chunks (a reference counts as a compressed pointer).
     *
     * @return 1 for {@code boolean} and {@code byte}, 2 for {@code short} and {@code char}, 4 for
     *     {@code int}, {@code float} and {@code OBJECT}, 8 for {@code long} and {@code double}
     */
    public int bytes() {
        return bytes;
    }

    /**
     * The field type for a primitive Java type, or {@code null} if it is not supported.
     *
     * @param type a class such as {@code int.class}; a boxed class ({@code Integer.class}) is not a
     *     primitive and gives {@code null}
     * @return the matching constant other than {@code OBJECT}, or {@code null}
     */
    public static FieldType ofPrimitive(Class<?> type) {
        for (FieldType t : values()) {
            if (t != OBJECT && t.javaType == type) {
                return t;
            }
        }
        return null;
    }

    /**
     * A new zeroed array of this type with {@code length} elements.
     *
     * @param length the number of elements, 0 or more
     * @return a primitive array of this type ({@code int[]} for {@code INT}), or an
     *     {@code Object[]} for {@code OBJECT}
     * @throws NegativeArraySizeException when {@code length} is negative
     */
    public Object newArray(int length) {
        switch (this) {
            case BOOLEAN: return new boolean[length];
            case BYTE: return new byte[length];
            case SHORT: return new short[length];
            case CHAR: return new char[length];
            case INT: return new int[length];
            case FLOAT: return new float[length];
            case LONG: return new long[length];
            case DOUBLE: return new double[length];
            default: return new Object[length];
        }
    }

    /**
     * Sets element {@code i} of {@code array} (of this type) to zero, false or null.
     *
     * @param array an array of this type, as {@link #newArray} makes it
     * @param i the element to clear, 0 to the array's length minus 1
     */
    public void clear(Object array, int i) {
        switch (this) {
            case BOOLEAN: ((boolean[]) array)[i] = false; break;
            case BYTE: ((byte[]) array)[i] = 0; break;
            case SHORT: ((short[]) array)[i] = 0; break;
            case CHAR: ((char[]) array)[i] = 0; break;
            case INT: ((int[]) array)[i] = 0; break;
            case FLOAT: ((float[]) array)[i] = 0f; break;
            case LONG: ((long[]) array)[i] = 0L; break;
            case DOUBLE: ((double[]) array)[i] = 0d; break;
            default: ((Object[]) array)[i] = null; break;
        }
    }

    /**
     * Copies element {@code from} of {@code src} to element {@code to} of {@code dst}, both
     * arrays of this type. Used for single-row moves, where a typed store is several times
     * cheaper than {@code System.arraycopy} of one element (which cannot see the array types).
     *
     * @param src the array copied from, of this type
     * @param from the element read in {@code src}
     * @param dst the array copied to, of this type; may be {@code src}
     * @param to the element written in {@code dst}
     */
    public void copy(Object src, int from, Object dst, int to) {
        switch (this) {
            case BOOLEAN: ((boolean[]) dst)[to] = ((boolean[]) src)[from]; break;
            case BYTE: ((byte[]) dst)[to] = ((byte[]) src)[from]; break;
            case SHORT: ((short[]) dst)[to] = ((short[]) src)[from]; break;
            case CHAR: ((char[]) dst)[to] = ((char[]) src)[from]; break;
            case INT: ((int[]) dst)[to] = ((int[]) src)[from]; break;
            case FLOAT: ((float[]) dst)[to] = ((float[]) src)[from]; break;
            case LONG: ((long[]) dst)[to] = ((long[]) src)[from]; break;
            case DOUBLE: ((double[]) dst)[to] = ((double[]) src)[from]; break;
            default: ((Object[]) dst)[to] = ((Object[]) src)[from]; break;
        }
    }

    /**
     * Element {@code i} of {@code array} boxed (cold paths only: error messages, record building).
     *
     * @param array an array of this type
     * @param i the element to read, 0 to the array's length minus 1
     * @return the element boxed ({@code Integer} for {@code INT}), or the stored object (may be
     *     null) for {@code OBJECT}
     */
    public Object box(Object array, int i) {
        switch (this) {
            case BOOLEAN: return ((boolean[]) array)[i];
            case BYTE: return ((byte[]) array)[i];
            case SHORT: return ((short[]) array)[i];
            case CHAR: return ((char[]) array)[i];
            case INT: return ((int[]) array)[i];
            case FLOAT: return ((float[]) array)[i];
            case LONG: return ((long[]) array)[i];
            case DOUBLE: return ((double[]) array)[i];
            default: return ((Object[]) array)[i];
        }
    }

    /**
     * The raw bits of element {@code i} as a {@code long}: floating-point values by their
     * exact bit pattern, so hashes and comparisons are bit-for-bit. Not for OBJECT.
     *
     * @param array an array of this type
     * @param i the element to read, 0 to the array's length minus 1
     * @return the element's bits: 0 or 1 for a boolean, sign-extended for {@code byte},
     *     {@code short} and {@code int}, the char's code unit for {@code char}, the raw IEEE bit
     *     pattern for {@code float} (in the low 32 bits) and {@code double}
     * @throws IllegalStateException for {@code OBJECT}
     */
    public long bits(Object array, int i) {
        switch (this) {
            case BOOLEAN: return ((boolean[]) array)[i] ? 1L : 0L;
            case BYTE: return ((byte[]) array)[i];
            case SHORT: return ((short[]) array)[i];
            case CHAR: return ((char[]) array)[i];
            case INT: return ((int[]) array)[i];
            case FLOAT: return Float.floatToRawIntBits(((float[]) array)[i]);
            case LONG: return ((long[]) array)[i];
            case DOUBLE: return Double.doubleToRawLongBits(((double[]) array)[i]);
            default: throw new IllegalStateException("OBJECT fields have no bit pattern");
        }
    }

    /**
     * Writes raw bits (as produced by {@link #bits}) into element {@code i}. Not for OBJECT.
     *
     * @param array an array of this type
     * @param i the element to write, 0 to the array's length minus 1
     * @param bits the value's bits as {@link #bits} returns them; a narrower type keeps the low
     *     bits, a boolean is true for any non-zero value
     * @throws IllegalStateException for {@code OBJECT}
     */
    public void setBits(Object array, int i, long bits) {
        switch (this) {
            case BOOLEAN: ((boolean[]) array)[i] = bits != 0; break;
            case BYTE: ((byte[]) array)[i] = (byte) bits; break;
            case SHORT: ((short[]) array)[i] = (short) bits; break;
            case CHAR: ((char[]) array)[i] = (char) bits; break;
            case INT: ((int[]) array)[i] = (int) bits; break;
            case FLOAT: ((float[]) array)[i] = Float.intBitsToFloat((int) bits); break;
            case LONG: ((long[]) array)[i] = bits; break;
            case DOUBLE: ((double[]) array)[i] = Double.longBitsToDouble(bits); break;
            default: throw new IllegalStateException("OBJECT fields have no bit pattern");
        }
    }

    /**
     * Fills elements {@code [from, to)} with the value given by raw bits. Not for OBJECT.
     *
     * @param array an array of this type
     * @param from the first element filled (inclusive)
     * @param to the end of the range (exclusive), at most the array's length
     * @param bits the value's bits as {@link #bits} returns them
     * @throws IllegalStateException for {@code OBJECT}
     */
    public void fillBits(Object array, int from, int to, long bits) {
        switch (this) {
            case BOOLEAN: java.util.Arrays.fill((boolean[]) array, from, to, bits != 0); break;
            case BYTE: java.util.Arrays.fill((byte[]) array, from, to, (byte) bits); break;
            case SHORT: java.util.Arrays.fill((short[]) array, from, to, (short) bits); break;
            case CHAR: java.util.Arrays.fill((char[]) array, from, to, (char) bits); break;
            case INT: java.util.Arrays.fill((int[]) array, from, to, (int) bits); break;
            case FLOAT: java.util.Arrays.fill((float[]) array, from, to, Float.intBitsToFloat((int) bits)); break;
            case LONG: java.util.Arrays.fill((long[]) array, from, to, bits); break;
            case DOUBLE: java.util.Arrays.fill((double[]) array, from, to, Double.longBitsToDouble(bits)); break;
            default: throw new IllegalStateException("OBJECT fields have no bit pattern");
        }
    }

    /**
     * Converts a boxed value to raw bits (cold paths: property access by name), exactly: a
     * {@code Boolean} for {@code BOOLEAN}, a {@code Character} for {@code CHAR}, a
     * {@link Number} for the numeric types. An integer field ({@code BYTE}, {@code SHORT},
     * {@code INT}, {@code LONG}) takes a whole number within its type's range (a
     * {@code Double} such as {@code 5.0} included); a fractional value, or one outside the
     * range, is refused rather than cut. A {@code FLOAT} field takes the {@code float} nearest
     * the value (a {@code (float)} cast: {@code 0.1} is stored as {@code 0.1f}, and an integer
     * above 2<sup>24</sup> may be rounded); a finite value beyond the {@code float} range is
     * refused rather than stored as infinity. A {@code DOUBLE} field likewise takes the nearest
     * {@code double} (a {@code (double)} cast: a {@code long} above 2<sup>53</sup> may be
     * rounded) and refuses a finite value beyond its range.
     *
     * @param boxed the value, boxed ({@code Integer}, {@code Double}, {@code Boolean},
     *     {@code Character}, ...)
     * @return the bits {@link #bits} would return for the stored value
     * @throws ClassCastException if the value is not of the field's kind (a {@code String}
     *     for a number)
     * @throws NullPointerException if the value is null
     * @throws IllegalArgumentException naming the value when it does not fit this type
     * @throws IllegalStateException for {@code OBJECT}, which has no bit pattern
     */
    public long bitsOf(Object boxed) {
        switch (this) {
            case BOOLEAN: return ((Boolean) boxed) ? 1L : 0L;
            case BYTE: return whole((Number) boxed, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SHORT: return whole((Number) boxed, Short.MIN_VALUE, Short.MAX_VALUE);
            case CHAR: return (Character) boxed;
            case INT: return whole((Number) boxed, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case FLOAT: {
                Number n = (Number) boxed;
                float f = n.floatValue();
                if (Float.isInfinite(f) && !isInfinity(n)) {
                    throw doesNotFit(n, "a number within the float range (about \u00b13.4e38)");
                }
                return Float.floatToRawIntBits(f);
            }
            case LONG: return whole((Number) boxed, Long.MIN_VALUE, Long.MAX_VALUE);
            case DOUBLE: {
                Number n = (Number) boxed;
                double d = n.doubleValue();
                if (Double.isInfinite(d) && !isInfinity(n)) {
                    throw doesNotFit(n, "a number within the double range (about \u00b11.8e308)");
                }
                return Double.doubleToRawLongBits(d);
            }
            default: throw new IllegalStateException("OBJECT fields have no bit pattern");
        }
    }

    /** {@code n} as a whole number in {@code [min, max]}, or refused naming the value. */
    private long whole(Number n, long min, long max) {
        long v;
        if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte
                || n instanceof java.util.concurrent.atomic.AtomicInteger
                || n instanceof java.util.concurrent.atomic.AtomicLong) {
            v = n.longValue();
        } else if (n instanceof java.math.BigInteger b) {
            if (b.bitLength() > 63) {
                throw doesNotFit(n, range(min, max));
            }
            v = b.longValue();
        } else if (n instanceof java.math.BigDecimal b) {
            java.math.BigInteger i;
            try {
                i = b.toBigIntegerExact();
            } catch (ArithmeticException fractional) {
                throw doesNotFit(n, range(min, max));
            }
            if (i.bitLength() > 63) {
                throw doesNotFit(n, range(min, max));
            }
            v = i.longValue();
        } else { // Float, Double and any other Number: through its double value, which must be whole
            double d = n.doubleValue();
            // 0x1p63 is Long.MAX_VALUE + 1 (refused); -0x1p63 is Long.MIN_VALUE exactly
            if (!(d >= -0x1p63 && d < 0x1p63) || d != Math.rint(d)) {
                throw doesNotFit(n, range(min, max));
            }
            v = (long) d;
        }
        if (v < min || v > max) {
            throw doesNotFit(n, range(min, max));
        }
        return v;
    }

    /** True for a {@code Double} or {@code Float} that is itself an infinity (stored as one). */
    private static boolean isInfinity(Number n) {
        return n instanceof Double d && d.isInfinite() || n instanceof Float f && f.isInfinite();
    }

    private static String range(long min, long max) {
        return "a whole number from " + min + " to " + max;
    }

    private IllegalArgumentException doesNotFit(Number n, String what) {
        return new IllegalArgumentException("the value " + n + " (" + n.getClass().getSimpleName() + ") does not fit "
                + name() + ", which takes " + what);
    }

    /**
     * Converts raw bits to the boxed value of this type (cold paths).
     *
     * @param bits the value's bits as {@link #bits} returns them
     * @return the value boxed as this type ({@code Integer} for {@code INT}, {@code Float} for
     *     {@code FLOAT})
     * @throws IllegalStateException for {@code OBJECT}
     */
    public Object boxBits(long bits) {
        switch (this) {
            case BOOLEAN: return bits != 0;
            case BYTE: return (byte) bits;
            case SHORT: return (short) bits;
            case CHAR: return (char) bits;
            case INT: return (int) bits;
            case FLOAT: return Float.intBitsToFloat((int) bits);
            case LONG: return bits;
            case DOUBLE: return Double.longBitsToDouble(bits);
            default: throw new IllegalStateException("OBJECT fields have no bit pattern");
        }
    }
}
