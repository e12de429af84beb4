package dev.orrery.engine.host;

import dev.orrery.engine.Simulation;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One simulation on a {@link WorldHost}: its name, rate and counters, and the calls that
 * reach it while the host ticks it. Made by {@link WorldHost#add}.
 *
 * <p>A hosted world keeps everything it had alone: its input source (publish to its
 * {@code InputPipeline} from any thread, as before), its journal, its failure policy and its
 * snapshots. Work that must run on its tick thread between two ticks (a snapshot, a
 * resource read, swapping the input source) goes through {@link #call}.
 *
 * <p><b>Threading:</b> every method may be called from any thread. {@link #simulation()}
 * hands out the simulation itself, which is the host's until {@link #done()} completes:
 * until then touch it only through {@link #call}, or through its thread-safe parts:
 * publishing to its input pipeline, and reading {@link Simulation#currentTick()},
 * {@link Simulation#lastHash()} and {@link Simulation#progress()}, which each tick publishes
 * (a monitoring thread prints {@code world.simulation().progress()}). A tick, snapshot,
 * restore, close, setter, {@code world()} or {@code resources()} from another thread is
 * refused with an {@link IllegalStateException} naming this world and the fix
 * ({@code call(sim -> ...)}), and {@code stop()} naming {@link #remove()}. Completing
 * {@code done()} happens-after the world's last tick, so the thread that reads the future's
 * result may use the simulation (after {@link Simulation#bindTickThread()}).
 */
public final class HostedWorld {
    /** Where a hosted world is in its life. */
    public enum State {
        /** Waiting in the host's queue for its next tick. */
        SCHEDULED,
        /** A pool thread is ticking it (or running its {@link #call} work). */
        TICKING,
        /** Left the host after its last requested tick ({@code ticks} given to {@link WorldHost#add}). */
        FINISHED,
        /** Left the host through {@link #remove()}. */
        REMOVED,
        /**
         * Left the host because a tick threw; see {@link #failure()}. Its simulation stays open,
         * and the host's {@link WorldHost#close()} closes it unless a thread has taken it back
         * ({@code bindTickThread()}) by then.
         */
        FAILED,
        /** Left the host because the host closed (the host closed the simulation). */
        CLOSED;

        /**
         * Whether the world has left the host.
         *
         * @return true for {@code FINISHED}, {@code REMOVED}, {@code FAILED} and {@code CLOSED}
         */
        public boolean left() {
            return this != SCHEDULED && this != TICKING;
        }
    }

    final WorldHost host;
    private final String name;
    final Simulation sim;
    private final double hz;
    final long periodNanos;
    final long tickLimit;
    private final CompletableFuture<Simulation> done = new CompletableFuture<>();

    // Guarded by the host's lock.
    State state = State.SCHEDULED;
    long deadline;
    long order;
    long ticksRun;
    boolean leaveRequested;
    Throwable failure;
    long failedTick;
    /** The pool thread whose tick failed (the simulation's tick thread until a caller takes it back). */
    Thread failedOn;
    long leftAt;
    final Meter meter;
    final ArrayDeque<Task<?>> tasks = new ArrayDeque<>(0);

    /** The pool thread the simulation is bound to; read and written only by the pool thread holding the world. */
    Thread tickThread;

    HostedWorld(WorldHost host, String name, Simulation sim, double hz, long tickLimit, long firstDeadline) {
        this.host = host;
        this.name = name;
        this.sim = sim;
        this.hz = hz;
        this.periodNanos = hz > 0 ? Math.round(1e9 / hz) : 0;
        this.tickLimit = tickLimit;
        this.deadline = firstDeadline;
        this.meter = new Meter(firstDeadline);
    }

    /**
     * The name given to {@link WorldHost#add}, unique on its host while hosted.
     *
     * @return the name, never null
     */
    public String name() {
        return name;
    }

    /**
     * Ticks per second asked for (0: as often as the pool allows).
     *
     * @return the rate given to {@link WorldHost#add}, 0 or more
     */
    public double hz() {
        return hz;
    }

    /**
     * The simulation; see the class comment for when another thread may touch it.
     *
     * @return the simulation given to {@link WorldHost#add}, the same object while and after it is
     *     hosted
     */
    public Simulation simulation() {
        return sim;
    }

    /**
     * Where the world is now.
     *
     * @return the state now; it may change as soon as this returns, unless {@link State#left()}
     */
    public State state() {
        return host.state(this);
    }

    /**
     * The world's counters since it was added (or since {@link WorldHost#resetStats()}).
     *
     * @return a snapshot of the world's counters, taken now
     */
    public TickStats stats() {
        return host.stats(this);
    }

    /**
     * What a tick threw when the world failed ({@link State#FAILED}); empty otherwise.
     *
     * @return the failure, present only in state {@link State#FAILED}
     */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(host.failure(this));
    }

    /**
     * Completes when the world leaves the host: with the simulation after its last requested
     * tick, a {@link #remove()} or the host's close (the simulation closed then); exceptionally
     * with what a tick threw when it failed (the simulation is then still {@link #simulation()},
     * not closed: snapshot it, inspect it or close it, after {@code bindTickThread()} on the
     * thread that does; the host's {@link WorldHost#close()} closes it unless a thread has taken
     * it back by then). The caller owns the simulation from then on.
     *
     * @return the same future on every call, completed once the world has left
     */
    public CompletableFuture<Simulation> done() {
        return done;
    }

    /**
     * Takes the world off the host: at once when it is waiting, else right after the tick in
     * progress. The simulation is not closed; it is handed back through the future (the same
     * as {@link #done()}). Calling it again, or after the world left, changes nothing.
     *
     * @return the future of {@link #done()}
     */
    public CompletableFuture<Simulation> remove() {
        host.remove(this);
        return done;
    }

    /**
     * Runs {@code action} on the world's tick thread, between two ticks: when its next tick
     * falls due, just before that tick (so within one period), in call order. For example
     * {@code world.call(Simulation::snapshot)}. The future completes with the result, or
     * exceptionally with what the action threw (the world goes on ticking), or with an
     * {@link IllegalStateException} when the world leaves the host before the action ran.
     *
     * <p>A snapshot loads only into a simulation before its first tick, so a hosted world is
     * not restored in place ({@code restore} inside {@code call} is refused, saying so): restore
     * the save into a new simulation built like this one, then {@link #remove()} this world and
     * {@code host.add} the restored one under its name.
     *
     * @param <T> the action's result type
     * @param action run once with the simulation on the tick thread; not null, and it must not
     *     block for long, since it holds a pool thread
     * @return a future of the action's result, completed on the pool thread that ran it (or
     *     failed at once when the world has left)
     */
    public <T> CompletableFuture<T> call(Function<? super Simulation, ? extends T> action) {
        Task<T> task = new Task<>(action);
        host.call(this, task);
        return task.result;
    }

    /** Completes {@link #done()} as the world leaves; called by the host outside its lock. */
    void complete(Throwable failure) {
        if (failure != null) {
            done.completeExceptionally(failure);
        } else {
            done.complete(sim);
        }
    }

    @Override
    public String toString() {
        return "world '" + name + "'";
    }

    /** Work queued by {@link #call}. */
    static final class Task<T> {
        private final Function<? super Simulation, ? extends T> action;
        final CompletableFuture<T> result = new CompletableFuture<>();

        Task(Function<? super Simulation, ? extends T> action) {
            this.action = java.util.Objects.requireNonNull(action, "action");
        }

        void run(Simulation sim) {
            try {
                result.complete(action.apply(sim));
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        }

        void fail(String why) {
            result.completeExceptionally(new IllegalStateException(why));
        }
    }
}
