package dev.orrery.ecs.archetype;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.FieldType;
import java.util.Arrays;

/**
 * Row operations on an archetype that work a block of rows at a time with one
 * {@code System.arraycopy} or fill per field, instead of one row at a time: bulk append
 * (bulk spawn), taking every row of another archetype (bulk add and remove) and permuting
 * the rows in place (row sorting). Single-row operations stay in {@link Archetype}.
 *
 * <p><b>Threading:</b> stateless; runs on the thread that applies structural changes.
 */
final class RowBlocks {
    private RowBlocks() {
    }

    /**
     * Appends {@code n} rows to {@code a} filling each column field with the given raw bits
     * ({@code bits[slot][field]}, see {@link FieldType#bits}); reference columns are filled
     * with {@code refs[slot]}. Entity ids come from {@code ids[from .. from+n)}. Each new
     * row's location is reported to {@code sink}.
     */
    static void appendRows(Archetype a, long[] ids, int from, int n, long[][] bits, Object[] refs,
            Archetype.RowSink sink) {
        int done = 0;
        while (done < n) {
            Chunk c = a.chunkForAppend();
            int start = c.size;
            int take = Math.min(n - done, c.capacity() - start);
            System.arraycopy(ids, from + done, c.entities, start, take);
            int dirtyEnd = Math.min(start + take, Math.max(start, c.touched)); // rows past it are still zero
            for (int s = 0; s < a.columnCount(); s++) {
                Object[] arrays = c.data[s];
                FieldType[] types = a.fieldTypes[s];
                for (int f = 0; f < arrays.length; f++) {
                    if (types[f] == FieldType.OBJECT) {
                        Arrays.fill((Object[]) arrays[f], start, refs[s] == null ? dirtyEnd : start + take, refs[s]);
                    } else {
                        types[f].fillBits(arrays[f], start, bits[s][f] == 0 ? dirtyEnd : start + take, bits[s][f]);
                    }
                }
            }
            c.size += take;
            c.appended();
            c.stampArrival(a.clock.now(), start, start + take);
            for (int r = 0; r < take; r++) {
                sink.placed(ids[from + done + r], c.index(), start + r);
            }
            done += take;
            a.size += take;
        }
    }

    /**
     * Moves every row of {@code source} to the end of {@code target} in blocks: shared
     * columns are copied with one {@code System.arraycopy} per field per block, columns new
     * to the rows are zeroed, and {@code source} is left empty. Each row's new location is
     * reported to {@code sink}, in source order.
     */
    static void takeAll(Archetype target, Archetype source, Archetype.RowSink sink) {
        if (source == target) {
            throw new IllegalArgumentException("cannot move " + target + " into itself");
        }
        int columns = target.columnCount();
        for (int ci = 0; ci < source.usedChunks; ci++) {
            Chunk src = source.chunks[ci];
            int done = 0;
            while (done < src.size) {
                Chunk c = target.chunkForAppend();
                int start = c.size;
                int take = Math.min(src.size - done, c.capacity() - start);
                System.arraycopy(src.entities, done, c.entities, start, take);
                for (int s = 0; s < columns; s++) {
                    Object[] arrays = c.data[s];
                    FieldType[] types = target.fieldTypes[s];
                    int from = source.slotOf(target.columnId(s)); // a table lookup per block: no slot map to allocate
                    for (int f = 0; f < arrays.length; f++) {
                        if (from >= 0) {
                            System.arraycopy(src.data[from][f], done, arrays[f], start, take);
                        } else if (types[f] == FieldType.OBJECT) {
                            Arrays.fill((Object[]) arrays[f], start, start + take, null);
                        } else {
                            types[f].fillBits(arrays[f], start, start + take, 0L);
                        }
                    }
                }
                c.size += take;
                c.appended();
                c.stampArrival(target.clock.now(), start, start + take);
                target.size += take;
                for (int r = 0; r < take; r++) {
                    sink.placed(c.entities[start + r], c.index(), start + r);
                }
                done += take;
            }
            for (int s = 0; s < source.columnCount(); s++) {
                Component<?> col = source.component(s);
                if (col.kind() == ComponentKind.REFERENCE) {
                    Arrays.fill((Object[]) src.data[s][0], 0, src.size, null);
                }
            }
            src.size = 0;
        }
        source.usedChunks = 0;
        source.size = 0;
    }

    /**
     * Rearranges the rows of {@code a} in place: new row {@code k} (counting across chunks
     * in order) takes the row that was at {@code order[k]} (packed {@code chunk << 32 | row}),
     * which must be a permutation of the live rows. Every row's new location is reported to
     * {@code sink}. Allocates one scratch array of the archetype's size per field.
     */
    static void permuteRows(Archetype a, long[] order, Archetype.RowSink sink) {
        int n = a.size;
        if (order.length < n) {
            throw new IllegalArgumentException("order has " + order.length + " rows, the archetype " + n);
        }
        Chunk[] chunks = a.chunks;
        long[] ids = new long[n];
        for (int k = 0; k < n; k++) {
            ids[k] = chunks[(int) (order[k] >>> 32)].entities[(int) order[k]];
        }
        Object[] perChunk = new Object[a.usedChunks];
        for (int s = 0; s < a.columnCount(); s++) {
            FieldType[] types = a.fieldTypes[s];
            for (int f = 0; f < types.length; f++) {
                for (int ci = 0; ci < a.usedChunks; ci++) {
                    perChunk[ci] = chunks[ci].data[s][f];
                }
                permute(a, order, types[f], perChunk);
            }
        }
        permuteRowVersions(a, order);
        for (int ci = 1; ci < a.usedChunks; ci++) { // rows cross chunks: every chunk takes the newest versions
            chunks[0].carryVersions(chunks[ci]);
        }
        for (int ci = 1; ci < a.usedChunks; ci++) {
            chunks[ci].carryVersions(chunks[0]);
        }
        int at = 0;
        for (int ci = 0; ci < a.usedChunks; ci++) {
            Chunk c = chunks[ci];
            System.arraycopy(ids, at, c.entities, 0, c.size);
            for (int r = 0; r < c.size; r++) {
                sink.placed(ids[at + r], ci, r);
            }
            at += c.size;
        }
    }

    /** Moves the per-row versions of row-tracked slots as {@link #permuteRows} moves the rows; the row logs start over. */
    private static void permuteRowVersions(Archetype a, long[] order) {
        Chunk[] chunks = a.chunks;
        if (a.usedChunks == 0 || chunks[0].rows == null) {
            return;
        }
        long now = a.clock.now();
        Object[] perChunk = new Object[a.usedChunks];
        for (int s = 0; s < a.columnCount(); s++) {
            if (chunks[0].rows[s] == null) {
                continue;
            }
            for (int ci = 0; ci < a.usedChunks; ci++) {
                RowVersions r = chunks[ci].rows[s];
                r.forget(now); // folds first: the log's rows are the old positions, dropped unread
                perChunk[ci] = r.version;
            }
            permute(a, order, FieldType.LONG, perChunk);
        }
    }

    /**
     * Permutes one per-row array of {@code a}, given per chunk in {@code perChunk}: new row
     * {@code k} (counting across chunks) takes the value at {@code order[k]}. Gathers into a
     * scratch array, then copies it back chunk by chunk.
     */
    private static void permute(Archetype a, long[] order, FieldType type, Object[] perChunk) {
        Object scratch = type.newArray(a.size);
        for (int k = 0; k < a.size; k++) {
            type.copy(perChunk[(int) (order[k] >>> 32)], (int) order[k], scratch, k);
        }
        int at = 0;
        for (int ci = 0; ci < a.usedChunks; ci++) {
            System.arraycopy(scratch, at, perChunk[ci], 0, a.chunks[ci].size);
            at += a.chunks[ci].size;
        }
    }
}
