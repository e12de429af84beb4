package dev.orrery.ecs.archetype;

import dev.orrery.ecs.component.FieldType;

/**
 * A fixed list of single-element field copies (or clears) from one archetype's chunks to
 * another's, for one row at a time. Fields of the four common types (float, int, long,
 * double) are addressed through the chunks' typed field tables ({@link Chunk#floats} and
 * so on), so each copy is one typed load and store with no per-field type dispatch or
 * cast; the rare types (boolean, byte, short, char, references) go through
 * {@link FieldType#copy} on the flat field array. Built once per pair of archetypes (see
 * {@link MovePlan}) or per archetype (its swap-with-last removal); it holds only field
 * positions, never chunks or arrays, so it cannot go stale.
 */
final class FieldCopies {
    // Pairs {source, destination} of typed field indices, interleaved, per common type.
    private final int[] floats;
    private final int[] ints;
    private final int[] longs;
    private final int[] doubles;
    // The other fields: pairs of flat field indices, and each one's type.
    private final int[] others;
    private final FieldType[] otherTypes;

    /**
     * The copies from flat field {@code src[k]} of {@code source} to flat field
     * {@code dst[k]} of {@code target}, each pair of one type (for clears pass the target as
     * the source; {@code src} is then ignored). Their order does not matter: every copy
     * writes its own array.
     */
    FieldCopies(Archetype source, Archetype target, int[] src, int[] dst) {
        int n = dst.length;
        int[][] pairs = new int[5][2 * n];
        int[] count = new int[5];
        FieldType[] otherTypes = new FieldType[n];
        for (int k = 0; k < n; k++) {
            FieldType t = target.flatType(dst[k]);
            int kind = kindOf(t);
            int s = kind < 4 ? source.typedIndex(src[k]) : src[k];
            int d = kind < 4 ? target.typedIndex(dst[k]) : dst[k];
            if (kind == 4) {
                otherTypes[count[4] / 2] = t;
            }
            pairs[kind][count[kind]++] = s;
            pairs[kind][count[kind]++] = d;
        }
        this.floats = java.util.Arrays.copyOf(pairs[0], count[0]);
        this.ints = java.util.Arrays.copyOf(pairs[1], count[1]);
        this.longs = java.util.Arrays.copyOf(pairs[2], count[2]);
        this.doubles = java.util.Arrays.copyOf(pairs[3], count[3]);
        this.others = java.util.Arrays.copyOf(pairs[4], count[4]);
        this.otherTypes = java.util.Arrays.copyOf(otherTypes, count[4] / 2);
    }

    /** 0 float, 1 int, 2 long, 3 double (the chunks' typed tables), 4 any other type. */
    static int kindOf(FieldType t) {
        switch (t) {
            case FLOAT: return 0;
            case INT: return 1;
            case LONG: return 2;
            case DOUBLE: return 3;
            default: return 4;
        }
    }

    /** Number of fields copied or cleared. */
    int size() {
        return (floats.length + ints.length + longs.length + doubles.length + others.length) / 2;
    }

    /** Copies row {@code from} of chunk {@code s} to row {@code to} of chunk {@code d}, field by field. */
    void copy(Chunk s, int from, Chunk d, int to) {
        final int[] f = floats;
        if (f.length != 0) {
            final float[][] sa = s.floats;
            final float[][] da = d.floats;
            for (int k = 0; k < f.length; k += 2) {
                da[f[k + 1]][to] = sa[f[k]][from];
            }
        }
        final int[] i = ints;
        if (i.length != 0) {
            final int[][] sa = s.ints;
            final int[][] da = d.ints;
            for (int k = 0; k < i.length; k += 2) {
                da[i[k + 1]][to] = sa[i[k]][from];
            }
        }
        final int[] l = longs;
        if (l.length != 0) {
            final long[][] sa = s.longs;
            final long[][] da = d.longs;
            for (int k = 0; k < l.length; k += 2) {
                da[l[k + 1]][to] = sa[l[k]][from];
            }
        }
        final int[] g = doubles;
        if (g.length != 0) {
            final double[][] sa = s.doubles;
            final double[][] da = d.doubles;
            for (int k = 0; k < g.length; k += 2) {
                da[g[k + 1]][to] = sa[g[k]][from];
            }
        }
        final int[] o = others;
        if (o.length != 0) {
            final Object[] sa = s.fields;
            final Object[] da = d.fields;
            for (int k = 0; k < o.length; k += 2) {
                otherTypes[k >> 1].copy(sa[o[k]], from, da[o[k + 1]], to);
            }
        }
    }

    /** Sets row {@code to} of chunk {@code d} to zero, false or null in every destination field. */
    void clear(Chunk d, int to) {
        final int[] f = floats;
        for (int k = 1; k < f.length; k += 2) {
            d.floats[f[k]][to] = 0f;
        }
        final int[] i = ints;
        for (int k = 1; k < i.length; k += 2) {
            d.ints[i[k]][to] = 0;
        }
        final int[] l = longs;
        for (int k = 1; k < l.length; k += 2) {
            d.longs[l[k]][to] = 0L;
        }
        final int[] g = doubles;
        for (int k = 1; k < g.length; k += 2) {
            d.doubles[g[k]][to] = 0d;
        }
        final int[] o = others;
        for (int k = 1; k < o.length; k += 2) {
            otherTypes[k >> 1].clear(d.fields[o[k]], to);
        }
    }
}
