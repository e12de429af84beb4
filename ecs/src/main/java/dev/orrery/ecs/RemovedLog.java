package dev.orrery.ecs;

import dev.orrery.ecs.archetype.ChangeClock;
import dev.orrery.ecs.component.Component;
import java.util.Arrays;

/**
 * One component's removals in order: entity and change tick, ticks ascending. Entries
 * {@code [start, end)} are live; {@link #retire} drops old ones and compacts once the dead
 * prefix is at least half the array, so a warm log allocates nothing.
 *
 * <p><b>Threading:</b> appended and retired on the world's owning thread only.
 */
final class RemovedLog {
    final Component<?> column;
    long[] entities = new long[64];
    long[] ticks = new long[64];
    int start;
    int end;
    /**
     * The tick of the newest entry retired so far (0: none): a window positioned on an older
     * tick has lost the entries between the two, which {@link RemovedEntities#missed} reports.
     */
    long retiredThrough;

    RemovedLog(Component<?> column) {
        this.column = column;
    }

    void append(long entity, long tick) {
        if (end == entities.length) {
            if (start >= end / 2) {
                compact();
            } else {
                entities = Arrays.copyOf(entities, end * 2);
                ticks = Arrays.copyOf(ticks, end * 2);
            }
        }
        entities[end] = entity;
        ticks[end++] = tick;
    }

    private void compact() {
        int n = end - start;
        System.arraycopy(entities, start, entities, 0, n);
        System.arraycopy(ticks, start, ticks, 0, n);
        start = 0;
        end = n;
    }

    /** Drops the entries stamped before {@code tick}, remembering the newest one dropped. */
    void retire(long tick) {
        int first = start;
        while (start < end && ticks[start] < tick) {
            start++;
        }
        if (start > first) {
            retiredThrough = ticks[start - 1];
        }
        if (start == end) {
            start = 0;
            end = 0;
        }
    }

    /** The index of the first live entry stamped after {@code tick} ({@code end} if none). */
    int firstAfter(long tick) {
        return ChangeClock.firstAfter(ticks, start, end, tick);
    }
}
