package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;

/**
 * A reusable window onto one component's removal log: the entities that lost the component
 * (removed, moved out of it, or despawned holding it) after a given tick, oldest first, with
 * the tick of each removal. Position it with {@link #since}; it allocates nothing.
 *
 * <pre>{@code
 * RemovedEntities gone = job.removed(health);   // in a scheduled system: since its last run
 * for (int i = 0; i < gone.count(); i++) lastSeen.remove(gone.entity(i));   // forget them
 * }</pre>
 *
 * <p>A log keeps its entries for {@link ChangeTracker#RETAINED_RUNS} schedule runs (see
 * {@link ChangeTracker#retire}, or {@link World#retireRemovals} in a loop of your own); a
 * reader that skips more loses the older ones, and {@link #missed} says so: check it where a
 * lost removal matters (a cache keyed by entity), and rebuild from the world when it is true.
 *
 * <pre>{@code
 * RemovedEntities gone = job.removed(health);   // in an exclusive system
 * if (gone.missed()) lastSeen.keySet().removeIf(e -> !world.isAlive(e) || !world.has(e, health)); // from the world
 * else for (int i = 0; i < gone.count(); i++) lastSeen.remove(gone.entity(i));
 * }</pre>
 *
 * <p><b>Threading:</b> one window per reader thread; the log is appended only at sync points
 * and direct world calls, never while jobs read it.
 */
public final class RemovedEntities {
    private final RemovedLog log;
    private int from;
    private int to;
    private boolean missed;

    RemovedEntities(RemovedLog log) {
        this.log = log;
    }

    /**
     * The component whose removals this window shows.
     *
     * @return the tracked table column
     */
    public Component<?> component() {
        return log.column;
    }

    /**
     * Positions the window on the removals after tick {@code tick}; returns this.
     *
     * @param tick a change tick (a system's {@code job.lastRunTick()}, or 0 for every entry kept)
     * @return this window
     */
    public RemovedEntities since(long tick) {
        from = log.firstAfter(tick);
        to = log.end;
        missed = log.retiredThrough > tick;
        return this;
    }

    /**
     * True when the log retired removals made after the window's tick before this read: the
     * window does not list every entity that lost the component since then. A scheduled
     * system sees it when it did not run for longer than the log keeps entries (a run
     * condition, a slow fixed-step phase), or on a first run after entries were retired; a
     * loop of your own when it read less often than it called {@link World#retireRemovals}.
     * The entries it does list are still correct; what is lost is not counted (the log keeps
     * no trace of retired entries but the newest one's tick).
     *
     * @return true when some removals after the window's tick were retired unread; false when
     *     {@link #count()} covers every removal after it
     */
    public boolean missed() {
        return missed;
    }

    /**
     * How many removals the window shows.
     *
     * @return the removals in the window, 0 or more
     */
    public int count() {
        return to - from;
    }

    /**
     * The entity of removal {@code i} (0 is the oldest); it may be dead or hold the component again.
     *
     * @param i the removal's index, in {@code [0, count())}
     * @return the id the entity had when it lost the component
     * @throws IndexOutOfBoundsException if {@code i} is outside {@code [0, count())}
     */
    public long entity(int i) {
        return log.entities[checked(i)];
    }

    /**
     * The change tick of removal {@code i}.
     *
     * @param i the removal's index, in {@code [0, count())}
     * @return the change tick at which it was removed, ascending with {@code i}
     * @throws IndexOutOfBoundsException if {@code i} is outside {@code [0, count())}
     */
    public long tick(int i) {
        return log.ticks[checked(i)];
    }

    private int checked(int i) {
        if (i < 0 || i >= to - from) {
            throw new IndexOutOfBoundsException("removal " + i + " of " + (to - from) + " for " + log.column);
        }
        return from + i;
    }
}
