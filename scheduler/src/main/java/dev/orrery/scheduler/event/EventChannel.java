package dev.orrery.scheduler.event;

import dev.orrery.scheduler.EventKey;
import java.util.Arrays;
import java.util.Objects;

/**
 * The events of one channel ({@link EventKey}): the merged events still alive, the position
 * of each reader system, and one pending buffer per worker that jobs append to with no lock.
 * It is a resource of the schedule's store (under {@link EventKey#channel()}), so a
 * simulation snapshot carries it when a codec is registered for it.
 *
 * <p><b>Order.</b> A job's events are keyed by (system position, chunk ordinal, sequence
 * within the chunk), the same key as its commands (a range system's by its job ordinal),
 * and merged in that order: before a reader of the channel starts, at the end of every phase
 * (each run of a fixed-timestep phase is one), and before {@link #send}. The merge points
 * depend only on the graph, so the order of the merged events is the same on any worker
 * count and any job split.
 *
 * <p><b>Lifetime.</b> An event merged during run {@code n} of the schedule (one tick) is
 * readable for the rest of run {@code n} and all of run {@code n + 1}, then dropped as run
 * {@code n + 2} starts (Bevy's double buffer). Each reader system sees each event at most
 * once: its position advances past everything merged when it starts. So a reader ordered
 * after the writer sees the writer's events in the same run, one before it (or in an
 * earlier phase) in the next run, and a reader skipped (by a run condition) for two runs
 * in a row misses events, and is told: its view's {@link ChannelReader#missed missed()} is
 * true when its position is before the oldest event alive, so no extra state is kept and
 * a restored channel (the events alive, {@link #firstSequence}, each reader's position)
 * says the same.
 *
 * <p><b>Threading:</b> the executor calls {@link #beginRun}, {@link #merge},
 * {@link #discardPending} and {@link #openReader} on its owner thread with no job of a
 * writer or reader of the channel running; jobs call {@link #record} with their own worker
 * id (one writer per pending buffer) and read through an {@link ChannelReader} (no merge
 * runs while a reader's jobs run: the graph orders every writer of the phase around each
 * reader). {@link #send}, {@link #size} and {@link #get} are for the owner thread between
 * jobs: the tick thread between runs, or an exclusive system.
 *
 * @param <T> the type of the events
 */
public final class EventChannel<T> {
    /** Positions at most 2^15 - 1, ordinals 2^24 - 1, merge runs 2^24: the packed sort key stays positive. */
    private static final int ORDINAL_BITS = 24;
    private static final int RUN_BITS = 24;
    private static final int MAX_POSITION = (1 << 15) - 1;

    private final EventKey<T> key;
    private Object[] events = new Object[16];
    private int size;
    /** Sequence number of {@code events[0]}: every event ever merged has one, counting from 0. */
    private long firstSeq;
    /** Index in {@link #events} where the current run's events start. */
    private int runStart;
    private String[] readerNames = new String[4];
    private long[] readerPositions = new long[4];
    private int readers;
    private Pending[] pending = new Pending[0];
    // merge scratch, grown only
    private long[] order = new long[16];
    private int[] orderWorker = new int[16];
    private int[] orderRun = new int[16];

    /** An empty channel for {@code key}. */
    public EventChannel(EventKey<T> key) {
        this.key = Objects.requireNonNull(key, "key");
    }

    /**
     * A channel for {@code key} restored from a snapshot (for codecs): {@code alive} are the
     * events still alive in merge order, the first with sequence number {@code firstSeq}, of
     * which those from index {@code runStart} on were merged in the last run; each reader
     * {@code readerNames[i]} has read up to sequence number {@code readerPositions[i]}.
     *
     * @throws IllegalArgumentException if the parts do not fit together, or a reader is named
     *     twice (a reader has one position; the message names it and both positions)
     */
    public static <T> EventChannel<T> restore(EventKey<T> key, long firstSeq, int runStart, T[] alive,
            String[] readerNames, long[] readerPositions) {
        if (runStart < 0 || runStart > alive.length || readerNames.length != readerPositions.length || firstSeq < 0) {
            throw new IllegalArgumentException("event channel '" + key.name() + "': inconsistent snapshot (run start "
                    + runStart + " of " + alive.length + " events, " + readerNames.length + " reader names for "
                    + readerPositions.length + " positions)");
        }
        EventChannel<T> c = new EventChannel<>(key);
        c.events = Arrays.copyOf(alive, Math.max(16, alive.length), Object[].class);
        c.size = alive.length;
        c.firstSeq = firstSeq;
        c.runStart = runStart;
        for (int i = 0; i < readerNames.length; i++) {
            String name = Objects.requireNonNull(readerNames[i], "reader name");
            for (int k = 0; k < i; k++) { // few readers: no set
                if (readerNames[k].equals(name)) {
                    throw new IllegalArgumentException("event channel '" + key.name() + "': reader '" + name + "' is "
                            + "given twice (entries " + k + " and " + i + ", at sequence numbers " + readerPositions[k]
                            + " and " + readerPositions[i] + "), and a reader has one position; give each reader once, "
                            + "at the position it has read up to");
                }
            }
            int slot = c.readerSlot(name); // may grow the arrays: taken before one is indexed
            c.readerPositions[slot] = readerPositions[i];
        }
        return c;
    }

    /** The channel's key. */
    public EventKey<T> key() {
        return key;
    }

    // ------------------------------------------------------------------ owner thread

    /**
     * Sends {@code event} from the owner thread (an exclusive system, or the tick thread
     * between runs, e.g. to turn an input into an event): merges what jobs sent so far, then
     * appends it, so it follows them.
     */
    public void send(T event) {
        merge();
        append(key.type().cast(Objects.requireNonNull(event, "event")));
    }

    /** The number of events alive (merged this run or the last); pending job events not counted. */
    public int size() {
        return size;
    }

    /** The {@code i}-th event alive, oldest first. */
    public T get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("event " + i + " of channel '" + key.name() + "', which holds " + size);
        }
        return key.type().cast(events[i]);
    }

    /** The sequence number of the oldest event alive (events are numbered from 0 as they are merged). */
    public long firstSequence() {
        return firstSeq;
    }

    /** The index of the first event merged in the current (or, between runs, the last) run. */
    public int runStart() {
        return runStart;
    }

    /** The number of reader systems that have read the channel. */
    public int readerCount() {
        return readers;
    }

    /** The name of reader {@code i}, in the order they first read. */
    public String readerName(int i) {
        return readerNames[i];
    }

    /** The sequence number reader {@code i} has read up to (exclusive). */
    public long readerPosition(int i) {
        return readerPositions[i];
    }

    // ------------------------------------------------------------------ executor

    /**
     * A run starts: drops the events merged before the last run began and gives each of
     * {@code workers} workers a pending buffer (allocates only when the worker count grows).
     */
    public void beginRun(int workers) {
        merge();
        if (runStart > 0) {
            System.arraycopy(events, runStart, events, 0, size - runStart);
            Arrays.fill(events, size - runStart, size, null);
            size -= runStart;
            firstSeq += runStart;
        }
        runStart = size;
        if (pending.length < workers) {
            Pending[] grown = Arrays.copyOf(pending, workers);
            for (int w = pending.length; w < workers; w++) {
                grown[w] = new Pending();
            }
            pending = grown;
        }
    }

    /**
     * Appends {@code event} to worker {@code worker}'s pending buffer, keyed by the sending
     * job's system {@code position} and chunk (or range job) {@code ordinal}; what
     * {@code job.send} calls. No lock; allocates only when the buffer grows.
     */
    public void record(int worker, int position, int ordinal, T event) {
        if (event == null) {
            throw new NullPointerException("null event sent to channel '" + key.name() + "'");
        }
        if (position > MAX_POSITION || ordinal < 0 || ordinal >= 1 << ORDINAL_BITS) {
            throw new IllegalArgumentException("event channel '" + key.name() + "': system position " + position
                    + " or chunk ordinal " + ordinal + " is beyond the merge key (at most " + MAX_POSITION + " systems, "
                    + (1 << ORDINAL_BITS) + " chunks)");
        }
        if (worker >= pending.length) {
            throw new IllegalStateException("event channel '" + key.name() + "' has no pending buffer for worker "
                    + worker + "; the executor prepares one per worker as each run starts");
        }
        pending[worker].add(((long) position << ORDINAL_BITS) | ordinal, event);
    }

    /**
     * Moves every pending event into the channel, ordered by (system position, chunk
     * ordinal, sequence); does nothing when no job sent any. Allocates only when the channel
     * or its scratch grows.
     */
    public void merge() {
        int n = 0;
        for (int w = 0; w < pending.length; w++) {
            n += pending[w].runs;
        }
        if (n == 0) {
            return;
        }
        if (n >= 1 << RUN_BITS) {
            throw new IllegalStateException("event channel '" + key.name() + "': " + n + " chunks sent events "
                    + "between two merges; at most " + ((1 << RUN_BITS) - 1));
        }
        if (order.length < n) {
            order = new long[n];
            orderWorker = new int[n];
            orderRun = new int[n];
        }
        int k = 0;
        for (int w = 0; w < pending.length; w++) {
            Pending p = pending[w];
            for (int r = 0; r < p.runs; r++) {
                order[k] = (p.runKeys[r] << RUN_BITS) | k;
                orderWorker[k] = w;
                orderRun[k] = r;
                k++;
            }
        }
        Arrays.sort(order, 0, n);
        for (int i = 0; i < n; i++) {
            int at = (int) (order[i] & ((1 << RUN_BITS) - 1));
            Pending p = pending[orderWorker[at]];
            int r = orderRun[at];
            int from = p.runStarts[r];
            int to = r + 1 < p.runs ? p.runStarts[r + 1] : p.count;
            ensure(size + to - from);
            System.arraycopy(p.items, from, events, size, to - from);
            size += to - from;
        }
        for (Pending p : pending) {
            p.clear();
        }
    }

    /** Drops every pending event (after a failed phase: nothing it sent is delivered). */
    public void discardPending() {
        for (Pending p : pending) {
            p.clear();
        }
    }

    /**
     * Opens {@code reader}'s view for system {@code system}: merges pending events, points
     * the view at the events {@code system} has not read yet, and marks them read. The view
     * says it {@linkplain ChannelReader#missed missed} events when the system's position is
     * before the oldest event alive: events after it were dropped unread (a system reading
     * for the first time has read nothing, so it missed every event dropped so far). The
     * executor calls it as the system starts; one compare, no allocation.
     */
    public void openReader(String system, ChannelReader<T> reader) {
        merge();
        int slot = readerSlot(system);
        long position = readerPositions[slot];
        long from = Math.max(position, firstSeq);
        long end = firstSeq + size;
        readerPositions[slot] = end;
        reader.bind(this, (int) (from - firstSeq), (int) (end - from), position < firstSeq);
    }

    /** The event at index {@code i} of the alive events, unchecked: for {@link ChannelReader}. */
    @SuppressWarnings("unchecked")
    T at(int i) {
        return (T) events[i];
    }

    private int readerSlot(String system) {
        for (int i = 0; i < readers; i++) {
            if (readerNames[i].equals(system)) {
                return i;
            }
        }
        if (readers == readerNames.length) {
            readerNames = Arrays.copyOf(readerNames, readers * 2);
            readerPositions = Arrays.copyOf(readerPositions, readers * 2);
        }
        readerNames[readers] = system;
        readerPositions[readers] = 0; // it has read nothing: what was dropped before its first read, it missed
        return readers++;
    }

    private void append(Object event) {
        ensure(size + 1);
        events[size++] = event;
    }

    private void ensure(int capacity) {
        if (capacity > events.length) {
            events = Arrays.copyOf(events, Math.max(capacity, events.length * 2));
        }
    }

    @Override
    public String toString() {
        return "events " + key.name() + " (" + size + " alive, " + (size - runStart) + " from this run)";
    }

    /** One worker's pending events: runs of consecutive events with one key each. */
    private static final class Pending {
        Object[] items = new Object[16];
        int count;
        long[] runKeys = new long[8];
        int[] runStarts = new int[8];
        int runs;

        void add(long runKey, Object e) {
            if (runs == 0 || runKeys[runs - 1] != runKey) {
                if (runs == runKeys.length) {
                    runKeys = Arrays.copyOf(runKeys, runs * 2);
                    runStarts = Arrays.copyOf(runStarts, runs * 2);
                }
                runKeys[runs] = runKey;
                runStarts[runs++] = count;
            }
            if (count == items.length) {
                items = Arrays.copyOf(items, count * 2);
            }
            items[count++] = e;
        }

        void clear() {
            Arrays.fill(items, 0, count, null);
            count = 0;
            runs = 0;
        }
    }
}
