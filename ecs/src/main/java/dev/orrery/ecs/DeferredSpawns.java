package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.storage.EntityTable;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * The spawns {@link CommandPlayback} has made whose recorded values wait to be written: for
 * each, its entity, its {@link SpawnWords} and where its first value word sits in its buffer.
 * {@link #settle} writes them all, one field at a time over each run of rows in one chunk
 * ({@link FieldScatter}), split over the threads of a {@link ParallelFor} once at least the
 * threshold given at construction wait; every spawn owns its row, so the result is the same on
 * any number of threads. Playback settles before anything could move or read those rows.
 *
 * <p><b>Threading:</b> {@link #add} and {@link #settle} on the thread applying the playback.
 * The tasks of a split settle run on the {@link ParallelFor}'s threads, each writing only its
 * own range of spawns' rows and scratch; the {@code ParallelFor} contract orders the caller's
 * writes before the tasks and the tasks' writes before {@code settle} returns. Once grown to a
 * tick's spawns it allocates nothing.
 */
final class DeferredSpawns {
    private final int parallelFrom;
    private long[] entities = new long[64];
    // Per spawn: its kind and its buffer's words, as indices into the small tables below, and
    // the position of its first value word there. Indices, not references: a reference stored
    // per spawn into these long-lived arrays pays the collector's write barrier (about 10 ns
    // with G1, measured), twice a spawn; a playback holds a few kinds and one buffer a worker.
    private int[] kindOf = new int[64];
    private int[] dataOf = new int[64];
    private int[] at = new int[64];
    private final Table kinds = new Table();
    private final Table buffers = new Table();
    // settle's scratch: each spawn's row (each task fills and reads only its own range).
    private int[] rows = new int[64];
    private int count;
    private int tasks;
    private World settling;
    private final IntConsumer task = this::task;

    /** Waiting spawns are written side by side once at least {@code parallelFrom} wait. */
    DeferredSpawns(int parallelFrom) {
        this.parallelFrom = parallelFrom;
    }

    /** Spawns waiting for their values. */
    int count() {
        return count;
    }

    /**
     * Leaves the values of spawn {@code entity}, laid out as {@code w} from word {@code from}
     * of {@code words} on, for {@link #settle}.
     */
    void add(long entity, SpawnWords w, long[] buffer, int from) {
        int n = count;
        if (n == entities.length) {
            entities = Arrays.copyOf(entities, n * 2);
            kindOf = Arrays.copyOf(kindOf, n * 2);
            dataOf = Arrays.copyOf(dataOf, n * 2);
            at = Arrays.copyOf(at, n * 2);
            rows = new int[n * 2];
        }
        entities[n] = entity;
        kindOf[n] = kinds.indexOf(w);
        dataOf[n] = buffers.indexOf(buffer);
        at[n] = from;
        count = n + 1;
    }

    /**
     * Writes the values of every waiting spawn into {@code world}, split over up to
     * {@code threads} threads of {@code parallel} when enough wait; none waits afterwards, also
     * when a task threw.
     */
    void settle(World world, ParallelFor parallel, int threads) {
        int n = count;
        if (n == 0) {
            return;
        }
        int split = threads <= 1 || n < parallelFrom ? 1 : Math.min(threads, n / (parallelFrom / 2 + 1));
        try {
            if (split <= 1) {
                write(world, 0, n);
            } else {
                settling = world;
                tasks = split;
                parallel.forEach(split, task);
            }
        } finally {
            buffers.clear(); // no buffer's old words are kept alive
            kinds.clear();
            count = 0;
            settling = null;
        }
    }

    /** One of a split {@link #settle}'s tasks: its share of the waiting spawns, in order. */
    private void task(int k) {
        int n = count;
        write(settling, (int) ((long) n * k / tasks), (int) ((long) n * (k + 1) / tasks));
    }

    /**
     * Writes the recorded values of waiting spawns {@code [from, to)}; each owns its row. Each
     * spawn's {@link SpawnWords} (offset, slot, field, type per word) needs no column lookup or
     * reference check: a deferred spawn holds no entity reference.
     */
    private void write(World world, int from, int to) {
        EntityTable table = world.storage().entityTable();
        int i = from;
        while (i < to) {
            // A group: the spawns from i on of one kind, recorded in one buffer, whose rows sit in
            // one chunk (a run of spawns appends to its archetype's last chunk), written one field
            // at a time.
            int kind = kindOf[i];
            int buffer = dataOf[i];
            int chunkIndex = table.chunk(Entity.index(entities[i]));
            int j = i;
            for (; j < to; j++) {
                int idx = Entity.index(entities[j]);
                if (kindOf[j] != kind || dataOf[j] != buffer || table.chunk(idx) != chunkIndex) {
                    break;
                }
                rows[j] = table.row(idx);
            }
            SpawnWords w = (SpawnWords) kinds.get(kind);
            long[] data = (long[]) buffers.get(buffer);
            Chunk chunk = w.archetype.chunk(chunkIndex);
            int[] slots = w.slot;
            int[] fields = w.field;
            int[] offsets = w.offset;
            FieldType[] types = w.type;
            for (int k = 0; k < slots.length; k++) {
                FieldScatter.scatterBits(types[k], chunk.columnArrays(slots[k])[fields[k]], rows, data, at, offsets[k],
                        i, j);
            }
            i = j;
        }
    }

    /**
     * The distinct objects seen since the last {@link #clear}, by identity, each with its index:
     * a playback's few spawn kinds or buffers. The last one found is tried first, since spawns
     * come in runs of one kind from one buffer.
     */
    private static final class Table {
        private Object[] items = new Object[4];
        private int count;
        private int last;

        int indexOf(Object x) {
            if (last < count && items[last] == x) {
                return last;
            }
            int i = 0;
            while (i < count && items[i] != x) {
                i++;
            }
            if (i == count) {
                if (i == items.length) {
                    items = Arrays.copyOf(items, i * 2);
                }
                items[count++] = x;
            }
            last = i;
            return i;
        }

        Object get(int index) {
            return items[index];
        }

        void clear() {
            Arrays.fill(items, 0, count, null);
            count = 0;
        }
    }
}
