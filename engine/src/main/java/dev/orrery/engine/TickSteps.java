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
    /** Each step's label, as the board has it, so the tick thread can name its own step (a reentrant tick). */
    private final String[] labels = new String[BIND_TICK_THREAD + 1];
    /** Tick thread: the step entered last and not left, or 0. */
    private int current;

    /** The steps on {@code board} (the executor's); {@code hashEvery} as the simulation was built. */
    TickSteps(OwnerActivity board, int hashEvery) {
        this.board = board;
        label(STATE_HASH, "the state hash of the world (World.stateHash"
                + (hashEvery > 0 ? ", every " + hashEvery + (hashEvery == 1 ? " tick)" : " ticks)") : ")"));
        hashListener(null);
        failureListener(null);
    }

    /** Names the input source's steps after {@code source}; between ticks. */
    void inputSource(InputSource source) {
        String by = by(source);
        label(BEGIN_TICK, "the input source's beginTick, taking the tick's inputs" + by);
        label(WANTS_HASH, "the input source's wantsHash" + by);
        label(RECORD_HASH, "the input source's recordHash, handed the state hash" + by);
        label(TICK_SKIPPED, "the input source's tickSkipped" + by);
        label(BIND_TICK_THREAD, "the input source's bindTickThread, which Simulation.bindTickThread "
                + "calls before the tick" + by);
    }

    /** Names the hash listener's step after {@code listener} (or null); between ticks. */
    void hashListener(Object listener) {
        label(HASH_LISTENER, "the hash listener (Simulation.hashListener" + in(listener) + ")");
    }

    /** Names the failure listener's step after {@code listener} (or null); between ticks. */
    void failureListener(Object listener) {
        label(FAILURE_LISTENER, "the failure listener (Simulation.failureListener" + in(listener) + ")");
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

    /** Names caller step {@code k} on the board, and here. */
    private void label(int k, String label) {
        board.nameCallerStep(k, label);
        labels[k] = label;
    }

    /** Tick thread: step {@code kind} starts (a step entered before and not left is replaced). */
    void enter(int kind) {
        current = kind;
        board.enterCallerStep(kind);
    }

    /** Tick thread: the step entered last has ended (also after it threw: the tick's finally). */
    void leave() {
        current = 0;
        board.leave();
    }

    /** Tick thread: the label of the step it is in now ({@code "the hash listener (...)"}), or null in none. */
    String current() {
        return current == 0 ? null : labels[current];
    }

    /** Tick thread: the kind of the step it is in now ({@link #HASH_LISTENER}), or 0 in none. */
    int currentKind() {
        return current;
    }
}
