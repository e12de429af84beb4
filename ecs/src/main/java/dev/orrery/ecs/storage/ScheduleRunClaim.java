package dev.orrery.ecs.storage;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Which thread runs a schedule over one world: the claim every executor's run takes at its
 * start and gives back at its end, so that a second executor (of the same schedule or of
 * another) started over the world on another thread while the first still runs is refused
 * before it touches anything, instead of racing with it on the columns, the change ticks and
 * the command playback. A run started on the thread that holds the claim (a sub-schedule run
 * from inside an exclusive system or a sync point) nests: it is the same thread, so nothing
 * races, and the claim is given back when the outermost run ends.
 *
 * <p>Costs one compare-and-set per run and one volatile write per run's end, nothing per job,
 * and allocates nothing.
 *
 * <p><b>Threading:</b> {@link #enter} may be called from any thread; {@link #exit} only by the
 * thread whose {@code enter} succeeded. The claim is a volatile field taken by compare-and-set
 * and given back by a volatile write, so the end of one run happens-before the start of the
 * next run that takes the claim, whatever threads they are on. The nesting depth is a plain
 * field, read and written only by the thread that holds the claim.
 */
public final class ScheduleRunClaim {
    private static final VarHandle RUNNER;

    static {
        try {
            RUNNER = MethodHandles.lookup().findVarHandle(ScheduleRunClaim.class, "runner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through RUNNER
    private volatile Thread runner;
    /** Runs nested inside the outermost one, on the holding thread; only that thread touches it. */
    private int depth;

    /** An unclaimed record; one per world, made with the world's storage. */
    public ScheduleRunClaim() {
    }

    /**
     * Claims the world for a run on the calling thread, or nests inside the calling thread's own
     * run. Returns {@code null} when the claim is taken (every such call needs one matching
     * {@link #exit}); otherwise the thread whose run holds the world now, and nothing changed.
     */
    public Thread enter() {
        Thread me = Thread.currentThread();
        Thread held = (Thread) RUNNER.compareAndExchange(this, null, me);
        if (held == null) {
            return null;
        }
        if (held == me) {
            depth++;
            return null;
        }
        return held;
    }

    /**
     * Gives back one {@link #enter} of the calling thread: the outermost one frees the world for
     * a run on any thread.
     *
     * @throws IllegalStateException when the calling thread holds no claim
     */
    public void exit() {
        if (runner != Thread.currentThread()) {
            throw new IllegalStateException("ScheduleRunClaim.exit() on thread '" + Thread.currentThread().getName()
                    + "', which holds no schedule run of this world; call exit once per successful enter, on its thread");
        }
        if (depth > 0) {
            depth--;
        } else {
            runner = null;
        }
    }

    /** The thread whose run holds the world now, or {@code null}; a snapshot, for messages and tests. */
    public Thread runner() {
        return runner;
    }
}
