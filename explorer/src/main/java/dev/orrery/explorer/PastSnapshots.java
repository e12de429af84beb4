package dev.orrery.explorer;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The snapshots the timeline's replay keeps on its way, to jump back from the nearest one
 * instead of the recording's start: at most {@link #MAX} of them and {@link #MAX_BYTES} bytes,
 * one every {@link #due spacing} ticks, the spacing doubled (and every other one after the
 * first dropped) whenever they would hold more. The first, the recording's start, is never
 * dropped.
 *
 * <p><b>Threading:</b> any thread; each call is serialized on this object ({@link PastWorlds}
 * keeps and restores on its replay thread, and lists them for {@code /api/timeline} on a request
 * thread).
 */
final class PastSnapshots {
    /** Snapshots kept at most. */
    static final int MAX = 32;
    /** Bytes of snapshots kept at most. */
    static final long MAX_BYTES = 256L * 1024 * 1024;
    /** Ticks between snapshots at first. */
    private static final long FIRST_SPACING = 256;

    private final TreeMap<Long, byte[]> kept = new TreeMap<>();
    private long bytes;
    private long spacing = FIRST_SPACING;

    /** Whether a snapshot taken before tick {@code next} is one to keep. */
    synchronized boolean due(long next) {
        return next % spacing == 0;
    }

    /** Keeps {@code snapshot}, taken before tick {@code next}; drops every other one (not the first) while too many. */
    synchronized void keep(long next, byte[] snapshot) {
        if (kept.put(next, snapshot) == null) {
            bytes += snapshot.length;
        }
        while (kept.size() > MAX || bytes > MAX_BYTES && kept.size() > 2) {
            // keep the start and every other one after it, and space the next ones wider
            boolean drop = false;
            Iterator<Map.Entry<Long, byte[]>> it = kept.entrySet().iterator();
            it.next();
            while (it.hasNext()) {
                Map.Entry<Long, byte[]> e = it.next();
                if (drop) {
                    bytes -= e.getValue().length;
                    it.remove();
                }
                drop = !drop;
            }
            spacing *= 2;
        }
    }

    /** The kept snapshot taken latest at or before tick {@code next}, or null. */
    synchronized Map.Entry<Long, byte[]> floor(long next) {
        return kept.floorEntry(next);
    }

    /** Drops every snapshot, for another recording, and spaces the next ones as at first. */
    synchronized void clear() {
        kept.clear();
        bytes = 0;
        spacing = FIRST_SPACING;
    }

    /** The ticks before which the kept snapshots were taken, in order. */
    synchronized List<Long> ticks() {
        return new ArrayList<>(kept.keySet());
    }
}
