package dev.orrery.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Keeps a simulation's own thread off it while a {@code WorldHost} ticks it: the host marks
 * the simulation hosted when it adds it and names the pool thread whose turn it is; a tick,
 * snapshot, restore, close, hand-over, setter, or a read of the world or the resources from
 * any other thread is then refused with an {@link IllegalStateException} naming the world and
 * the fix ({@code hostedWorld.call}, or {@code remove()} first), instead of racing the pool
 * thread on plain memory. A {@code stop()} with no {@code run()} to stop is refused naming
 * {@code remove()}.
 *
 * <p>It also says whether a tick is in progress, so that a host refuses a simulation that
 * another thread ticks right now. The two sides follow a Dekker hand-shake on volatile
 * fields: a tick writes {@link #ticking} and then reads {@link #hostedAs}; {@link #host}
 * writes {@code hostedAs} and then reads {@code ticking}; so of a tick and an add that overlap,
 * at least one sees the other and refuses. The ticking mark is taken by compare-and-set from
 * null and cleared only by the thread that took it: a tick refused on another thread (the
 * caller checks the host's turn and the tick thread before the mark) leaves the mark of the
 * tick in progress alone, so an add or a snapshot on a third thread still sees that tick.
 *
 * <p><b>Threading:</b> every method may be called from any thread; the fields are volatile.
 * A simulation that is not hosted pays one volatile read of null per guarded call, and a
 * compare-and-set and a volatile write per tick.
 */
final class HostGuard {
    private static final VarHandle TICKING;

    static {
        try {
            TICKING = MethodHandles.lookup().findVarHandle(HostGuard.class, "ticking", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The hosted world's description ({@code world 'name'}) while a host holds the simulation; else null. */
    private volatile String hostedAs;
    /** The pool thread whose turn it is while hosted (null between turns). */
    private volatile Thread turn;
    /** The thread inside {@code tick()} now, or null: set by compare-and-set from null, cleared by that thread only. */
    private volatile Thread ticking;

    /** The hosted world's description ({@code world 'name'}), or null when no host holds it. Any thread. */
    String hostedAs() {
        return hostedAs;
    }

    /**
     * Marks the simulation hosted as {@code world}.
     *
     * @throws IllegalStateException when it is hosted already (on another host), or a thread
     *     is inside {@code tick()} now (the mark is undone)
     */
    synchronized void host(String world) {
        if (hostedAs != null) {
            throw new IllegalStateException(world + ": the simulation is hosted already, as " + hostedAs
                    + " on a WorldHost; remove it there first (hostedWorld.remove().join()), or build one simulation "
                    + "per world");
        }
        hostedAs = world;
        Thread t = ticking;
        if (t != null) {
            hostedAs = null;
            throw new IllegalStateException(world + ": the simulation is being ticked by thread '" + t.getName()
                    + "' right now; a simulation is ticked by one thread at a time: stop that thread's ticks "
                    + "(Simulation.stop() for run(), then join it) before adding it to a WorldHost");
        }
    }

    /** The world left its host: the thread that takes it back may call anything after {@code bindTickThread()}. */
    synchronized void unhost() {
        turn = null;
        hostedAs = null;
    }

    /** {@code t}'s turn with the hosted simulation begins ({@code t} non-null) or ends (null). */
    void turn(Thread t) {
        turn = t;
    }

    /**
     * A tick begins on the calling thread (the caller checked the turn with {@link #check} and
     * the tick thread first): takes the ticking mark and returns null, or, when another thread
     * holds it, leaves it alone and returns that thread (a tick from this thread must not run
     * then). Refused, the mark given back, while hosted unless it is the thread's turn (a host
     * that added the simulation since the caller's check).
     */
    Thread tickStarted() {
        Thread me = Thread.currentThread();
        Thread other = (Thread) TICKING.compareAndExchange(this, null, me); // then read hostedAs: see above
        if (other != null) {
            return other;
        }
        String as = hostedAs;
        if (as != null && turn != me) {
            ticking = null; // this thread's own mark
            throw refusal("Simulation.tick()", as, me);
        }
        return null;
    }

    /** The thread inside {@code tick()} now, or null (a volatile read; any thread). */
    Thread ticking() {
        return ticking;
    }

    /** The tick begun by {@link #tickStarted()} ended (normally or not); called only by the thread holding the mark. */
    void tickEnded() {
        ticking = null;
    }

    /** Refuses {@code what} (a method, as {@code snapshot()}) unless the simulation is not hosted or it is this thread's turn. */
    void check(String what) {
        String as = hostedAs;
        if (as != null && turn != Thread.currentThread()) {
            throw refusal(what, as, Thread.currentThread());
        }
    }

    /**
     * Refuses {@code what} while a host holds the simulation, whichever thread calls (its own
     * turn included), for a call that must never run on a hosted simulation: a close (the host
     * would tick it next and fail on the closed simulation), a replay into it (which restores
     * and ticks it on the calling thread). The refusal reads
     * "{@code what} refused: the simulation is world 'name' on a WorldHost, {@code why};
     * {@code fix}".
     *
     * @param what the call refused, as {@code "Simulation.close()"}
     * @param why why it must not run on the hosted world, read after "on a WorldHost, "
     * @param fix what to do instead
     */
    void checkNotHosted(String what, String why, String fix) {
        String as = hostedAs;
        if (as != null) {
            throw new IllegalStateException(what + " refused: the simulation is " + as + " on a WorldHost, " + why
                    + "; " + fix);
        }
    }

    /**
     * Refuses {@code Simulation.stop()} while a host holds the simulation (the caller checked
     * that no {@code run()} is in progress): the host ticks it without {@code run()}, so the
     * flag would stop nothing and the world would go on ticking.
     */
    void checkNotHostedToStop() {
        String as = hostedAs;
        if (as != null) {
            throw new IllegalStateException("Simulation.stop() called while the simulation is " + as + " on a "
                    + "WorldHost, which ticks it without run(), so there is no run to stop; take the world off the "
                    + "host with hostedWorld.remove() (remove().join() waits for the tick in progress and hands the "
                    + "simulation back)");
        }
    }

    private static IllegalStateException refusal(String what, String world, Thread me) {
        return new IllegalStateException(what + " called on thread '" + me.getName() + "', but the "
                + "simulation is " + world + " on a WorldHost, whose pool threads tick it; run it on the world's tick "
                + "thread between two ticks with hostedWorld.call(sim -> ...), or take the world off the host with "
                + "hostedWorld.remove().join() and call bindTickThread() on the thread that takes it back");
    }
}
