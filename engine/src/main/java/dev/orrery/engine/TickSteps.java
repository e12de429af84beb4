package dev.orrery.engine;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the tick thread is doing in {@code Simulation.tick()} outside the executor's run, for a
 * tick watchdog: the steps that call user code or may take long, which the executor's
 * {@code OwnerActivity} does not see. Taking the tick's inputs ({@code InputSource.beginTick},
 * a source that blocks on a socket or a full pipeline), asking the source whether to hash
 * ({@code wantsHash}), the state hash itself ({@code World.stateHash} of a large world), the
 * hash listener, handing the hash to the source ({@code recordHash}, a recorder writing its
 * journal), and for a skipped tick the source's {@code tickSkipped} and the failure listener.
 * (The end-of-tick hook has its own start time in {@link TickWatchdog}.)
 *
 * <p>Each step's label is built when what it names is set (the input source, the hash listener,
 * the failure listener: between ticks), never on the tick path: {@code "the input source's
 * beginTick, taking the tick's inputs (JournalInputSource)"}, {@code "the hash listener
 * (Simulation.hashListener)"}. Steps are published only while {@link #watch watched}; otherwise
 * entering one is a read of a volatile flag and leaving it a store of 0. Neither path allocates
 * or locks.
 *
 * <p><b>Threading:</b> one writer of steps, the tick thread ({@link #enter}, {@link #leave});
 * the label setters run between ticks on a thread that hands over to the tick thread as the
 * simulation's other setters do. Any thread may read ({@link #startedAt}, {@link #label}): the
 * tick thread writes the step (plain), then its start time (release store); a reader loads the
 * start time (acquire), then the step. A reader racing a change of step may pair one step's
 * label with the next one's start time, which only blurs a report about a tick already late.
 * {@link #watch} may be called from any thread; the tick thread sees it at its next step.
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

    private final String[] labels = new String[8];
    private final AtomicInteger step = new AtomicInteger();
    private final AtomicLong since = new AtomicLong();
    private volatile boolean watched;

    /** The labels that do not depend on what the user sets; {@code hashEvery} as the simulation was built. */
    TickSteps(int hashEvery) {
        labels[STATE_HASH] = "the state hash of the world (World.stateHash"
                + (hashEvery > 0 ? ", every " + hashEvery + (hashEvery == 1 ? " tick)" : " ticks)") : ")");
        hashListener(null);
        failureListener(null);
    }

    /** Names the input source's steps after {@code source}; between ticks. */
    void inputSource(InputSource source) {
        String by = by(source);
        labels[BEGIN_TICK] = "the input source's beginTick, taking the tick's inputs" + by;
        labels[WANTS_HASH] = "the input source's wantsHash" + by;
        labels[RECORD_HASH] = "the input source's recordHash, handed the state hash" + by;
        labels[TICK_SKIPPED] = "the input source's tickSkipped" + by;
    }

    /** Names the hash listener's step after {@code listener} (or null); between ticks. */
    void hashListener(Object listener) {
        labels[HASH_LISTENER] = "the hash listener (Simulation.hashListener" + in(listener) + ")";
    }

    /** Names the failure listener's step after {@code listener} (or null); between ticks. */
    void failureListener(Object listener) {
        labels[FAILURE_LISTENER] = "the failure listener (Simulation.failureListener" + in(listener) + ")";
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

    /**
     * Publishes the tick thread's steps from now on ({@code true}) or stops ({@code false},
     * the default). Any thread; a watchdog turns it on when it starts and off when it closes.
     */
    void watch(boolean on) {
        watched = on;
    }

    /** Tick thread: step {@code kind} starts (a step entered before and not left is replaced). */
    void enter(int kind) {
        if (watched) {
            step.setPlain(kind);
            since.setRelease(System.nanoTime());
        }
    }

    /** Tick thread: the step entered last has ended (also after it threw: the tick's finally). */
    void leave() {
        since.setRelease(0); // whether watched or not, so turning the watch off mid-step leaves no stale step
    }

    /** When the tick thread's current step started ({@link System#nanoTime()}), or 0 while it is in none. Any thread. */
    long startedAt() {
        return since.getAcquire();
    }

    /** The label of the current step, read after a non-zero {@link #startedAt}, or null while in none. Any thread. */
    String label() {
        int i = step.getPlain();
        return i == 0 ? null : labels[i];
    }
}
