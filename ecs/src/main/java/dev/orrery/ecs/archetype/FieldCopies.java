package dev.orrery.ecs.archetype;

import dev.orrery.ecs.component.FieldType;
import java.util.Arrays;

/**
 * A fixed list of single-element field copies (or clears) between two chunks' flat field
 * arrays ({@link Chunk#fields}), grouped by field type so that each group runs as one
 * typed loop: one switch per group instead of one per field. Built once per pair of
 * archetypes (see {@link MovePlan}) or per archetype (its swap-with-last removal); it holds
 * only field positions, never chunks or arrays, so it cannot go stale.
 */
final class FieldCopies {
    /** No copies at all. */
    static final FieldCopies NONE = new FieldCopies(new int[0], new int[0], new FieldType[0]);

    private final int[] src;
    private final int[] dst;
    private final FieldType[] groupType;
    private final int[] groupEnd;

    /**
     * The copies {@code src[k] -> dst[k]} of type {@code types[k]} (for clears {@code src}
     * is ignored); reordered by type, which changes nothing since every copy writes its own
     * array.
     */
    FieldCopies(int[] src, int[] dst, FieldType[] types) {
        int n = dst.length;
        Integer[] order = new Integer[n];
        for (int k = 0; k < n; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(types[a].ordinal(), types[b].ordinal())); // stable
        this.src = new int[n];
        this.dst = new int[n];
        int groups = 0;
        for (int k = 0; k < n; k++) {
            this.src[k] = src[order[k]];
            this.dst[k] = dst[order[k]];
            if (k == 0 || types[order[k]] != types[order[k - 1]]) {
                groups++;
            }
        }
        this.groupType = new FieldType[groups];
        this.groupEnd = new int[groups];
        int g = -1;
        for (int k = 0; k < n; k++) {
            if (k == 0 || types[order[k]] != types[order[k - 1]]) {
                groupType[++g] = types[order[k]];
            }
            groupEnd[g] = k + 1;
        }
    }

    /** Number of fields copied or cleared. */
    int size() {
        return dst.length;
    }

    /** Source field index of copy {@code k} (in type order; tests). */
    int source(int k) {
        return src[k];
    }

    /** Destination field index of copy {@code k} (in type order; tests). */
    int destination(int k) {
        return dst[k];
    }

    /** Copies element {@code from} of each source field array to element {@code to} of its destination. */
    void copy(Object[] s, int from, Object[] d, int to) {
        final int[] si = src;
        final int[] di = dst;
        int k = 0;
        for (int g = 0; g < groupType.length; g++) {
            final int end = groupEnd[g];
            switch (groupType[g]) {
                case FLOAT:
                    for (; k < end; k++) {
                        ((float[]) d[di[k]])[to] = ((float[]) s[si[k]])[from];
                    }
                    break;
                case INT:
                    for (; k < end; k++) {
                        ((int[]) d[di[k]])[to] = ((int[]) s[si[k]])[from];
                    }
                    break;
                case DOUBLE:
                    for (; k < end; k++) {
                        ((double[]) d[di[k]])[to] = ((double[]) s[si[k]])[from];
                    }
                    break;
                case LONG:
                    for (; k < end; k++) {
                        ((long[]) d[di[k]])[to] = ((long[]) s[si[k]])[from];
                    }
                    break;
                case BOOLEAN:
                    for (; k < end; k++) {
                        ((boolean[]) d[di[k]])[to] = ((boolean[]) s[si[k]])[from];
                    }
                    break;
                case BYTE:
                    for (; k < end; k++) {
                        ((byte[]) d[di[k]])[to] = ((byte[]) s[si[k]])[from];
                    }
                    break;
                case SHORT:
                    for (; k < end; k++) {
                        ((short[]) d[di[k]])[to] = ((short[]) s[si[k]])[from];
                    }
                    break;
                case CHAR:
                    for (; k < end; k++) {
                        ((char[]) d[di[k]])[to] = ((char[]) s[si[k]])[from];
                    }
                    break;
                default:
                    for (; k < end; k++) {
                        ((Object[]) d[di[k]])[to] = ((Object[]) s[si[k]])[from];
                    }
                    break;
            }
        }
    }

    /** Sets element {@code to} of each destination field array to zero, false or null. */
    void clear(Object[] d, int to) {
        final int[] di = dst;
        int k = 0;
        for (int g = 0; g < groupType.length; g++) {
            final int end = groupEnd[g];
            switch (groupType[g]) {
                case FLOAT:
                    for (; k < end; k++) {
                        ((float[]) d[di[k]])[to] = 0f;
                    }
                    break;
                case INT:
                    for (; k < end; k++) {
                        ((int[]) d[di[k]])[to] = 0;
                    }
                    break;
                case DOUBLE:
                    for (; k < end; k++) {
                        ((double[]) d[di[k]])[to] = 0d;
                    }
                    break;
                case LONG:
                    for (; k < end; k++) {
                        ((long[]) d[di[k]])[to] = 0L;
                    }
                    break;
                case BOOLEAN:
                    for (; k < end; k++) {
                        ((boolean[]) d[di[k]])[to] = false;
                    }
                    break;
                case BYTE:
                    for (; k < end; k++) {
                        ((byte[]) d[di[k]])[to] = 0;
                    }
                    break;
                case SHORT:
                    for (; k < end; k++) {
                        ((short[]) d[di[k]])[to] = 0;
                    }
                    break;
                case CHAR:
                    for (; k < end; k++) {
                        ((char[]) d[di[k]])[to] = 0;
                    }
                    break;
                default:
                    for (; k < end; k++) {
                        ((Object[]) d[di[k]])[to] = null;
                    }
                    break;
            }
        }
    }
}
