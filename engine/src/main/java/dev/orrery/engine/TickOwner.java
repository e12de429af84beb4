package dev.orrery.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A simulation's tick thread and the checks that keep every other thread off its ticks,
 * snapshots and restores. The first tick binds the thread it runs on (by compare-and-set, so of
 * two first ticks at once exactly one binds and the other is refused), and
 * {@code Simulation.bindTickThread()} moves it; then a tick, a snapshot or a restore from any
 * other thread is refused naming both threads. A snapshot on another thread would read a
 * world the tick thread may be writing (a torn snapshot, restoring into a world no tick
 * produced), and a restore would write one under it, on plain memory, without a word.
 *
 * <p>Before any tick has bound a thread, any one thread may snapshot or restore (the
 * building thread restores, say, and hands the simulation to the thread that ticks). A first
 * tick on another thread must not overlap such a call, so the two sides follow a Dekker
 * hand-shake on volatile fields: a snapshot or restore with no tick thread writes
 * {@link #unbound} and then reads the tick thread and {@link HostGuard#ticking()}; a tick takes
 * {@code HostGuard}'s ticking mark (in {@code tickStarted}) and then, binding, reads
 * {@code unbound}; so of the two that overlap, at least one sees the other and is refused.
 * A tick is checked against the tick thread before it takes the mark, and the mark is taken by
 * compare-and-set: a refused tick never writes, nor clears, the mark of the tick in progress.
 * Only one thread at a time may be in such a call: a second thread's is refused naming the
 * first (a call nested in the first on its own thread goes on under the first's mark).
 *
 * <p><b>Threading:</b> every method may be called from any thread; the fields are volatile.
 * A tick pays one volatile read (a plain load on x86), a snapshot or restore one or two
 * more, and one with no tick thread yet two volatile writes and a small object.
 */
final class TickOwner {
    /** A snapshot or restore under way before any tick bound a thread: who makes it, and which call. */
    record Call(Thread thread, String what) {
    }

    private static final VarHandle UNBOUND;
    private static final VarHandle THREAD;

    static {
        try {
            UNBOUND = MethodHandles.lookup().findVarHandle(TickOwner.class, "unbound", Call.class);
            THREAD = MethodHandles.lookup().findVarHandle(TickOwner.class, "thread", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final HostGuard host;
    /**
     * The one thread that may tick, snapshot and restore; null until the first tick or a bind.
     * The first tick binds it by compare-and-set from null, so of two first ticks at once exactly
     * one binds (a read-then-write let both see null and both tick the same world).
     */
    private volatile Thread thread;
    /**
     * The snapshot or restore under way while no thread is bound, or null: one at a time (set
     * by compare-and-set, so a second thread's call is refused instead of taking the mark over
     * and clearing it under the first when it returns).
     */
    private volatile Call unbound;

    TickOwner(HostGuard host) {
        this.host = host;
    }

    /** The tick thread, or null before the first tick or bind. */
    Thread thread() {
        return thread;
    }

    /** Makes {@code t} the tick thread (the caller has made the hand-over safe: see bindTickThread). */
    void bind(Thread t) {
        thread = t;
    }

    /**
     * A tick on {@code current} is about to take {@code HostGuard}'s ticking mark: refused on a
     * thread other than the tick thread, before it touches the mark (a refused tick must not
     * clear the mark of the tick in progress). Returns true when {@code current} is the tick
     * thread (one volatile read and a compare), false when no thread is bound yet: then
     * {@link #bindFirstTick} binds it once the mark is taken.
     */
    boolean tickOn(Thread current) {
        Thread bound = thread;
        if (bound == current) { // one reference compare a tick, so checked with or without -ea
            return true;
        }
        if (bound != null) {
            throw notTheTickThread(current, bound);
        }
        return false;
    }

    /**
     * The ticking mark is held by {@code other} while {@code current} would tick: refused
     * naming the tick thread (or {@code other}, in a first tick that binds it) unless
     * {@code current} is the tick thread; then {@code other} is a thread that read no tick
     * thread before this one bound and is on its way to a refusal, and the caller waits for the
     * mark (a few field reads; no user code runs meanwhile).
     */
    void markHeldBy(Thread current, Thread other) {
        if (other == current) {
            throw new IllegalStateException("Simulation.tick() called on thread '" + current.getName() + "' while "
                    + "that thread is already in a tick of this simulation; tick after tick() returns");
        }
        Thread bound = thread;
        if (bound != current) {
            throw notTheTickThread(current, bound != null ? bound : other);
        }
    }

    /**
     * The first tick on {@code current} holds the ticking mark (after {@code
     * HostGuard.tickStarted}) and binds {@code current}: refused while another thread is in a
     * snapshot or restore, or when another first tick bound its thread meanwhile (the bind is a
     * compare-and-set from null: of two first ticks at once exactly one binds).
     */
    void bindFirstTick(Thread current) {
        Call c = unbound;
        if (c != null && c.thread() != current) {
            throw new IllegalStateException("Simulation.tick() called on thread '" + current.getName() + "' while "
                    + "thread '" + c.thread().getName() + "' is in " + c.what() + " on this simulation, which no tick "
                    + "has bound to a thread yet: the tick would change the world that call is reading or writing; "
                    + "let it return first, and make the calls on one thread (build, restore, then tick), or hand "
                    + "the simulation over with bindTickThread() on the thread that ticks");
        }
        if (!THREAD.compareAndSet(this, null, current)) { // another first tick bound itself since the read above
            Thread bound = thread;
            if (bound != current) {
                throw notTheTickThread(current, bound);
            }
        }
    }

    private static IllegalStateException notTheTickThread(Thread current, Thread bound) {
        return new IllegalStateException("simulation ticked from thread '" + current.getName() + "' but its tick "
                + "thread is '" + bound.getName() + "'; tick from one thread, or hand the simulation over with "
                + "bindTickThread() on the new thread after the old one has stopped ticking");
    }

    /**
     * {@code what} ({@code "Simulation.snapshot()"} or {@code "Simulation.restore()"}) begins on
     * the calling thread: refused on a thread other than the tick thread (or the thread running
     * the first tick now), naming both and the fix. Returns the mark to hand to {@link #end}
     * (non-null only when no thread is bound).
     */
    Call begin(String what) {
        Thread me = Thread.currentThread();
        Thread owner = thread;
        Call mark = null;
        if (owner == null) {
            mark = new Call(me, what);
            while (!UNBOUND.compareAndSet(this, null, mark)) { // then read: a first tick binding meanwhile reads this
                Call other = unbound;
                if (other == null) {
                    continue; // it returned meanwhile
                }
                if (other.thread() == me) {
                    mark = null; // a call nested in this thread's own: that one keeps the mark until it returns
                    break;
                }
                throw new IllegalStateException(what + " called on thread '" + me.getName() + "' while thread '"
                        + other.thread().getName() + "' is in " + other.what() + " on this simulation, which no "
                        + "tick has bound to a thread yet: the two race on plain memory, and a first tick could "
                        + "run under the one still reading once the other returned; make the calls on one thread "
                        + "(build, restore, then tick), or let that call return first");
            }
            owner = thread;
            if (owner == null) {
                owner = host.ticking();
            }
        }
        if (owner != null && owner != me) {
            end(mark);
            throw otherThread(what, me, owner, "from another thread it races the ticks on plain memory (a snapshot "
                    + "could hold a world part-way through a tick, one no tick produced); call it on the tick thread "
                    + "between ticks (after tick() returns, or in atEndOfTick), hand the request to the tick thread, "
                    + "or, once that thread has stopped ticking and joined, call bindTickThread() on this one first");
        }
        return mark;
    }

    /**
     * Refuses {@code what}, made on thread {@code me} where {@code owner} is the tick thread:
     * names both (and that {@code owner} is in a tick now, when it is), then {@code why} (the
     * race and the fix). The one wording of the calls kept to the tick thread between ticks.
     */
    IllegalStateException otherThread(String what, Thread me, Thread owner, String why) {
        return new IllegalStateException(what + " called on thread '" + me.getName() + "' but the simulation's tick "
                + "thread is '" + owner.getName() + "'" + (host.ticking() == owner ? ", which is in a tick now" : "")
                + ": " + why);
    }

    /** The call begun by {@link #begin} returned (normally or not). */
    void end(Call mark) {
        if (mark != null) {
            UNBOUND.compareAndSet(this, mark, null);
        }
    }

    /**
     * Refuses {@code what} ({@code "Simulation.tick()"} or {@code "Simulation.run()"}) made on
     * the tick thread from inside tick {@code tick}, from {@code where}: the tick would run
     * inside the one in progress, and a hook that ticks would recurse without end.
     */
    static IllegalStateException reentrant(String what, long tick, String where) {
        return new IllegalStateException(what + " called from inside tick " + tick + ", from " + where + ": ticks "
                + "run one at a time, each whole, and a tick from inside one would run inside it (a hook that ticks "
                + "recursed until StackOverflowError); tick after tick() returns (a run(n, hz) loop, or the code "
                + "that calls tick()), and have the hook or system only note that another tick is wanted");
    }
}
