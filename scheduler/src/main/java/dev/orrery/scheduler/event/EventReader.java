package dev.orrery.scheduler.event;

import java.util.function.Consumer;

/**
 * The events of one channel a reader system has not read before this run of it, in merge
 * order: what {@code job.events(key)} returns. Every job of the system sees the same events
 * (a chunk system's jobs all see all of them); read them in a range system of count 1, or
 * split them by index with {@code forEachRange(() -> ..., ...)}.
 *
 * <pre>{@code
 * .system("apply hits").readsEvents(HITS).writes(hp).query(living)
 *     .forEachChunk(job -> {
 *         EventReader<Hit> hits = job.events(HITS);
 *         for (int i = 0, n = hits.size(); i < n; i++) { Hit h = hits.get(i); ... }
 *     })
 * }</pre>
 *
 * <p><b>Threading:</b> bound by the executor on its owner thread as the system starts, then
 * read (never changed) by the system's jobs on any worker, after the job hand-off. One per
 * system and channel in each executor; do not keep it past the job.
 *
 * @param <T> the type of the events
 */
public final class EventReader<T> {
    private EventChannel<T> channel;
    private int from;
    private int count;

    /** An unbound reader (no events); the executor binds it. */
    public EventReader() {
    }

    void bind(EventChannel<T> channel, int from, int count) {
        this.channel = channel;
        this.from = from;
        this.count = count;
    }

    /** The number of unread events. */
    public int size() {
        return count;
    }

    /** True when there is none. */
    public boolean isEmpty() {
        return count == 0;
    }

    /** The {@code i}-th unread event, {@code 0 <= i < size()}. */
    public T get(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("event " + i + " of " + count + " unread in channel '"
                    + (channel == null ? "?" : channel.key().name()) + "'");
        }
        return channel.at(from + i);
    }

    /** Calls {@code action} with each unread event, in order. */
    public void forEach(Consumer<? super T> action) {
        for (int i = 0; i < count; i++) {
            action.accept(channel.at(from + i));
        }
    }
}
