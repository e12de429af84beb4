package dev.orrery.ecs;

import dev.orrery.ecs.component.FieldType;

/**
 * Writes one field of many rows from raw bits in a single typed loop, for command playback's
 * spawns through a shape: the field type is switched on once per field instead of once per
 * row and field.
 *
 * <p><b>Threading:</b> stateless; the caller owns the rows it writes (playback's settle tasks
 * each write their own spawns' rows).
 */
final class FieldScatter {
    private FieldScatter() {
    }

    /**
     * Writes raw bits of {@code type} into many elements in one pass: for each {@code k} in
     * {@code [from, to)}, element {@code rows[k]} of {@code array} gets
     * {@code words[at[k] + offset]} (one field of many waiting spawns of one buffer at a time).
     * Not for OBJECT.
     */
    static void scatterBits(FieldType type, Object array, int[] rows, long[] words, int[] at, int offset,
            int from, int to) {
        switch (type) {
            case BOOLEAN: {
                boolean[] a = (boolean[]) array;
                for (int k = from; k < to; k++) {
                    a[rows[k]] = words[at[k] + offset] != 0;
                }
                break;
            }
            case BYTE: {
                byte[] a = (byte[]) array;
                for (int k = from; k < to; k++) {
                    a[rows[k]] = (byte) words[at[k] + offset];
                }
                break;
            }
            case SHORT: {
                short[] a = (short[]) array;
                for (int k = from; k < to; k++) {
                    a[rows[k]] = (short) words[at[k] + offset];
                }
                break;
            }
            case CHAR: {
                char[] a = (char[]) array;
                for (int k = from; k < to; k++) {
                    a[rows[k]] = (char) words[at[k] + offset];
                }
                break;
            }
            case INT: {
                int[] a = (int[]) array;
                for (int k = from; k < to; k++) {
                    a[rows[k]] = (int) words[at[k] + offset];
                }
                break;
            }
            case FLOAT: {
                float[] a = (float[]) array;
                for (int k = from; k < to; k++) {
                    a[rows[k]] = Float.intBitsToFloat((int) words[at[k] + offset]);
                }
                break;
            }
            case LONG: {
                long[] a = (long[]) array;
                for (int k = from; k < to; k++) {
                    a[rows[k]] = words[at[k] + offset];
                }
                break;
            }
            case DOUBLE: {
                double[] a = (double[]) array;
                for (int k = from; k < to; k++) {
                    a[rows[k]] = Double.longBitsToDouble(words[at[k] + offset]);
                }
                break;
            }
            default:
                throw new IllegalStateException("OBJECT fields have no bit pattern");
        }
    }
}
