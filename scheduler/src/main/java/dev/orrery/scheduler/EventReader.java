package dev.orrery.scheduler;

import java.util.function.Consumer;

/**
 * The events of one channel a reader system has not read before this run of it, in merge
 * order: what {@code job.events(key)} returns. Every job of the system sees the same events
 * (a chunk system's jobs all see all of them); read them in a range system of count 1, or
 * split them by index with {@code forEachRange(() -> ..., ...)}.
 *
 * <pre>{@code
 * .system("apply hits").readsEvents(HITS).exclusive((world, job) -> {   // one job: each hit applied once
 *     EventReader<Hit> hits = job.events(HITS);
 *     for (int i = 0, n = hits.size(); i < n; i++) {
 *         Hit h = hits.get(i);
 *         world.setInt(h.target(), hp, world.getInt(h.target(), hp) - h.damage());
 *     }
 * })
 * }</pre>
 *
 * <p>Events live for the tick they are merged in and the next; a system that did not run for
 * longer (a run condition, a slow fixed-step phase) reads what is left, and {@link #missed}
 * says some were dropped unread: check it where a lost event matters.
 *
 * <pre>{@code
 * EventReader<Hit> hits = job.events(HITS);     // in an exclusive system
 * if (hits.missed()) damage.clear();            // some hits were dropped unread: count afresh from here
 * hits.forEach(h -> damage.merge(h.target(), h.damage(), Integer::sum));
 * }</pre>
 *
 * <p><b>Threading:</b> bound by the executor on its owner thread as the system starts, then
 * read (never changed) by the system's jobs on any worker, after the job hand-off. One per
 * system and channel in each executor; do not keep it past the job.
 *
 * <p>The scheduler provides the one implementation ({@code job.events(key)}); implement it
 * only in a test double of your own, knowing that methods are added to it as the engine
 * grows (as {@link #missed} was).
 *
 * @param <T> the type of the events
 */
public interface EventReader<T> {
    /**
     * The number of unread events.
     *
     * @return the count of unread events, 0 or more
     */
    int size();

    /**
     * True when there is none.
     *
     * @return true when {@link #size()} is 0
     */
    default boolean isEmpty() {
        return size() == 0;
    }

    /**
     * The {@code i}-th unread event, {@code 0 <= i < size()}.
     *
     * @param i the event's index, in {@code [0, size())}
     * @return the event, never null
     * @throws IndexOutOfBoundsException naming the index, the count and the channel
     */
    T get(int i);

    /**
     * True when events this system had not read were dropped before this run of it, so
     * {@link #size()} counts fewer than were sent to it since its last run (or since the
     * channel started, on its first run): it was skipped, by a run condition or a phase that
     * did not run, for longer than the channel keeps events (the tick they are merged in and
     * the next). The events it does list are still right and in order; a system whose state
     * needs every event (a tally, a cache fed by events) checks this and rebuilds from the
     * world when it is true. Only dropped events count: a reader that skipped ticks in which
     * nothing was sent missed nothing. It reads the same on any worker count and after a
     * snapshot restore; it is as {@code RemovedEntities.missed()} for removal logs.
     *
     * @return true when some events sent since this system last read the channel were
     *     dropped unread
     */
    boolean missed();

    /**
     * Calls {@code action} with each unread event, in order.
     *
     * @param action called once per event on the calling thread, not null
     */
    default void forEach(Consumer<? super T> action) {
        for (int i = 0, n = size(); i < n; i++) {
            action.accept(get(i));
        }
    }
}
