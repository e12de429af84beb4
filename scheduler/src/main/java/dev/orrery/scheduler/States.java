package dev.orrery.scheduler;

import dev.orrery.scheduler.check.CheckedMode;
import java.util.Objects;

/**
 * A named state machine over an enum (Bevy's {@code States}), kept as a resource: the
 * current value, and the value a system asked to move to. Systems run on entering or
 * leaving a value ({@code .onEnter(key, value)} / {@code .onExit(key, value)} on a system),
 * and a system or phase may run only in a value ({@link RunCondition#inState}).
 *
 * <pre>{@code
 * enum Mode { LOBBY, PLAYING, OVER }
 * ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
 * Schedule.builder(world).resource(MODE, new States<>(Mode.class, Mode.LOBBY))
 *     .system("spawn wave").onEnter(MODE, Mode.PLAYING).spawns(hp)
 *         .forEachRange(() -> 100, (job, from, to) -> {
 *             for (int i = from; i < to; i++) job.commands().add(job.commands().spawn(), hp, new Health(10));
 *         })
 *     .system("start").readsResource(READY).writesResource(MODE)
 *         .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(MODE).request(Mode.PLAYING))
 * }</pre>
 *
 * <p><b>When a transition happens.</b> {@link #request} only records the wish; the schedule
 * applies it at the next run boundary (the start of the next tick): first the systems of
 * {@code onExit(old)} run (each such phase with its own sync point), then the value
 * changes, then the systems of {@code onEnter(new)} run, all before the schedule's first
 * ordinary phase. So every system of a run sees one value throughout. On the schedule's
 * first run the {@code onEnter} systems of the initial value run. Requests in one run:
 * the last one (in the graph's linear order) wins; a request for the current value is
 * dropped. Several machines are handled in the order the schedule first names them.
 *
 * <p><b>Threading:</b> {@link #request} from a system that declared a write of the key,
 * from one job (a range system of count 1, or an exclusive system), or from the tick thread
 * between runs; the executor applies transitions on its owner thread between phases.
 *
 * <p><b>Checked mode</b> (under {@code -ea}): a request from a job whose system declared no
 * write of a key the machine is stored under (for example only {@code readsResource(key)},
 * then {@code job.resource(key).request(...)}) throws an
 * {@link UndeclaredResourceAccessException} naming the system, the machine and the fix
 * ({@code .writesResource(key)}): the graph orders such a system only as a reader, so the
 * transition's order against the other systems would depend on the graph's accidents.
 * Exclusive systems may write every resource; requests outside jobs are not checked.
 *
 * @param <S> the enum of values
 */
public final class States<S extends Enum<S>> {
    private final Class<S> type;
    private S current;
    private S requested;
    private boolean entered;
    /**
     * The keys this machine is stored under ({@link Resources#put} records them), for the
     * checked-mode refusal of a request from a job that declared no write of any of them.
     * Written by the owner between runs; jobs read it after the executor's job hand-off.
     */
    private final StoredKeys keys = new StoredKeys();

    /**
     * A machine of {@code type} in {@code initial}, whose on-enter systems run on the first run.
     *
     * @param type the enum class, not null
     * @param initial the starting value, not null
     */
    public States(Class<S> type, S initial) {
        this.type = Objects.requireNonNull(type, "state type");
        this.current = type.cast(Objects.requireNonNull(initial, "initial state"));
    }

    /** A machine with its whole state given (for snapshot codecs). */
    static <S extends Enum<S>> States<S> restore(Class<S> type, S current, S requested, boolean entered) {
        States<S> s = new States<>(type, current);
        s.requested = requested == null ? null : type.cast(requested);
        s.entered = entered;
        return s;
    }

    /**
     * A resource key for a machine over {@code type}.
     *
     * @param <S> the enum of values
     * @param name the resource's name, not blank, unique in the store
     * @param type the enum class, not null
     * @return a new key; keep it in a constant and use it to put, declare and request
     */
    @SuppressWarnings("unchecked")
    public static <S extends Enum<S>> ResourceKey<States<S>> key(String name, Class<S> type) {
        Objects.requireNonNull(type, "state type");
        return ResourceKey.of(name, (Class<States<S>>) (Class<?>) States.class);
    }

    /**
     * The enum of values.
     *
     * @return the enum class given at construction
     */
    public Class<S> type() {
        return type;
    }

    /**
     * The current value.
     *
     * @return the current value, never null
     */
    public S current() {
        return current;
    }

    /**
     * The value requested for the next run boundary, or {@code null}.
     *
     * @return the requested value, or {@code null} when none is pending
     */
    public S requested() {
        return requested;
    }

    /**
     * True once the on-enter systems of the initial value have run.
     *
     * @return true once the initial value's on-enter systems have run (from the first run on)
     */
    public boolean entered() {
        return entered;
    }

    /**
     * Asks to move to {@code next} at the next run boundary (replacing an earlier request).
     *
     * @param next the value to move to, not null
     * @throws UndeclaredResourceAccessException in checked mode, from a job whose system
     *     declared no write of the machine's key, naming the system, the key and the fix
     */
    public void request(S next) {
        S value = type.cast(Objects.requireNonNull(next, "next state"));
        if (CheckedMode.ENABLED) { // a static final: unchecked, the JIT drops the look-up
            keys.checkWrite(StoredKeys.Write.STATE_REQUEST, value);
        }
        this.requested = value;
    }

    /** {@link Resources#put}: this machine is stored under {@code key}. */
    void storedUnder(ResourceKey<?> key) {
        keys.add(key);
    }

    /** The executor: the initial value's on-enter systems have run. */
    void markEntered() {
        entered = true;
    }

    /**
     * The executor: makes the requested value current and clears the request; returns the
     * value left, or {@code null} when nothing changes (no request, or a request for the
     * current value).
     */
    S applyRequest() {
        S next = requested;
        requested = null;
        if (next == null || next == current) {
            return null;
        }
        S old = current;
        current = next;
        return old;
    }

    @Override
    public String toString() {
        return type.getSimpleName() + "." + current + (requested != null ? " -> " + requested : "");
    }
}
