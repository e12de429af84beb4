package dev.orrery.engine;

import dev.orrery.ecs.ReferenceCodec;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.engine.jfr.JobEvent;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.executor.ParallelExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.Objects;
import java.util.function.Consumer;
import jdk.jfr.FlightRecorder;

/**
 * Collects a simulation's parts: made by {@link Simulation#builder(World)}, finished by
 * {@link #build()}. Required: the world and the systems.
 *
 * <p><b>Threading:</b> use on one thread.
 */
public final class SimulationBuilder {
    // Read by the Simulation constructor (same package).
    final World world;
    long seed;
    int workers = 1;
    double stepSeconds = 1.0 / 60.0;
    int hashEvery = 1;
    InputSource inputs;
    Consumer<Schedule.Builder> systems = s -> { };
    final Resources resources = new Resources();
    final ResourceCodecs codecs = new ResourceCodecs();
    final WorldSnapshot snapshots = new WorldSnapshot();
    boolean jfrJobEvents = FlightRecorder.isInitialized();
    FailurePolicy failurePolicy = FailurePolicy.STOP;
    double watchdogSteps;
    Simulation.OverrunListener overrunListener;
    double deadlineSteps;

    SimulationBuilder(World world) {
        this.world = Objects.requireNonNull(world, "world");
    }

    /**
     * The seed of the random source (default 0).
     *
     * @param seed any value; a replay and a restore need the same one
     * @return this builder
     */
    public SimulationBuilder seed(long seed) {
        this.seed = seed;
        return this;
    }

    /**
     * Worker threads in all, counting the tick thread (default 1: everything on the tick thread).
     *
     * @param workers the thread count, 1 to 256, the tick thread included
     * @return this builder
     * @throws IllegalArgumentException if {@code workers} is not 1 to 256 (each worker needs its
     *     own command buffer id)
     */
    public SimulationBuilder workers(int workers) {
        if (workers < 1 || workers > ParallelExecutor.MAX_WORKERS) {
            throw new IllegalArgumentException("workers must be 1 to " + ParallelExecutor.MAX_WORKERS + " (each needs "
                    + "its own command buffer id), got " + workers);
        }
        this.workers = workers;
        return this;
    }

    /**
     * The fixed time step in seconds (default 1/60).
     *
     * @param seconds the simulated time of one tick, a positive finite number (1/60: 60 Hz)
     * @return this builder
     * @throws IllegalArgumentException if {@code seconds} is not a positive finite number
     */
    public SimulationBuilder stepSeconds(double seconds) {
        new Clock(seconds); // validates
        this.stepSeconds = seconds;
        return this;
    }

    /**
     * Hash the state every {@code n} ticks and hand it to the input source (0: never; default 1).
     *
     * @param n the ticks between hashes, 0 or more (0: never; 1: every tick)
     * @return this builder
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public SimulationBuilder hashEvery(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("hashEvery must be 0 (never) or positive, got " + n);
        }
        this.hashEvery = n;
        return this;
    }

    /**
     * Where inputs come from (default: none).
     *
     * @param source the source each tick reads its inputs from, or {@code null} for none
     * @return this builder
     */
    public SimulationBuilder inputs(InputSource source) {
        this.inputs = source;
        return this;
    }

    /**
     * Declares the systems on the schedule builder.
     *
     * @param declare called once by {@link #build()} with the schedule builder, to declare the
     *     systems on it; not null
     * @return this builder
     */
    public SimulationBuilder systems(Consumer<Schedule.Builder> declare) {
        this.systems = Objects.requireNonNull(declare, "systems");
        return this;
    }

    /**
     * The simulation's resource store, so system bodies declared in {@link #systems} can
     * capture it and read {@link Simulation#CLOCK}, {@link Simulation#INPUTS},
     * {@link Simulation#RANDOM} and their own resources at run time. It is also the
     * schedule's store, so jobs can read them through {@code job.resource(key)}.
     *
     * @return the store, the same object the built simulation and its schedule use
     */
    public Resources resources() {
        return resources;
    }

    /**
     * Puts a resource. A {@link dev.orrery.scheduler.States} or a
     * {@link dev.orrery.scheduler.FixedTimestep} (like every event channel) is carried through
     * snapshots by its own codec, so a restored run resumes in the same state and step; any other value is left out of snapshots (configuration rebuilt at start-up):
     * give it a codec with {@link #resource(ResourceKey, Object, ResourceCodec)} when it is
     * state. A snapshot leaves it out without a word even when a system writes it: right for a
     * value rebuilt every tick, a silent divergence for one a system keeps state in.
     *
     * @param <T> the resource's type
     * @param key the key, not null, its name unique in the store
     * @param value the value, not null, of the key's type
     * @return this builder
     */
    public <T> SimulationBuilder resource(ResourceKey<T> key, T value) {
        resources.put(key, value);
        return this;
    }

    /**
     * Carries event channel {@code key} through snapshots with {@code eventCodec} writing each
     * event: the events its readers have still to read, and each reader's position. A channel
     * whose events are records of primitives, strings and enums needs none (its codec is derived);
     * for any other event type a snapshot is refused until one is registered here.
     *
     * @param <T> the channel's event type
     * @param key the channel, not null
     * @param eventCodec writes and reads one event, not null
     * @return this builder
     * @throws NullPointerException if {@code key} or {@code eventCodec} is null (a record
     *     channel that needs no codec needs no call either)
     */
    public <T> SimulationBuilder events(EventKey<T> key, ResourceCodec<T> eventCodec) {
        Objects.requireNonNull(key, "event key");
        if (eventCodec == null) {
            throw new NullPointerException("SimulationBuilder.events(" + key.name() + ") was given no codec; pass "
                    + "a ResourceCodec that writes and reads one '" + key.name() + "' event, or leave the call out for "
                    + "a channel of records of primitives, strings and enums, whose codec is derived");
        }
        ResourceKey<EventChannel<T>> channel = SchedulerInternals.channelKey(key);
        if (!resources.has(channel)) {
            resources.put(channel, new EventChannel<>(key));
        }
        codecs.put(channel, FlowCodecs.events(key, eventCodec));
        return this;
    }

    /**
     * Puts a resource that snapshots carry through {@code codec}. A restore puts the object the
     * codec reads in place of {@code value}: systems read it through their job
     * ({@code job.resource(key)}) or the store, never through {@code value} captured in a lambda.
     *
     * @param <T> the resource's type
     * @param key the key, not null, its name unique in the store
     * @param value the starting value, not null, of the key's type
     * @param codec writes and reads the value in snapshots
     * @return this builder
     */
    public <T> SimulationBuilder resource(ResourceKey<T> key, T value, ResourceCodec<T> codec) {
        resources.put(key, value);
        codecs.put(key, codec);
        return this;
    }

    /**
     * Registers the snapshot codec of a reference component type.
     *
     * @param <T> the reference component's type
     * @param type the class the reference column was registered with, not null
     * @param codec writes and reads one object of {@code type}, not null
     * @return this builder
     */
    public <T> SimulationBuilder referenceCodec(Class<T> type, ReferenceCodec<T> codec) {
        snapshots.codec(type, codec);
        return this;
    }

    /**
     * Whether to emit a {@link JobEvent} per job (default: on when a flight recording was
     * already started when the builder was made, e.g. by {@code -XX:StartFlightRecording}).
     * Tick and sync-point events are always emitted while a recording enables them.
     *
     * @param on true to emit a job event per job (a cost per job while a recording runs)
     * @return this builder
     */
    public SimulationBuilder jfrJobEvents(boolean on) {
        this.jfrJobEvents = on;
        return this;
    }

    /**
     * What a tick does when a system throws (default {@link FailurePolicy#STOP}: the tick
     * throws). {@link FailurePolicy#SKIP_TICK} skips the tick and goes on; its Javadoc says
     * exactly what a skipped tick leaves and why a replay matches.
     *
     * @param policy {@link FailurePolicy#STOP} or {@link FailurePolicy#SKIP_TICK}, not null
     * @return this builder
     */
    public SimulationBuilder onSystemFailure(FailurePolicy policy) {
        this.failurePolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Starts a tick watchdog: a tick still running {@code stepsLimit} steps after it began
     * (for example 10: 167 ms at 60 Hz) is reported once, as a {@code dev.orrery.TickOverrun}
     * JFR event and to {@code listener} (on the watchdog's thread; may be null), naming the
     * system and job still running or, outside jobs, the step the tick thread is in (taking the
     * tick's inputs from the input source, a system's or a phase's run condition, a sync point,
     * the observer hook running there, the state hash, the hash listener, the source's
     * {@code recordHash}, a skipped tick's listeners, the end-of-tick hook). The tick is watched
     * from before its inputs are taken. The tick is not stopped. 0 (the default) starts none.
     * With a watchdog every job is timed (two {@code System.nanoTime()} calls a job), and so is
     * every run condition, sync point and step of the tick thread (one call each); nothing is
     * allocated for it.
     *
     * @param stepsLimit the limit in fixed steps, 0 for no watchdog
     * @param listener called on the watchdog's thread for each overrun, or {@code null} for the JFR
     *     event alone
     * @return this builder
     * @throws IllegalArgumentException if {@code stepsLimit} is negative, not a number or infinite
     *     ({@link #build()} refuses a positive one less than a nanosecond at the step, which would
     *     report every tick)
     */
    public SimulationBuilder watchdog(double stepsLimit, Simulation.OverrunListener listener) {
        Simulation.checkWatchdogSteps(stepsLimit);
        this.watchdogSteps = stepsLimit;
        this.overrunListener = listener;
        return this;
    }

    /**
     * Ends a tick still waiting for a job on a worker thread {@code steps} time steps after it
     * began (for example 600: ten seconds at 60 Hz), so that a system stuck in a job (an
     * endless loop, a wait that never returns) cannot hang the simulation: the tick fails
     * with a {@link dev.orrery.scheduler.SystemFailedException} naming the stuck system, its
     * job (worker, chunks) and how long it ran, which {@link FailurePolicy#SKIP_TICK} absorbs
     * like any failure, and later ticks run on a new worker in place of the stuck one. 0 (the
     * default) waits for ever. See {@link dev.orrery.scheduler.ScheduleExecutor#runDeadline}
     * for what happens to the stuck thread (Java cannot stop it; it is abandoned) and what
     * cannot be ended (a job on the tick thread itself; with one worker every job runs there).
     * A tick ended this way does not replay bit for bit: where the stuck job stopped writing
     * depends on timing. Set it well above the watchdog's limit, which only reports.
     *
     * @param steps the deadline in fixed steps, 0 for none
     * @return this builder
     * @throws IllegalArgumentException if {@code steps} is negative or not a number ({@link #build()}
     *     refuses a positive one less than a nanosecond at the step, which would mean none)
     */
    public SimulationBuilder tickDeadline(double steps) {
        if (!(steps >= 0)) {
            throw new IllegalArgumentException("the tick deadline must be 0 (none) or a positive number of steps, got "
                    + steps);
        }
        this.deadlineSteps = steps;
        return this;
    }

    /**
     * Builds the simulation and starts its worker threads. The simulation drives the world
     * until it is closed.
     *
     * @return the simulation, at tick 0, with its workers started; close it when done
     * @throws IllegalStateException when another simulation, not yet closed, drives the
     *     world (naming the world; close that one first, or build each simulation on a world of
     *     its own); nothing is built and the world is left as it was
     * @throws IllegalArgumentException when the {@link #tickDeadline} is positive but less than a
     *     nanosecond at the {@link #stepSeconds} step (it would mean no deadline), or the
     *     {@link #watchdog} limit is (it would report every tick); nothing is built
     */
    public Simulation build() {
        return new Simulation(this);
    }
}
