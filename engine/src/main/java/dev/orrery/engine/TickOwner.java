package dev.orrery.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * A simulation's tick thread and the checks that keep every other thread off its ticks,
 * snapshots and restores. The first tick binds the thread it runs on (by compare-and-set, so of
 * two first ticks at once exactly one binds and the other is refused), and
 * {@code Simulation.bindTickThread()} moves it; then a tick, a snapshot or a restore from any
 * other thread is refused naming both threads. A snapshot on another thread would read a
 * world the tick thread may be writing (a torn snapshot, restoring into a world no tick
 * produced), and a restore would write one under it, on plain memory, without a word.
 *
 * <p><b>A tick thread that has terminated is released.</b> A snapshot, a restore or a
 * {@code RunRecorder.close()} ({@code Simulation.requireTickThreadWhileOpen}) on another thread
 * finds the tick thread not alive ({@link Thread#isAlive()} false) and takes the simulation
 * over, as {@code bindTickThread()} would ({@link #takeOverIfEnded}): the thread's last action
 * (its last tick) happens-before any action of a thread that detects it terminated, by
 * {@code Thread.join()} or by {@code isAlive()} returning false (JLS 17.4.4), so the world and
 * the simulation's plain fields are safe to read and write here, with or without the caller's
 * own {@code join()}. That is a newcomer's shutdown: stop the loop, join its thread, close the
 * recorder and the simulation, no {@code bindTickThread()} needed. The take-over is a
 * compare-and-set from the ended thread, so of two threads that find it ended at once one
 * takes over and the other is refused naming it. Only a terminated thread counts: one that is
 * alive but idle (a pool's thread between tasks) may tick again at any moment, and stays the
 * tick thread until {@code bindTickThread()} moves it. A tick never takes over: a tick from
 * another thread is refused whether or not the tick thread has ended, so a second loop started
 * by mistake is caught on every run, not only on those where it started before the first one
 * ended. (A thread that took over by a snapshot is the tick thread, and may tick.)
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
 * more, and one with no tick thread yet two volatile writes and a small object. Only a call
 * about to be refused asks {@code isAlive()}.
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
     * The rest of a hand-over to the thread given, after {@link #takeOverIfEnded} made it the
     * tick thread: the simulation binds its executor (and so the world) and its input source to
     * it, as {@code bindTickThread()} does. Runs on that thread.
     */
    private final Consumer<Thread> handOver;
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

    TickOwner(HostGuard host, Consumer<Thread> handOver) {
        this.host = host;
        this.handOver = handOver;
    }

    /** The tick thread, or null before the first tick or bind. */
    Thread thread() {
        return thread;
    }

    /**
     * Makes {@code t} the tick thread (the caller has made the hand-over safe: see
     * bindTickThread). Under this object's lock, which {@code Simulation.closeIfStillOn} holds
     * from its check of the tick thread to the end of its close, so a move either comes first
     * (and that close leaves the simulation alone) or after it (onto a closed simulation).
     */
    synchronized void bind(Thread t) {
        thread = t;
    }

    /**
     * Makes {@code me} the tick thread in place of {@code bound} when {@code bound} has
     * terminated, and runs the rest of the hand-over on {@code me}; returns the tick thread then:
     * {@code me} when it took over, else {@code bound} or whichever thread bound itself or took
     * over meanwhile (alive, or {@code me}). Safe without the caller's own edge: the
     * {@code isAlive()} that returns false orders all the ended thread did before this (JLS
     * 17.4.4). A thread that is alive, however idle, is left the tick thread. Under this
     * object's lock, as {@link #bind} is: {@code Simulation.closeIfStillOn} (a host closing the
     * failed worlds no thread took back) holds it from its check of the tick thread to the end
     * of its close, so a take-over comes either first (and the host leaves the simulation to this
     * thread) or after that close.
     *
     * @param bound the tick thread as the caller read it, not null
     * @param me the calling thread
     */
    synchronized Thread takeOverIfEnded(Thread bound, Thread me) {
        Thread t = takeOverIfEnded(THREAD, this, bound, me);
        if (t == me && bound != me) {
            handOver.accept(me);
        }
        return t;
    }

    /**
     * The take-over rule of the class comment, for any holder of a tick thread: makes
     * {@code me} the tick thread in {@code field} of {@code holder} (a volatile {@code Thread}
     * field) in place of {@code bound} when {@code bound} has terminated, by compare-and-set, so
     * of two threads that find it ended at once exactly one takes over. Returns the tick thread
     * then: {@code me} when it took over (or was already it), else {@code bound} while it lives,
     * or whichever thread bound itself or took over meanwhile. The one copy of the rule: the
     * simulation's ticks, snapshots and restores use it here, and {@code InputPipeline.close()}
     * on its own tick-thread field.
     *
     * @param field a {@link VarHandle} on the holder's tick-thread field
     * @param holder the object whose field it is
     * @param bound the tick thread as the caller read it, or null (then nothing happens)
     * @param me the calling thread
     */
    static Thread takeOverIfEnded(VarHandle field, Object holder, Thread bound, Thread me) {
        Thread t = bound;
        while (t != null && t != me && !t.isAlive()) {
            if (field.compareAndSet(holder, t, me)) {
                return me;
            }
            t = (Thread) field.getVolatile(holder); // another thread took it over, or bound itself, meanwhile
        }
        return t;
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
     * the first tick now), naming both and the fix; a tick thread that has terminated is taken
     * over first ({@link #takeOverIfEnded}). Returns the mark to hand to {@link #end} (non-null
     * only when no thread is bound).
     */
    Call begin(String what) {
        Thread me = Thread.currentThread();
        Thread owner = thread;
        if (owner != null && owner != me) {
            owner = takeOverIfEnded(owner, me); // a terminated tick thread is released (see the class comment)
        }
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
                    + "or stop its ticks and join() it (a tick thread that has terminated hands the simulation to the "
                    + "next thread that calls this); a thread that lives on (a pool's) hands it over with "
                    + "bindTickThread() on this one once it has stopped ticking");
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
