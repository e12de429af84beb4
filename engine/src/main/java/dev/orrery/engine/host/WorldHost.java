package dev.orrery.engine.host;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Ticks many simulations on one fixed pool of threads: a game server's matches, zones or
 * rooms in one process, without a thread (or a worker pool) per world.
 *
 * <pre>{@code
 * try (WorldHost host = WorldHost.builder().threads(2).build()) {
 *     Simulation match = Simulation.builder(world).seed(7).systems(rules).build();   // workers(1): no own threads
 *     HostedWorld w = host.add("match-17", match, 30.0);                             // 30 ticks/s from now on
 *     w.call(Simulation::snapshot).thenAccept(store::save);                          // on its tick thread, between ticks
 *     Simulation back = w.remove().join();                                           // after its tick in progress
 * }
 * }</pre>
 *
 * <p><b>Determinism.</b> A world's ticks run one at a time, in order, each on whichever pool
 * thread takes it, and the host touches nothing inside the simulation but {@code tick()},
 * {@code bindTickThread()} and the {@link HostedWorld#call} work it is given. So a world's
 * states, hashes and journal are those it would have alone, whatever the pool size and the
 * neighbours; only its timing changes. Worlds must share no mutable state.
 *
 * <p><b>Scheduling and the fairness bound.</b> Each world is due every {@code 1/hz} seconds
 * (at {@code hz} 0, again as soon as its tick ended). A free pool thread takes the due world
 * with the earliest deadline (earliest-deadline-first; equal deadlines in the order they were
 * queued); when none is due it parks until the earliest deadline. A world whose deadline is
 * less than {@link WorldHostBuilder#earlyStart} away counts as due: a thread starts it that
 * much early rather than park and be woken for every tick when many worlds fall due close
 * together (on a busy machine each wake-up waits for a core). After a tick the world is
 * due one period after its previous deadline, or, when the tick ended past that (an overrun),
 * at the tick's end: missed ticks are not made up, as in {@code Simulation.run}. It follows
 * that any world that starts a tick after a world W became due gets a deadline no earlier
 * than W's and is queued after it, so <b>once W is due, every other world starts at most one
 * tick before W does</b>. W's lag is therefore at most the rest of one tick in progress (the
 * soonest to end among the pool's threads) plus one tick of each world due before it, shared
 * over the threads. In particular a heavy world delays a light one by at most one of its
 * ticks, and by nothing while another thread is free; it cannot starve it. Ticks are not
 * preempted: a world whose tick takes longer than its period holds one thread for that long
 * and overruns itself, but not its neighbours while other threads are free.
 *
 * <p><b>Failures.</b> A simulation built with {@code FailurePolicy.SKIP_TICK} skips a failing
 * tick and goes on (counted in {@link TickStats#skippedTicks()}). When a tick throws (a
 * {@code SystemFailedException} under {@code STOP}, or anything its input source or journal
 * throws), that world alone leaves the host ({@link HostedWorld.State#FAILED}): the failure
 * listener hears of it and its {@link HostedWorld#done()} completes exceptionally; its
 * simulation is left open for the caller to inspect, snapshot or close. To keep it past the
 * host's {@link #close()}, take it back with {@code bindTickThread()} on the thread that will
 * use it, or add it to a host again (this one or another): the host's close closes every
 * failed world's simulation that nobody has taken back (a recorder or an explorer attached to
 * it stays the caller's to close, as for every world). The other worlds go on.
 *
 * <p><b>What a world keeps.</b> Its input source (an {@code InputPipeline} is published to
 * from any thread as before, and drained by the pool thread of each tick), its journal
 * thread if it records, its snapshots (take them through {@link HostedWorld#call}) and its
 * failure policy. A simulation built with more than one worker keeps its own executor threads
 * (the pool thread is its worker 0); build hosted worlds with {@code workers(1)} (the
 * default, which runs every job on the calling thread) to keep the thread count fixed. A
 * tick watchdog starts a thread per world; the host's {@link TickStats} give lag and overruns
 * without one.
 *
 * <p><b>Threading:</b> every public method may be called from any thread, except
 * {@link #close()} from a pool thread. The host's state (queue, worlds, counters) is guarded
 * by one lock, held only between ticks to pick a world and to put it back, never during a
 * tick. Hand-offs: {@link #add} puts the simulation in the queue under the lock and the pool
 * thread that takes it acquires that lock, so everything the adding thread did before
 * {@code add} happens-before the world's first tick; the thread ending a tick puts the world
 * back under the lock, and the next pool thread to take it acquires the lock and, when it is
 * not the thread of the previous tick, calls {@link Simulation#bindTickThread()} before
 * ticking: the happens-before edge that method asks for is the lock's release and acquire.
 * When a world leaves, its {@code done()} future completes on the pool thread after its last
 * tick (or on the thread of {@code remove} or {@code close}), which gives the reader the same
 * edge. The pool threads are not daemons: close the host.
 *
 * <p><b>The simulation is the host's while hosted.</b> From {@link #add} until the world
 * leaves, the simulation refuses a tick, run, snapshot, restore, close, hand-over
 * ({@code bindTickThread}), {@code RunRecorder.start}, setter, {@code world()} or
 * {@code resources()} from any thread but the pool thread whose turn it is, with an
 * {@link IllegalStateException} naming the world and the fix: {@link HostedWorld#call}, or
 * {@link HostedWorld#remove()} first (which {@code stop()} names: the host never calls
 * {@code run()}). Any thread may publish to its input pipeline and read its
 * {@code currentTick()}, {@code lastHash()} and {@code progress()}, published at each tick.
 *
 * <p>(Over 500 lines on purpose: the queue, the pool threads' loop and the ways a world
 * leaves share one lock and one threading contract, kept in one class with their tags; the
 * counters sit in {@code Meter}, a world's own state in {@link HostedWorld}.)
 */
public final class WorldHost implements AutoCloseable {
        /** Earliest deadline first; equal deadlines in queueing order. Deadlines are nanoTime values: compare by difference. */
    private static final Comparator<HostedWorld> EDF = (a, b) -> {
        long d = a.deadline - b.deadline;
        return d != 0 ? (d < 0 ? -1 : 1) : Long.compare(a.order, b.order);
    };

    private final Object lock = new Object();
    private final Thread[] pool;
    private final FailureListener failureListener;
    private final long earlyStart;

    // Guarded by lock.
    private final PriorityQueue<HostedWorld> queue = new PriorityQueue<>(EDF);
    private final Map<String, HostedWorld> hosted = new LinkedHashMap<>();
    /** The hosted worlds by their simulations, compared by identity. */
    private final Map<Simulation, HostedWorld> hostedSims = new IdentityHashMap<>();
    /** Worlds that failed, whose simulations {@link #close()} closes unless taken back; closed ones are dropped. */
    private final List<HostedWorld> failed = new ArrayList<>();
    /** Parked pool threads that a signal may wake, as a stack. */
    private final Thread[] waiters;
    private int waiting;
    /** The pool thread parked until the queue head's deadline; the others park until signalled. */
    private Thread leader;
    private long order;
    private boolean closed;
    private final Meter meter = new Meter(System.nanoTime());

    WorldHost(WorldHostBuilder b) {
        this.failureListener = b.failureListener;
        this.earlyStart = b.earlyStartNanos;
        this.pool = new Thread[b.threads];
        this.waiters = new Thread[b.threads];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = new Thread(this::work, b.threadName + "-" + i);
        }
        for (Thread t : pool) {
            t.start();
        }
    }

    /**
     * A builder: as many pool threads as processors, thread names {@code orrery-host-N}, failures logged.
     *
     * @return a new builder; {@link WorldHostBuilder#build} starts the pool
     */
    public static WorldHostBuilder builder() {
        return new WorldHostBuilder();
    }

    /**
     * Adds {@code sim} as world {@code name}, ticking {@code hz} times a second (0: as often
     * as the pool allows) from now on, until it is removed, fails or the host closes.
     *
     * @param name the world's name, unique on this host while it is hosted; not null
     * @param sim the simulation, not hosted anywhere, not being ticked by another thread; not null
     * @param hz ticks per second, a finite value, 0 or more (0: as often as the pool allows)
     * @return the world's handle, {@link HostedWorld.State#SCHEDULED}, its first tick due now
     * @throws IllegalArgumentException when {@code hz} is negative, not a number or infinite: an
     *     argument wrong whatever the host holds
     * @throws IllegalStateException when what the host or {@code sim} holds now refuses it (the
     *     same arguments may pass later): the host is closed; a world named {@code name} is
     *     hosted here now (remove it first, or pick another name); {@code sim} is hosted already,
     *     here or on another host (remove it there first); another thread is inside
     *     {@code sim.tick()} right now (stop it and join that thread first); or {@code sim} is
     *     closed (build a new one). Nothing is added then.
     * @throws NullPointerException if {@code name} or {@code sim} is null
     */
    public HostedWorld add(String name, Simulation sim, double hz) {
        return add(name, sim, hz, 0, Duration.ZERO);
    }

    /**
     * As {@link #add(String, Simulation, double)}, for {@code ticks} ticks (0: no limit; the
     * world then leaves as {@link HostedWorld.State#FINISHED}), the first tick due
     * {@code firstTickIn} from now (spread the start of many worlds over a period so their
     * ticks do not all fall due at once).
     *
     * <p>The thread that built or last ticked {@code sim} must not tick it any more;
     * everything it did before this call happens-before the world's first tick here.
     *
     * @param name the world's name, unique on this host while it is hosted; not null
     * @param sim the simulation, not hosted anywhere, not being ticked by another thread; not null
     * @param hz ticks per second, a finite value, 0 or more (0: as often as the pool allows)
     * @param ticks how many ticks to run, 0 or more (0: no limit)
     * @param firstTickIn the first tick's delay, not negative ({@link Duration#ZERO}: due now)
     * @return the world's handle, {@link HostedWorld.State#SCHEDULED}
     * @throws IllegalArgumentException when {@code ticks} or {@code firstTickIn} is negative, or
     *     {@code firstTickIn} does not fit a {@code long} of nanoseconds, or as
     *     {@link #add(String, Simulation, double)} says
     * @throws IllegalStateException as {@link #add(String, Simulation, double)} says
     * @throws NullPointerException if {@code name}, {@code sim} or {@code firstTickIn} is null
     */
    public HostedWorld add(String name, Simulation sim, double hz, long ticks, Duration firstTickIn) {
        // Arguments wrong whatever the host holds: IllegalArgumentException (NullPointerException for a null).
        Objects.requireNonNull(name, "the world's name is null; give each world a name, unique on this host while it "
                + "is hosted");
        String world = "world '" + name + "'";
        Objects.requireNonNull(sim, () -> world + ": the simulation is null; build one per world "
                + "(Simulation.builder(world)...build())");
        if (!(hz >= 0) || Double.isInfinite(hz)) {
            throw new IllegalArgumentException(world + ": hz must be 0 (as often as the pool allows) or a positive, "
                    + "finite rate of ticks a second, got " + hz);
        }
        if (ticks < 0) {
            throw new IllegalArgumentException(world + ": ticks must be 0 (no limit) or a positive count, got " + ticks);
        }
        long first = System.nanoTime() + WorldHostBuilder.nanos(firstTickIn, world + ": first tick's delay");
        if (firstTickIn.isNegative()) {
            throw new IllegalArgumentException(world + ": the first tick's delay must not be negative (Duration.ZERO: "
                    + "due now), got " + firstTickIn);
        }
        // What the host or the simulation holds now, which the same arguments may pass later: IllegalStateException
        // (a closed simulation is refused by hostedAs below, atomically with a host closing it as a failed world).
        HostedWorld w = new HostedWorld(this, name, sim, hz, ticks, first);
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the host is closed; cannot add " + world + ": host it on a new "
                        + "WorldHost (WorldHost.builder()...build()), or tick it here; the simulation is still yours");
            }
            if (hosted.containsKey(name)) {
                throw new IllegalStateException(world + ": a world of that name is hosted on this host now; pick "
                        + "another name, or take that world off first: host.world(\"" + name + "\").get().remove()"
                        + ".join()");
            }
            HostedWorld as = hostedSims.get(sim);
            if (as != null) {
                throw new IllegalStateException(world + ": this simulation is hosted on this host already, as " + as
                        + "; build one simulation per world, or take it off first: host.world(\"" + as.name()
                        + "\").get().remove().join()");
            }
            EngineInternals.hostedAs(sim, w.toString()); // other threads are refused from here on; throws if one ticks it
            // A failed world's simulation hosted again is taken back: this close must not close it as that failed
            // world (its tick thread may be the same pool thread again, or still be it when it leaves unticked).
            failed.removeIf(f -> f.sim == sim);
            hosted.put(name, w);
            hostedSims.put(sim, w);
            enqueue(w);
            if (queue.peek() == w) {
                leader = null;
                signalOne();
            }
        }
        return w;
    }

    /**
     * The world hosted under {@code name}, if any.
     *
     * @param name the name given to {@link #add}
     * @return the world, or empty when no world of that name is hosted now (it may have left)
     */
    public Optional<HostedWorld> world(String name) {
        synchronized (lock) {
            return Optional.ofNullable(hosted.get(name));
        }
    }

    /**
     * The worlds hosted now, in the order they were added.
     *
     * @return an unmodifiable copy, taken now; worlds that left are not in it
     */
    public List<HostedWorld> worlds() {
        synchronized (lock) {
            return List.copyOf(hosted.values());
        }
    }

    /**
     * Pool threads.
     *
     * @return the pool's size, fixed when the host was built
     */
    public int threads() {
        return pool.length;
    }

    /**
     * Counters over every tick the host ran since it started or since {@link #resetStats()}.
     *
     * @return a snapshot of the counters, taken now
     */
    public TickStats stats() {
        synchronized (lock) {
            return meter.stats(System.nanoTime());
        }
    }

    /** Restarts the host's counters and every hosted world's (to measure after a warm-up). */
    public void resetStats() {
        synchronized (lock) {
            long now = System.nanoTime();
            meter.reset(now);
            for (HostedWorld w : hosted.values()) {
                w.meter.reset(now);
            }
        }
    }

    /**
     * Stops the pool after the ticks in progress, joins its threads, and closes every
     * simulation still hosted (their worlds leave as {@link HostedWorld.State#CLOSED}; their
     * {@code done()} completes with the closed simulation, whose world can still be read and
     * snapshotted), then the simulation of every world that {@link HostedWorld.State#FAILED
     * failed} and that no thread has taken back with {@code bindTickThread()}, added to a host
     * again, or closed (its state stays {@code FAILED}). Worlds that left otherwise (removed,
     * finished) or that were taken back after they failed are the caller's and stay open. The simulations are
     * closed on the calling thread, after the joins, which order the pool's last ticks before
     * them, and handed to it first ({@code bindTickThread()}, its input source's included), so
     * a recorder, an explorer or an input pipeline of a world's, which this does not close,
     * closes on this thread afterwards. Calling it again does nothing.
     *
     * @throws IllegalStateException when called from a pool thread (a {@link HostedWorld#call} action)
     * @throws RuntimeException what a hosted world's input source ({@code bindTickThread}) or
     *     close threw, after every simulation was closed (the first, the others suppressed in
     *     it); a failed world's is added to its {@link HostedWorld#failure()} instead, suppressed
     */
    @Override
    public void close() {
        for (Thread t : pool) {
            if (t == Thread.currentThread()) {
                throw new IllegalStateException("WorldHost.close() called from its own pool thread '" + t.getName()
                        + "'; close the host from a thread outside it");
            }
        }
        synchronized (lock) {
            closed = true;
            for (Thread t : pool) {
                LockSupport.unpark(t);
            }
        }
        boolean interrupted = false;
        for (Thread t : pool) {
            while (t.isAlive()) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        List<HostedWorld> left;
        List<HostedWorld> failedLeft;
        synchronized (lock) {
            left = new ArrayList<>(hosted.values());
            for (HostedWorld w : left) {
                leave(w, HostedWorld.State.CLOSED, System.nanoTime());
            }
            queue.clear();
            failedLeft = new ArrayList<>(failed);
            failed.clear();
        }
        RuntimeException first = null;
        for (HostedWorld w : left) {
            try {
                w.sim.bindTickThread(); // the joins above order the pool's last ticks before this
            } catch (RuntimeException e) { // its input source's, user code: the simulation is closed all the same
                first = withSuppressed(first, e);
            }
            try {
                w.sim.close();
            } catch (RuntimeException e) {
                first = withSuppressed(first, e);
            }
            left(w, null);
        }
        for (HostedWorld w : failedLeft) {
            try {
                // the joins above order the failed tick before this; one a thread took back is that thread's
                EngineInternals.closeIfStillOn(w.sim, w.failedOn);
            } catch (RuntimeException e) { // its input source refused the hand-over (as it may have when it failed)
                if (e != w.failure) { // a source that throws its one failure again: self-suppression is refused
                    w.failure.addSuppressed(e); // reported with the world's failure, which its done() holds
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * {@code e} when it is the first failure of a close, else {@code first} with {@code e}
     * suppressed in it (unless it is {@code first}: two worlds' source may throw one exception).
     */
    private static RuntimeException withSuppressed(RuntimeException first, RuntimeException e) {
        if (first == null) {
            return e;
        }
        if (e != first) {
            first.addSuppressed(e);
        }
        return first;
    }

    // ---- the pool ----------------------------------------------------------------------

    /** One pool thread: put back the world it ticked, take the due world with the earliest deadline, tick it. */
    private void work() {
        Thread me = Thread.currentThread();
        ArrayDeque<HostedWorld.Task<?>> tasks = new ArrayDeque<>();
        Turn turn = new Turn();
        for (;;) {
            HostedWorld next = null;
            HostedWorld gone = null;
            long park = -1; // -1: until signalled
            boolean stop;
            synchronized (lock) {
                unregister(me);
                if (turn.world != null) {
                    gone = putBack(turn) ? turn.world : null;
                    turn.world = null;
                }
                stop = closed;
                if (!stop) {
                    HostedWorld head = queue.peek();
                    long delay = head == null ? -1 : head.deadline - earlyStart - System.nanoTime();
                    if (head != null && delay <= 0) {
                        next = queue.poll();
                        next.state = HostedWorld.State.TICKING;
                        tasks.addAll(next.tasks);
                        next.tasks.clear();
                        if (leader == null && !queue.isEmpty()) {
                            signalOne(); // someone else times the new head
                        }
                    } else {
                        if (head != null && leader == null) {
                            leader = me;
                            park = delay;
                        }
                        waiters[waiting++] = me;
                    }
                }
            }
            if (gone != null) {
                left(gone, gone.failure);
            }
            if (stop) {
                return;
            }
            if (next == null) {
                if (park < 0) {
                    LockSupport.park(this);
                } else {
                    LockSupport.parkNanos(this, park);
                }
                continue;
            }
            turn.run(next, me, tasks);
        }
    }

    /** Under the lock: counts the turn, then queues the world again or lets it leave; true when it left. */
    private boolean putBack(Turn turn) {
        HostedWorld w = turn.world;
        w.ticksRun++;
        long next = w.deadline + w.periodNanos;
        boolean overrun = w.periodNanos > 0 && turn.end - next > 0;
        if (turn.end - next > 0) {
            next = turn.end;
        }
        long lag = turn.start - w.deadline;
        w.meter.record(lag, turn.end - turn.start, overrun, turn.skipped);
        meter.record(lag, turn.end - turn.start, overrun, turn.skipped);
        if (turn.failure != null) {
            w.failure = turn.failure;
            w.failedTick = turn.tick;
            w.failedOn = Thread.currentThread(); // the pool thread of the turn
            failed.removeIf(f -> EngineInternals.closed(f.sim)); // their callers closed them: nothing to hold
            failed.add(w);
            leave(w, HostedWorld.State.FAILED, turn.end);
        } else if (w.tickLimit > 0 && w.ticksRun >= w.tickLimit) {
            leave(w, HostedWorld.State.FINISHED, turn.end);
        } else if (w.leaveRequested) {
            leave(w, HostedWorld.State.REMOVED, turn.end);
        } else {
            w.deadline = next;
            w.state = HostedWorld.State.SCHEDULED;
            enqueue(w);
            if (queue.peek() == w) {
                leader = null; // this thread times the new head itself, right after
            }
            return false;
        }
        return true;
    }

    // ---- under the lock ------------------------------------------------------------------

    private void enqueue(HostedWorld w) {
        w.order = order++;
        queue.add(w);
    }

    private void signalOne() {
        if (waiting > 0) {
            Thread t = waiters[--waiting];
            waiters[waiting] = null;
            LockSupport.unpark(t);
        }
    }

    private void unregister(Thread me) {
        if (leader == me) {
            leader = null;
        }
        for (int i = 0; i < waiting; i++) {
            if (waiters[i] == me) {
                waiters[i] = waiters[--waiting];
                waiters[waiting] = null;
                return;
            }
        }
    }

    /** Takes {@code w} off the host's books; its future is completed by {@link #left} outside the lock. */
    private void leave(HostedWorld w, HostedWorld.State how, long now) {
        w.state = how;
        w.leftAt = now;
        hosted.remove(w.name());
        hostedSims.remove(w.sim);
        EngineInternals.hostedAs(w.sim, null); // the thread that takes it back may use it (after bindTickThread)
    }

    // ---- outside the lock ----------------------------------------------------------------

    /** Tells the listener of a failure, fails the calls that never ran and completes {@code done()}. */
    private void left(HostedWorld w, Throwable failure) {
        if (failure != null) {
            try {
                failureListener.failed(w, w.failedTick, failure);
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
        List<HostedWorld.Task<?>> pending;
        synchronized (lock) {
            pending = new ArrayList<>(w.tasks);
            w.tasks.clear();
        }
        for (HostedWorld.Task<?> task : pending) {
            task.fail(w + " left the host (" + w.state() + ") before this call ran; use the simulation its done() "
                    + "future hands back");
        }
        w.complete(failure);
    }

    // ---- for HostedWorld -------------------------------------------------------------------

    HostedWorld.State state(HostedWorld w) {
        synchronized (lock) {
            return w.state;
        }
    }

    TickStats stats(HostedWorld w) {
        synchronized (lock) {
            return w.meter.stats(w.state.left() ? w.leftAt : System.nanoTime());
        }
    }

    Throwable failure(HostedWorld w) {
        synchronized (lock) {
            return w.failure;
        }
    }

    void remove(HostedWorld w) {
        synchronized (lock) {
            if (w.state != HostedWorld.State.SCHEDULED) {
                w.leaveRequested = true; // ticking: leaves after its turn; gone already: nothing to do
                return;
            }
            queue.remove(w);
            leave(w, HostedWorld.State.REMOVED, System.nanoTime());
        }
        left(w, null);
    }

    void call(HostedWorld w, HostedWorld.Task<?> task) {
        synchronized (lock) {
            if (!w.state.left()) {
                w.tasks.add(task);
                return;
            }
        }
        task.fail(w + " has left the host (" + w.state() + "); use the simulation its done() future hands back");
    }

    /** Hears of a world that left the host because a tick threw. */
    @FunctionalInterface
    public interface FailureListener {
        /**
         * {@code world}'s tick {@code tick} threw {@code failure}; the world has left the host
         * and its {@code done()} is about to complete exceptionally. Its simulation is still
         * open, and the host's {@link WorldHost#close()} closes it unless a thread takes it back
         * ({@code bindTickThread()}) or closes it first; this thread is its tick thread until then.
         * Called on the pool thread; keep it short.
         *
         * @param world the world that left, {@link HostedWorld.State#FAILED}
         * @param tick the tick that threw
         * @param failure what it threw ({@link HostedWorld#failure()} gives the same)
         */
        void failed(HostedWorld world, long tick, Throwable failure);
    }
}
