package dev.orrery.engine;

import dev.orrery.scheduler.executor.OwnerActivity;

/**
 * The tick thread's own steps in {@code Simulation.tick()} outside the executor's run, for a
 * tick watchdog: the steps that call user code or may take long. Taking the tick's inputs
 * ({@code InputSource.beginTick}, a source that blocks on a socket or a full pipeline), asking
 * the source whether to hash ({@code wantsHash}), the state hash itself ({@code World.stateHash}
 * of a large world), the hash listener, handing the hash to the source ({@code recordHash}, a
 * recorder writing its journal), and for a skipped tick the source's {@code tickSkipped} and
 * the failure listener; and, between ticks, handing the source a new tick thread
 * ({@code InputSource.bindTickThread}, from {@code Simulation.bindTickThread}), which the
 * watchdog watches as a span of its own, reported under the number of the tick after it. (The end-of-tick hook has its own start time in {@link TickWatchdog}.)
 *
 * <p>The tick thread is the executor's owner thread, so these steps go on the executor's
 * {@link OwnerActivity} as its caller steps, beside its run conditions and sync points: one
 * board, one publication protocol (see there), one place the watchdog reads. This class names
 * them: each label is built when what it names is set (the input source, the hash listener,
 * the failure listener: between ticks), never on the tick path: {@code "the input source's
 * beginTick, taking the tick's inputs (JournalInputSource)"}, {@code "the hash listener
 * (Simulation.hashListener)"}.
 *
 * <p><b>Threading:</b> the setters between ticks, on the thread that hands over to the tick
 * thread as the simulation's other setters do; {@link #enter} and {@link #leave} on the tick
 * thread (for {@link #BIND_TICK_THREAD}, the thread becoming it).
 */
final class TickSteps {
    /** Taking the tick's inputs from the input source. */
    static final int BEGIN_TICK = 1;
    /** Asking the input source whether it wants this tick's hash. */
    static final int WANTS_HASH = 2;
    /** Computing the world's state hash. */
    static final int STATE_HASH = 3;
    /** The hash listener. */
    static final int HASH_LISTENER = 4;
    /** Handing the state hash to the input source. */
    static final int RECORD_HASH = 5;
    /** Telling the input source of a skipped tick. */
    static final int TICK_SKIPPED = 6;
    /** The failure listener, told of a skipped tick. */
    static final int FAILURE_LISTENER = 7;
    /** Handing the input source a new tick thread ({@code Simulation.bindTickThread}, between ticks). */
    static final int BIND_TICK_THREAD = 8;

    private final OwnerActivity board;

    /** The steps on {@code board} (the executor's); {@code hashEvery} as the simulation was built. */
    TickSteps(OwnerActivity board, int hashEvery) {
        this.board = board;
        board.nameCallerStep(STATE_HASH, "the state hash of the world (World.stateHash"
                + (hashEvery > 0 ? ", every " + hashEvery + (hashEvery == 1 ? " tick)" : " ticks)") : ")"));
        hashListener(null);
        failureListener(null);
    }

    /** Names the input source's steps after {@code source}; between ticks. */
    void inputSource(InputSource source) {
        String by = by(source);
        board.nameCallerStep(BEGIN_TICK, "the input source's beginTick, taking the tick's inputs" + by);
        board.nameCallerStep(WANTS_HASH, "the input source's wantsHash" + by);
        board.nameCallerStep(RECORD_HASH, "the input source's recordHash, handed the state hash" + by);
        board.nameCallerStep(TICK_SKIPPED, "the input source's tickSkipped" + by);
        board.nameCallerStep(BIND_TICK_THREAD, "the input source's bindTickThread, which Simulation.bindTickThread "
                + "calls before the tick" + by);
    }

    /** Names the hash listener's step after {@code listener} (or null); between ticks. */
    void hashListener(Object listener) {
        board.nameCallerStep(HASH_LISTENER, "the hash listener (Simulation.hashListener" + in(listener) + ")");
    }

    /** Names the failure listener's step after {@code listener} (or null); between ticks. */
    void failureListener(Object listener) {
        board.nameCallerStep(FAILURE_LISTENER, "the failure listener (Simulation.failureListener" + in(listener) + ")");
    }

    /** {@code " (Name)"} for a named class, empty for a lambda or null. */
    private static String by(Object o) {
        String name = name(o);
        return name.isEmpty() ? "" : " (" + name + ")";
    }

    /** {@code ", Name"} for a named class, empty for a lambda or null. */
    private static String in(Object o) {
        String name = name(o);
        return name.isEmpty() ? "" : ", " + name;
    }

    /** A class name a user recognises: the simple name, an anonymous class's binary name, nothing for a lambda. */
    private static String name(Object o) {
        if (o == null || o.getClass().isHidden() || o.getClass().isSynthetic()) {
            return "";
        }
        String n = o.getClass().getName();
        return n.substring(n.lastIndexOf('.') + 1);
    }

    /** Tick thread: step {@code kind} starts (a step entered before and not left is replaced). */
    void enter(int kind) {
        board.enterCallerStep(kind);
    }

    /** Tick thread: the step entered last has ended (also after it threw: the tick's finally). */
    void leave() {
        board.leave();
    }
}
