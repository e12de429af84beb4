package dev.orrery.ecs.archetype;

import it.unimi.dsi.fastutil.longs.LongArrays;

/**
 * Reorders an archetype's rows by a key, so a system that visits neighbours (for example by
 * spatial cell) reads memory in order. Behind {@code World.sortRows}, which checks the
 * structure lock and keeps the entity table current through the {@link Archetype.RowSink}.
 *
 * <p><b>Threading:</b> stateless; runs on the thread that applies structural changes.
 */
public final class RowSort {
    private RowSort() {
    }

    /**
     * Reorders the rows of {@code archetype} by ascending {@code key} (ties keep their current
     * order, so the result is deterministic), moving every column, and reports every row's
     * new location to {@code sink}. Allocates one scratch array per field of the archetype's
     * size.
     */
    public static void sortRows(Archetype archetype, RowKey key, Archetype.RowSink sink) {
        int n = archetype.size();
        if (n < 2) {
            return;
        }
        long[] keys = new long[n];
        long[] order = new long[n];
        int i = 0;
        for (int ci = 0; ci < archetype.chunkCount(); ci++) {
            Chunk c = archetype.chunk(ci);
            for (int r = 0; r < c.size(); r++, i++) {
                keys[i] = key.key(c, r);
                order[i] = ((long) ci << 32) | r;
            }
        }
        LongArrays.radixSort(keys, order, 0, n);
        RowBlocks.permuteRows(archetype, order, sink);
    }
}
