package dev.orrery.engine;

import dev.orrery.ecs.PlaybackReport;
import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.SnapshotInput;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.engine.jfr.JfrObserver;
import dev.orrery.engine.jfr.SkippedTickEvent;
import dev.orrery.engine.jfr.TickEvent;
import dev.orrery.engine.tick.IdleStrategy;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.executor.PlannedExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A running simulation: a world, its schedule of systems and their executor, resources,
 * a seed and an input source, advanced one fixed time step per {@link #tick()}.
 *
 * <p>One class of over 500 lines (about 1300, over a third of them comments), on purpose: what is
 * left is the tick loop and the public surface tools attach to (observers, the end-of-tick
 * hook, snapshots, the failure policy), each public call opening with the guards they share
 * (closed, the tick thread, a host's turn, a running recording); the builder, resource
 * serialization, JFR wiring, the host guard, the tick-thread guard ({@code TickOwner}), closing
 * ({@code Closing}), the published tick count and the watchdog's tick steps already live in
 * classes of their own, and splitting the remaining setters off would only forward calls.
 *
 * <pre>{@code
 * Simulation sim = Simulation.builder(world).seed(42).workers(4)
 *     .systems(s -> s.system("move").query(moving).reads(vel).writes(pos)
 *         .readsResource(Simulation.CLOCK).forEachChunk(job -> {
 *             float dt = job.resource(Simulation.CLOCK).dt();
 *             float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
 *             for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i] * dt;
 *         }))
 *     .build();
 * sim.run(600, 60.0);   // 600 ticks at 60 Hz
 * }</pre>
 *
 * <p>A tick: the clock advances; the input source hands over the inputs stamped with this
 * tick (the {@link #INPUTS} resource); the executor runs every system, applying the
 * workers' command buffers at each sync point; every {@code hashEvery} ticks the state hash
 * goes to the input source (a recording journals it, a replay checks it). Same world, same
 * schedule, same seed and same inputs give the same state after every tick, whatever the
 * worker count.
 *
 * <p>When a system throws, the {@link FailurePolicy} decides: {@code STOP} (the default)
 * throws from {@link #tick()}; {@code SKIP_TICK} skips the tick (see there for exactly what
 * that leaves), counts it, tells the input source (a recording notes it, a replay checks
 * it) and the {@link FailureListener}, and goes on. An optional watchdog
 * ({@link SimulationBuilder#watchdog}) reports ticks that run far past their step.
 *
 * <p><b>Threading:</b> build, tick, run and snapshot on one thread, the tick thread, which also owns the world and the resources. Any thread may call {@link #stop()}
 * and read {@link #currentTick()}, {@link #lastHash()} and {@link #progress()}: the tick
 * thread publishes them with volatile stores as each tick's systems end and as its hash is
 * taken, so reading next tick {@code N} means tick {@code N - 1}'s systems happen-before the
 * read (the world itself may be changing again: that stays the tick thread's), and
 * {@code progress()} reads a hash together with the tick it belongs to. The first
 * {@link #tick()} binds the tick thread and later ticks check that they run on it (with or
 * without {@code -ea}); a snapshot or restore from another thread is refused the same way,
 * naming both threads (it would race the ticks on plain memory: a snapshot taken while a tick
 * runs can hold a world no tick produced), and a tick or run from inside a tick (an end-of-tick
 * hook, a system, a listener) is refused naming where it was made. Before the first tick any
 * one thread may restore or snapshot, and a first tick on another thread meanwhile is
 * refused. {@link #bindTickThread()} hands the simulation to another thread (it says what the
 * hand-over must guarantee); a thread that takes it back after the old tick thread stopped
 * calls it before a snapshot too, unless that thread has terminated (joined, say): then a
 * snapshot, restore or {@code RunRecorder.close()} takes the simulation over by itself, the
 * thread's end happening-before the {@code isAlive()} that sees it (JLS 17.4.4; a tick still
 * needs the call, see there). {@link #close()} may come from any thread and never runs
 * under a tick: from another thread while a tick runs it marks the simulation closed (a
 * {@code run()} in progress returns after that tick) and waits for the tick to end, up to 10
 * seconds (see there). While a {@code WorldHost}
 * holds the simulation its pool thread is the tick thread, and another thread is refused a tick, run, snapshot,
 * restore, close, setter, {@link #world()}, {@link #resources()}, {@link #batching()} or
 * {@link #commandTotals()} (the fix:
 * {@code hostedWorld.call(sim -> ...)}) and a {@code stop()} (the fix:
 * {@code hostedWorld.remove()}), with an {@link IllegalStateException} naming the world. After
 * {@link #close()} a tick, run, snapshot or restore is refused: build a new simulation. So is a
 * setter that would start what no tick will ever use or end: a watchdog (a thread nothing would
 * stop) and an end-of-tick hook (what hooks there, such as the explorer, would serve a world
 * that never ticks again); removing either ({@code 0}, {@code null}) is taken. The other setters
 * ({@link #inputs}, {@link #hashListener}, {@link #trace}, {@link #observeJobs},
 * {@link #failureListener}, {@link #tickDeadline}, {@link #onSystemFailure}) are taken after
 * close, with their usual argument checks: each only keeps a setting a tick would read, starting
 * nothing, and the project makes these calls after a close: a {@code RunRecorder} closed after its
 * simulation hands back the input source and hash listener, and an end-of-tick hook or a run's
 * after-tick listener that runs after a close made during its tick (the explorer's hook turns job
 * observation on and off) must not fail that tick. One
 * open simulation drives a world at a time: building a second on a world an open one drives is
 * refused, naming the world (close the first, or give each simulation a world of its own).
 */
public final class Simulation implements AutoCloseable {
    /** The clock resource: tick number and fixed step. */
    public static final ResourceKey<Clock> CLOCK = ResourceKey.of("Clock", Clock.class);
    /** This tick's inputs, stamped with the tick. */
    public static final ResourceKey<InputBatch> INPUTS = ResourceKey.of("Inputs", InputBatch.class);
    /** The counter-based random source keyed by the simulation's seed. */
    public static final ResourceKey<CounterRandom> RANDOM = ResourceKey.of("Random", CounterRandom.class);

    private static final String TICK_SECTION = "orrery.tick";
    private static final String RESOURCES_SECTION = "orrery.resources";
    /** Resources rebuilt from tick and seed, so snapshots leave them out. */
    private static final Set<ResourceKey<?>> BUILT_INS = Set.of(CLOCK, INPUTS, RANDOM);

    private final World world;
    private final Schedule schedule;
    private final ScheduleExecutor executor;
    private final Resources resources;
    private final ResourceCodecs codecs;
    private final Clock clock;
    private final long seed;
    private final int workers;
    private final int hashEvery;
    private final WorldSnapshot snapshots;
    private InputSource inputs;
    private HashListener hashListener;
    private ChromeTrace trace;
    private JobObserver jobObserver;
    private TickListener endOfTick;
    private final JfrObserver jfr;
    private TickWatchdog watchdog;
    /**
     * A test's hook in {@link #watchdog} after its argument check and before the locked open
     * check that starts a watchdog: a test closes the simulation from another thread there. Null outside tests (one volatile
     * read per call, which is not on the tick path). Called on the thread that calls watchdog.
     */
    volatile Runnable watchdogSeam;
    /** The tick thread's steps outside the executor's run (inputs, hash, listeners), for the watchdog. */
    private final TickSteps steps;
    private FailurePolicy failurePolicy;
    private FailureListener failureListener = this::logFirstFailure;
    private final Set<String> failedSystems = new HashSet<>();
    /** Written by the tick thread on a skip (rare), read by any thread. */
    private volatile long skippedTicks;
    /** The inputs of a tick that failed under STOP, and their source: a retry of that tick takes them again. */
    private InputBatch failedBatch;
    private InputSource failedSource;
    /**
     * What stopped the simulation, until the next tick begins: the last tick that failed under
     * STOP and what failed ({@code tick N failed under ...}), or a step outside the systems that
     * threw, whatever the policy (the input source, a listener, the end-of-tick hook, a run's
     * after-tick listener: {@link StopCause}); null otherwise. Read by any thread (the explorer, telling a run
     * ended by a failure from one stopped or slow); written only by the tick thread: set before
     * the failure leaves {@code tick()}, and cleared first thing in the next tick, before it asks
     * the input source's {@code beginTick} (which may block) or runs any system. So a reader that
     * sees anything that next tick did, through a happens-before edge (a volatile such as
     * {@link #currentTick()}, a latch the source or a system counts down), reads null: the clear
     * precedes that in the tick thread's program order. A reader with no such edge may still
     * read the failure while the next tick has begun, as of any volatile read racing a write.
     */
    private volatile String stoppedBy;
    /** Whether the schedule is running a tick now: a snapshot or restore then would catch the world part-way. */
    private boolean inSchedule;
    /** The policy a running RunRecorder's journal notes (null when none records): it may not change meanwhile. */
    FailurePolicy recordedPolicy;
    /** The tick number while tick() runs on the tick thread (a tick or run from inside it is refused), else -1. */
    private long tickRunning = -1;
    /** Whether the tick thread is in the end-of-tick hook (named when a tick is called from there). */
    private boolean inEndOfTick;
    /** The next tick's number and the last hash, published for any thread (see {@link PublishedProgress}). */
    private final PublishedProgress published = new PublishedProgress();
    private volatile boolean stopRequested;
    /** Whether a {@link #run} is in progress: {@link #stop()} on a hosted simulation ends one rather than being refused. */
    private volatile boolean running;
    /** Refuses other threads while a WorldHost holds this simulation (see {@link HostGuard}). */
    private final HostGuard host = new HostGuard();
    /**
     * The one thread that may tick, snapshot and restore: bound by the first tick, moved by
     * bindTickThread(), taken over from a terminated one by a snapshot, restore or recorder close.
     */
    private final TickOwner owner = new TickOwner(host, this::handedOver);
    /** {@link #close()} from any thread: no tick starts after it, and the workers stop only when no tick runs. */
    final Closing closing; // package-private: a test shortens its wait
    // Flow state the simulation cannot carry through a snapshot (an event channel whose events
    // have no derived codec): snapshot() refuses, naming each and the codec to register.
    private final List<String> unsnapshotted;

    Simulation(SimulationBuilder b) {
        this.world = b.world;
        WorldClaims.claim(world, this); // first: a refused build leaves the world (and its change slots) untouched
        try {
            this.seed = b.seed;
            this.workers = b.workers;
            this.hashEvery = b.hashEvery;
            this.resources = b.resources;
            this.codecs = b.codecs;
            this.clock = new Clock(b.stepSeconds);
            deadlineNanos(b.deadlineSteps, b.stepSeconds); // refused before any thread starts
            watchdogNanos(b.watchdogSteps, b.stepSeconds);
            this.snapshots = b.snapshots;
            this.inputs = b.inputs != null ? b.inputs : new NoInputs();
            resources.put(CLOCK, clock);
            resources.put(RANDOM, new CounterRandom(seed));
            resources.put(INPUTS, new InputBatch());
            Schedule.Builder sb = Schedule.builder(world).resources(resources); // one store: jobs reach it too
            b.systems.accept(sb);
            this.schedule = sb.build();
            this.unsnapshotted = codecsForFlowState();
            this.executor = schedule.executor(workers);
            this.steps = new TickSteps(((PlannedExecutor) executor).activity(), b.hashEvery); // the tick's own steps
            steps.inputSource(inputs);
            this.jfr = new JfrObserver(executor, SchedulerInternals.graph(schedule), b.jfrJobEvents);
            this.closing = new Closing(this::release);
            onSystemFailure(b.failurePolicy);
            watchdog(b.watchdogSteps, b.overrunListener);
            tickDeadline(b.deadlineSteps);
        } catch (RuntimeException | Error e) {
            WorldClaims.release(world, this); // a failed build does not hold the world
            throw e;
        }
    }

    /**
     * Gives the scheduler's flow state a snapshot codec where none was registered, so a restored
     * run goes on as the original: a {@code States} machine and a {@code FixedTimestep} by
     * their own codecs, an event channel (those the schedule made itself included) by one
     * derived from its event type ({@link ValueCodecs}). Returns what cannot be carried.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private List<String> codecsForFlowState() {
        List<String> cannot = new ArrayList<>();
        for (ResourceKey<?> k : resources.keys()) {
            if (BUILT_INS.contains(k) || codecs.of(k) != null) {
                continue;
            }
            Object v = resources.value(k);
            if (v instanceof States<?> st) {
                codecs.put((ResourceKey) k, (ResourceCodec) FlowCodecs.states((Class) st.type()));
            } else if (v instanceof FixedTimestep) {
                codecs.put((ResourceKey) k, (ResourceCodec) FlowCodecs.fixedTimestep(
                        () -> resources.value(k) instanceof FixedTimestep f ? f : null));
            } else if (v instanceof EventChannel<?> ch) {
                ResourceCodec<?> element = ValueCodecs.of(ch.key().type());
                if (element != null) {
                    codecs.put((ResourceKey) k, (ResourceCodec) FlowCodecs.events((EventKey) ch.key(), element));
                } else {
                    cannot.add("event channel '" + ch.key().name() + "' carries " + ch.key().type().getName()
                            + ", which is not a record of primitives, strings and enums; register a codec for it with "
                            + "SimulationBuilder.events(key, codec), key being the channel's EventKey (named '"
                            + ch.key().name() + "')");
                }
            }
        }
        return List.copyOf(cannot);
    }

    /**
     * Starts (or replaces, or with 0 stops) the tick watchdog; see
     * {@link SimulationBuilder#watchdog}. Call between ticks.
     *
     * @param stepsLimit the limit in fixed steps (1.5: one and a half {@code stepSeconds}), 0 to
     *     stop the watchdog
     * @param listener called on the watchdog's thread for each overrun, or {@code null}: the
     *     {@code dev.orrery.TickOverrun} JFR event alone
     * @throws IllegalArgumentException if {@code stepsLimit} is negative, not a number or infinite, or
     *     positive but less than a nanosecond (which would read as 0 ns and report every tick)
     * @throws IllegalStateException when a watchdog is started on a closed simulation, closed
     *     before the call or by another thread during it (its thread would watch no tick and
     *     nothing would stop it; stopping one, 0, is always taken)
     */
    public void watchdog(double stepsLimit, OverrunListener listener) {
        host.check("Simulation.watchdog()");
        long limitNanos = watchdogNanos(stepsLimit, clock.stepSeconds());
        Runnable seam = watchdogSeam;
        if (seam != null) {
            seam.run();
        }
        // A closed simulation's watchdog thread would outlive it, and a close on another thread
        // (a shutdown hook) may land at any moment: the replacement runs under the lock close()
        // marks the simulation closed with, so either that close came first and a new watchdog
        // is refused here, or it comes after and its release (which reads the field after taking
        // that lock) stops the watchdog started here.
        if (!closing.ifOpen(() -> replaceWatchdog(limitNanos, listener))) {
            if (limitNanos > 0) {
                throw closedRefusal();
            }
            replaceWatchdog(0, null); // stopping one is always taken; a second close of it is harmless
        }
    }

    private void replaceWatchdog(long limitNanos, OverrunListener listener) {
        if (watchdog != null) {
            watchdog.close();
            watchdog = null;
        }
        if (limitNanos > 0) {
            watchdog = new TickWatchdog(limitNanos, SchedulerInternals.plan(schedule), workers, listener,
                    ((PlannedExecutor) executor).activity());
        }
        jfr.watch(watchdog);
    }

    /**
     * A watchdog limit of {@code stepsLimit} in nanoseconds, refused when negative, not a number, infinite (a
     * thread that could never report), or positive and under 1 ns (read as 0 ns, it would report every tick).
     */
    private static long watchdogNanos(double stepsLimit, double stepSeconds) {
        checkWatchdogSteps(stepsLimit);
        long nanos = (long) (stepsLimit * stepSeconds * 1e9);
        if (stepsLimit > 0 && nanos == 0) {
            throw new IllegalArgumentException("a watchdog limit of " + stepsLimit + " steps is less than a nanosecond at "
                    + stepSeconds + " s a step, which would report every tick as an overrun; give it in steps, such as "
                    + "watchdog(10, listener) (167 ms at 60 Hz), or watchdog(0, null) for none");
        }
        return nanos;
    }

    /** Refuses a watchdog limit that is negative, not a number or infinite (the builder's check too). */
    static void checkWatchdogSteps(double stepsLimit) {
        if (!(stepsLimit >= 0) || Double.isInfinite(stepsLimit)) {
            throw new IllegalArgumentException("the watchdog limit must be 0 (off) or a positive, finite number of "
                    + "steps, got " + stepsLimit + "; give it in steps, such as watchdog(10, listener) (167 ms at 60 Hz), "
                    + "or watchdog(0, null) for none");
        }
    }

    /**
     * Sets (or with 0 removes) the tick deadline: see {@link SimulationBuilder#tickDeadline}.
     * Call between ticks. Taken after {@link #close()} as well: it only sets a number no tick
     * reads, starting nothing (see the class).
     *
     * @param steps the deadline in fixed steps (2.0: two {@code stepSeconds}), 0 for none
     * @throws IllegalArgumentException if {@code steps} is negative or not a number, or positive
     *     but less than a nanosecond (which would read as 0, no deadline)
     */
    public void tickDeadline(double steps) {
        host.check("Simulation.tickDeadline()");
        executor.runDeadline(deadlineNanos(steps, clock.stepSeconds()));
    }

    /** A tick deadline of {@code steps} in nanoseconds, refused when negative, not a number, or positive and under 1 ns. */
    private static long deadlineNanos(double steps, double stepSeconds) {
        if (!(steps >= 0)) {
            throw new IllegalArgumentException("the tick deadline must be 0 (none) or a positive number of steps, got "
                    + steps);
        }
        long nanos = (long) Math.min(steps * stepSeconds * 1e9, Long.MAX_VALUE);
        if (steps > 0 && nanos == 0) {
            throw new IllegalArgumentException("a tick deadline of " + steps + " steps is less than a nanosecond at "
                    + stepSeconds + " s a step, which would mean no deadline at all; give it in steps, well above the "
                    + "watchdog's limit, such as tickDeadline(600) (ten seconds at 60 Hz), or tickDeadline(0) for none");
        }
        return nanos;
    }

    /**
     * Sets what a tick does when a system throws (see {@link FailurePolicy}); call between
     * ticks. A replay calls it with the recorded policy. Taken after {@link #close()} as well
     * ({@link #failurePolicy()} then answers it): it starts nothing (see the class).
     *
     * @param policy {@link FailurePolicy#STOP} or {@link FailurePolicy#SKIP_TICK}, not null
     * @throws IllegalStateException if a {@link RunRecorder} records this simulation and
     *     {@code policy} is not the one its journal notes
     */
    public void onSystemFailure(FailurePolicy policy) {
        host.check("Simulation.onSystemFailure()");
        Objects.requireNonNull(policy, "policy");
        if (recordedPolicy != null && policy != recordedPolicy) {
            throw new IllegalStateException("cannot change the failure policy to " + policy + " while a RunRecorder "
                    + "records this simulation: its journal notes " + recordedPolicy + ", the policy when it started, "
                    + "and a replay runs under that; set the policy before RunRecorder.start (or on the builder)");
        }
        this.failurePolicy = policy;
        executor.finishPhaseOnFailure(policy == FailurePolicy.SKIP_TICK);
    }

    /**
     * The failure policy.
     *
     * @return the policy now set, {@link FailurePolicy#STOP} unless changed
     */
    public FailurePolicy failurePolicy() {
        return failurePolicy;
    }

    /**
     * Ticks skipped so far because a system threw ({@link FailurePolicy#SKIP_TICK}). Any
     * thread (a volatile read), like {@link #currentTick()}.
     *
     * @return the count of skipped ticks, 0 or more; never decreases
     */
    public long skippedTicks() {
        return skippedTicks;
    }

    /**
     * Receives every skipped tick (default: a {@code System.Logger} warning the first time
     * each system fails, naming the world while a {@code WorldHost} holds the simulation);
     * call between ticks. Taken after {@link #close()} as well: no tick will call it, and it
     * holds nothing open (see the class).
     *
     * @param listener called on the tick thread for each skipped tick, not null; it replaces the
     *     default warning
     */
    public void failureListener(FailureListener listener) {
        host.check("Simulation.failureListener()");
        this.failureListener = Objects.requireNonNull(listener, "listener");
        steps.failureListener(listener);
    }

    /** Hears of each tick skipped under {@link FailurePolicy#SKIP_TICK}, on the tick thread. */
    @FunctionalInterface
    public interface FailureListener {
        /**
         * Tick {@code tick} was skipped because of {@code failure} (its message names the
         * system, the chunk and the worker; its cause is what the system threw);
         * {@code firstForSystem} is true the first time that system fails in this simulation.
         *
         * @param tick the number of the skipped tick
         * @param failure the failure, naming the system, the chunk and the worker; its cause is
         *     what the system threw
         * @param firstForSystem true the first time this system fails in this simulation
         */
        void skipped(long tick, SystemFailedException failure, boolean firstForSystem);
    }

    /** Hears of ticks that overran the watchdog's limit, on the watchdog's thread. */
    @FunctionalInterface
    public interface OverrunListener {
        /**
         * Tick {@code tick} has run {@code elapsedNanos} so far; {@code system} is the system
         * still running (empty if none) and {@code job} describes its job (worker, chunks, how
         * long) or, when the tick thread is outside jobs, what it is in: {@code "no job running: the
         * tick thread is in the run condition of system 'regen' (test of clock) for 210 ms"}, or
         * {@code "... in the onAdd observer hook on Hp at the sync point after 'ai' (ending phase
         * Update) for 180 ms"}. The input source's {@code bindTickThread}, which
         * {@link Simulation#bindTickThread()} calls between ticks, is watched as well: then
         * {@code tick} is the tick about to run and {@code elapsedNanos} the time since that call began.
         *
         * @param tick the running tick's number
         * @param elapsedNanos the tick's time so far, in nanoseconds
         * @param system the running system's name, or empty when none runs
         * @param job the running job, or where the tick thread is, in words
         */
        void overrun(long tick, long elapsedNanos, String system, String job);
    }

    /** The default failure listener; names the world when a WorldHost holds it (a host runs many). */
    private void logFirstFailure(long tick, SystemFailedException failure, boolean first) {
        if (first) {
            String hosted = host.hostedAs();
            System.getLogger(Simulation.class.getName()).log(System.Logger.Level.WARNING,
                    (hosted == null ? "" : hosted + ": ") + "tick " + tick
                    + " skipped: " + failure.getMessage() + " (later failures of this system are only counted)");
        }
    }

    /**
     * Starts building a simulation over {@code world}. One open simulation drives a world at a
     * time: {@link SimulationBuilder#build()} is refused while another, not yet closed, drives
     * {@code world}; once that one is closed, a new one may take the world over as it was left.
     *
     * @param world the world to drive, not null, with its components registered
     * @return a new builder, with seed 0, one worker and a 60 Hz step unless set
     */
    public static SimulationBuilder builder(World world) {
        return new SimulationBuilder(world);
    }

    /**
     * The world. The tick thread's, between ticks: while a {@code WorldHost} holds this
     * simulation, a pool thread changes the world at any moment, so a call from any thread but
     * the one whose turn it is (inside {@code hostedWorld.call(sim -> ...)}, or an end-of-tick
     * hook) is refused with an {@link IllegalStateException} naming the world and that fix.
     * Not hosted, the check is one volatile read.
     *
     * @return the world given to {@link #builder}
     */
    public World world() {
        host.check("Simulation.world()");
        return world;
    }

    /**
     * The resources: the tick thread's, as {@link #world()}, and refused in the same way on
     * another thread while a {@code WorldHost} holds this simulation.
     *
     * @return the resource store the schedule's systems read, the same object on every call
     */
    public Resources resources() {
        host.check("Simulation.resources()");
        return resources;
    }

    /**
     * The schedule (print it with {@code schedule().toDot()}).
     *
     * @return the schedule built from the builder's {@code systems(...)}
     */
    public Schedule schedule() {
        return schedule;
    }

    /**
     * The seed.
     *
     * @return the seed given to the builder (0 unless set); the random source is rebuilt from it
     */
    public long seed() {
        return seed;
    }

    /**
     * Worker threads in all, counting the tick thread.
     *
     * @return the thread count, 1 or more (1: everything runs on the tick thread)
     */
    public int workers() {
        return workers;
    }

    /**
     * The number of the next tick to run (ticks run so far, after a restore: plus the restored
     * tick). Any thread, one volatile read; it never decreases. The tick thread publishes
     * {@code N + 1} as soon as tick {@code N}'s systems have run (before its hash, trace and
     * end-of-tick hook), so reading {@code N + 1} on another thread means that everything the
     * tick thread and the workers did up to the end of tick {@code N}'s systems happens-before
     * the read. It does not make the world safe to read there: the next tick may be changing
     * it already (read it through {@code hostedWorld.call}, or in {@link #atEndOfTick}).
     *
     * @return the next tick's number, 0 before the first tick (or the restored tick after a
     *     restore)
     */
    public long currentTick() {
        return published.nextTick();
    }

    /**
     * The next tick's number, the last state hash and the tick it was taken after, read
     * together from any thread: never a number from one tick beside a hash from another, which
     * two calls ({@link #currentTick()}, then {@link #lastHash()}) may give when a tick ends
     * between them. A monitoring thread prints it; reading a hash of tick {@code N} here means
     * that everything the tick thread did up to taking it happens-before the read. The read
     * retries while the tick thread replaces the hash (two stores) and never blocks the tick;
     * it allocates the record, on the calling thread.
     *
     * @return a new record of the next tick's number, the last hash and its tick
     */
    public TickProgress progress() {
        return published.read();
    }

    /**
     * The clock resource. Its {@code stepSeconds()} is fixed and readable anywhere; its
     * {@code tick()} is the tick thread's, so another thread reads {@link #currentTick()}.
     *
     * @return the clock resource, the same object on every call
     */
    public Clock clock() {
        return clock;
    }

    /**
     * Replaces the input source (for example with a journal during replay); call between ticks.
     * Taken after {@link #close()} as well: a {@code RunRecorder} closed after its simulation
     * hands the simulation back its earlier source here, and no tick will read the source (it
     * stays its owner's to close; see the class).
     *
     * @param source the source every later tick reads its inputs from, not null
     */
    public void inputs(InputSource source) {
        host.check("Simulation.inputs()");
        this.inputs = Objects.requireNonNull(source, "input source");
        steps.inputSource(source);
    }

    /** The input source now read (a recorder hands the simulation back to it when it closes). */
    InputSource inputSource() {
        return inputs;
    }

    /** The hash listener now set, or null (a recorder chains it and puts it back when it closes). */
    HashListener hashListenerSet() {
        return hashListener;
    }

    /**
     * Records every job and tick into {@code trace} from the next tick on ({@code null}
     * stops); call between ticks. Build it with {@link #newTrace(int)}. Taken after
     * {@link #close()} as well, recording nothing then: an after-tick listener of {@link #run}
     * may set it after a close made during its tick, and the trace is memory the caller holds
     * (see the class).
     *
     * @param trace a trace from {@link #newTrace(int)}, or {@code null} to stop tracing
     */
    public void trace(ChromeTrace trace) {
        host.check("Simulation.trace()");
        this.trace = trace;
        chainObservers();
    }

    /** The executor (the engine's internal door hands it to Orrery's test kit). */
    ScheduleExecutor executor() {
        return executor;
    }

    /**
     * How the executor splits each system into jobs, as decided so far, in graph order (see
     * {@link BatchDecision}; {@code BatchDecision.toText(sim.batching())} prints a table).
     * Empty on one worker. Call between ticks, on the tick thread (refused from another thread
     * while a {@code WorldHost} holds the simulation, as {@link #world()} is); allocates the list.
     *
     * @return a new list, one decision per system in graph order; empty on one worker
     */
    public List<BatchDecision> batching() {
        host.check("Simulation.batching()");
        return executor.batching();
    }

    /**
     * Reports every job and sync point to {@code observer} from the next tick on ({@code null}
     * stops), beside a trace set by {@link #trace}; call between ticks (an end-of-tick hook is
     * between ticks). A job's {@code systemIndex} names its system in
     * {@code schedule().systemNames()}. Per-system metrics and live views attach here; with none set, the
     * executor keeps its unobserved path. Taken after {@link #close()} as well, reporting
     * nothing then: an end-of-tick hook (the explorer's) may set it after a close made during its
     * tick (see the class).
     *
     * @param observer called on the worker threads for every job (and on the tick thread for sync
     *     points), or {@code null} to stop
     */
    public void observeJobs(JobObserver observer) {
        host.check("Simulation.observeJobs()");
        this.jobObserver = observer;
        chainObservers();
    }

    private void chainObservers() {
        jfr.chain(trace == null ? jobObserver : jobObserver == null ? trace : new JobFanOut(trace, jobObserver));
    }

    /**
     * Calls {@code hook} at the end of every tick, on the tick thread, after the tick's hash
     * and trace ({@code null} removes it): a safe point, where no job runs, so it may read the
     * world and resources, and install or remove a job observer. It must not change the world
     * (changes are inputs). It gets the tick's number and its time so far in nanoseconds.
     * The watchdog counts the hook's time as the tick's and names the hook when it overruns.
     * Call between ticks.
     *
     * @param hook called on the tick thread at the end of every tick, or {@code null} to remove it
     * @throws IllegalStateException when a hook is given to a closed simulation (no tick would
     *     call it; removing one, {@code null}, is always taken)
     */
    public void atEndOfTick(TickListener hook) {
        host.check("Simulation.atEndOfTick()");
        if (hook != null) {
            requireOpen(); // what hooks here (the explorer) would serve a world that never ticks again
        }
        this.endOfTick = hook;
    }

    /**
     * The codecs of the resources snapshots carry (read on the tick thread, between ticks).
     *
     * @return the codecs, by resource key; the builder's {@code resource(key, value, codec)} adds
     *     to them
     */
    public ResourceCodecs resourceCodecs() {
        return codecs;
    }

    /**
     * A trace sized for this simulation's workers, keeping up to {@code eventsPerWorker} jobs each.
     *
     * @param eventsPerWorker the jobs kept per worker (and the ticks kept), 1 or more: the first
     *     ones traced are kept, and each later one is left out and counted in
     *     {@link ChromeTrace#droppedCount()}
     * @return a new trace, not yet recording: hand it to {@link #trace(ChromeTrace)}
     * @throws IllegalArgumentException if {@code eventsPerWorker} is below 1 (0 would keep no job
     *     nor tick, and write an empty trace)
     */
    public ChromeTrace newTrace(int eventsPerWorker) {
        if (eventsPerWorker < 1) {
            throw new IllegalArgumentException("a trace keeps 1 or more jobs per worker, got " + eventsPerWorker
                    + (eventsPerWorker == 0 ? " (it would keep no job nor tick, and write an empty trace with every "
                            + "job counted as dropped)" : "") + "; size it for the ticks you trace, such as "
                    + "newTrace(4096)");
        }
        return new ChromeTrace(SchedulerInternals.plan(schedule), workers, eventsPerWorker);
    }

    /**
     * Totals of the structural changes applied from command buffers so far. The tick thread's,
     * between ticks (refused from another thread while a {@code WorldHost} holds the
     * simulation, as {@link #world()} is).
     *
     * @return the running totals (spawns, despawns, refused commands...) since the simulation was
     *     built
     */
    public PlaybackReport commandTotals() {
        host.check("Simulation.commandTotals()");
        return executor.commandTotals();
    }

    /**
     * Called on every hashed tick, before the input source sees the hash (recorders log more
     * detail here); {@code null} removes it. Taken after {@link #close()} as well: a
     * {@code RunRecorder} closed after its simulation hands back the listener set before it here,
     * and no tick will call it (see the class).
     *
     * @param listener called on the tick thread for each hashed tick, or {@code null} to remove it
     */
    public void hashListener(HashListener listener) {
        host.check("Simulation.hashListener()");
        this.hashListener = listener;
        steps.hashListener(listener);
    }

    /** Receives each hashed tick. */
    @FunctionalInterface
    public interface HashListener {
        /**
         * Tick {@code tick} ran and left {@code world} with state hash {@code hash}.
         *
         * @param tick the number of the tick that ran
         * @param hash the world's state hash after it
         * @param world the world, to read only, during the call
         */
        void hashed(long tick, long hash, World world);
    }

    /**
     * The state hash computed by the last hashed tick (0 before one). Any thread, one volatile
     * read; published as soon as the tick computed it, before the hash listener and the input
     * source see it. Which tick it belongs to, and the next tick's number beside it, read
     * together with {@link #progress()}.
     *
     * @return the hash, or 0 before the first hashed tick
     */
    public long lastHash() {
        return published.hash();
    }

    /**
     * Runs one fixed time step.
     *
     * @return the number of the tick that ran
     * @throws dev.orrery.scheduler.SystemFailedException if a system threw, a sync point failed
     *     (an observer hook threw, or a cascade was refused) or a job was still out at the
     *     {@linkplain #tickDeadline tick deadline}, under {@link FailurePolicy#STOP}; its message
     *     says what the tick left, and the world's structure stays consistent (under
     *     {@code SKIP_TICK} the tick is skipped instead); the tick does not count, and calling
     *     this again runs it again with the inputs the source handed the failed attempt
     * @throws IllegalStateException after {@link #close()}, on a thread other than the tick
     *     thread (naming both; see {@link #bindTickThread()}), on another thread while a
     *     snapshot or restore runs before any tick, or from inside a tick (an end-of-tick hook,
     *     a system, a listener: naming where); nothing runs then
     */
    public long tick() {
        requireOpen();
        long t = tickUnlessClosed();
        if (t < 0) {
            throw closedRefusal(); // closed by another thread after the check above
        }
        return t;
    }

    /** A tick, or -1 with nothing run when the simulation is closed as it starts. */
    private long tickUnlessClosed() {
        requireNotInTick("Simulation.tick()"); // before the host's mark: the tick in progress keeps it
        // Refused before the mark, so that a refused tick leaves the mark of the tick in progress alone:
        host.check("Simulation.tick()"); // naming the fix, on a thread other than a hosting pool's turn
        Thread me = Thread.currentThread();
        boolean bound = owner.tickOn(me); // naming both threads, on another than the tick thread
        Thread other;
        while ((other = host.tickStarted()) != null) { // another thread holds the mark: left alone
            owner.markHeldBy(me, other); // refused unless this is the tick thread, the other on its way out
            Thread.yield();
        }
        try {
            if (!bound) {
                owner.bindFirstTick(me); // refused while an unbound snapshot or restore runs, or another bound first
            }
            long t = published.nextTick();
            if (!closing.tickStarted(me, t)) {
                return -1;
            }
            try {
                return tickOnThisThread(t);
            } finally {
                closing.tickEnded(); // releases the workers here when a close came during the tick
            }
        } finally {
            host.tickEnded();
        }
    }

    private long tickOnThisThread(long t) {
        tickRunning = t;
        long started = System.nanoTime();
        TickEvent event = TickEvent.startIfEnabled(); // null unless a recording takes tick events
        jfr.beforeRun();
        clock.set(t);
        if (watchdog != null) {
            watchdog.tickStarted(t, started);
        }
        // The watchdog watches the whole tick, from taking its inputs (a source that blocks) to
        // the end-of-tick hook (a tool such as the explorer that runs long), and names each step
        // that calls user code: the tick thread publishes them through `steps` (no allocation).
        SystemFailedException skipped = null; // what a skipped tick skipped for
        try {
            // The run goes on: what stopped it no longer holds, from before this tick takes its
            // inputs (a source may block in beginTick) or runs any user code (see stoppedBy).
            if (stoppedBy != null) {
                stoppedBy = null;
            }
            // A retry of a tick that failed under STOP gets the inputs the source already handed it.
            InputBatch batch;
            if (failedBatch != null && failedSource == inputs && failedBatch.tick() == t) {
                batch = failedBatch;
            } else {
                steps.enter(TickSteps.BEGIN_TICK);
                batch = inputs.beginTick(t);
                steps.leave();
            }
            failedBatch = null;
            resources.put(INPUTS, batch);
            inSchedule = true;
            try {
                executor.run();
            } catch (SystemFailedException e) {
                if (failurePolicy == FailurePolicy.STOP) {
                    failedBatch = batch;
                    failedSource = inputs;
                    stoppedBy = "tick " + t + " failed under FailurePolicy.STOP: " + e.getMessage();
                    throw e;
                }
                skipped = e;
            } finally {
                inSchedule = false;
            }
            published.nextTick(t + 1); // other threads see the tick counted from here (see currentTick())
            if (skipped != null) {
                skip(t, skipped);
            }
            if (hashEvery > 0 && t % hashEvery == 0 || wantsHash(t)) { // a replay's recorded hash too
                steps.enter(TickSteps.STATE_HASH);
                long hash = world.stateHash();
                steps.leave();
                published.hashed(t, hash);
                if (hashListener != null) {
                    steps.enter(TickSteps.HASH_LISTENER);
                    hashListener.hashed(t, hash, world);
                    steps.leave();
                }
                steps.enter(TickSteps.RECORD_HASH);
                inputs.recordHash(t, hash);
                steps.leave();
            }
            if (trace != null) {
                trace.tickRan(t, started, System.nanoTime());
            }
            if (event != null) {
                event.finish(t, batch.size(), world);
            }
            if (endOfTick != null) {
                if (watchdog != null) {
                    watchdog.endOfTickStarted(System.nanoTime());
                }
                inEndOfTick = true;
                endOfTick.ticked(t, System.nanoTime() - started);
            }
        } catch (RuntimeException | Error e) {
            if (stoppedBy == null && !(e instanceof VirtualMachineError)) { // a step outside the systems (StopCause);
                // not for an out-of-memory or a stack overflow, which building the words could throw again over
                stoppedBy = StopCause.inTick(t, published.nextTick(), skipped, steps.currentKind(), steps.current(),
                        inEndOfTick, e);
            }
            throw e;
        } finally {
            tickRunning = -1;
            inEndOfTick = false;
            steps.leave(); // a step whose user code threw
            if (watchdog != null) {
                watchdog.tickEnded();
            }
        }
        return t;
    }

    /** Whether the input source wants this tick's hash (a replay checking its recorded one), as a named step. */
    private boolean wantsHash(long t) {
        steps.enter(TickSteps.WANTS_HASH);
        boolean wants = inputs.wantsHash(t);
        steps.leave();
        return wants;
    }

    private void skip(long t, SystemFailedException e) {
        skippedTicks++;
        SkippedTickEvent.emit(t, e.system(), e.chunkOrdinal(), String.valueOf(e.getCause()));
        steps.enter(TickSteps.TICK_SKIPPED);
        inputs.tickSkipped(t, e, schedule.systemNames());
        steps.enter(TickSteps.FAILURE_LISTENER);
        failureListener.skipped(t, e, failedSystems.add(e.system()));
        steps.leave();
    }

    /**
     * Makes the calling thread the tick thread from now on, and tells the input source so
     * ({@link InputSource#bindTickThread()}). Ticks of one simulation come from one thread
     * at a time; the first tick binds its thread, and a tick from another thread is refused
     * with an {@link IllegalStateException} naming both threads.
     *
     * <p>To hand the simulation to another thread, the old tick thread stops ticking and
     * something it does after its last tick must happen-before this call on the new thread:
     * {@code Thread.join} on the old thread, {@code Future.get} of its last task, a
     * {@code BlockingQueue} hand-off of the simulation, or a volatile write read by the new
     * thread. The simulation's fields and the world are plain memory, so without that edge
     * the new thread may see a stale world. This method adds no such edge itself.
     *
     * <p>A tick thread that has terminated needs no call to this before a {@link #snapshot()},
     * a {@link #restore}, or a {@code RunRecorder.close()}: the first of those made on another
     * thread finds it not alive and does what this method does on that thread, since the end of
     * a thread happens-before whatever detects it ended, by {@code join()} or by
     * {@code isAlive()} returning false (JLS 17.4.4). So {@code sim.stop(); loop.join();
     * recorder.close(); sim.close();} works as written, in either order of the two closes. A
     * tick still needs this call (a tick from another thread is refused whether or not the
     * tick thread has ended, so a second loop is caught every time), as does a tick thread
     * that lives on, idle (a pool's thread after {@code Future.get}): it may tick again.
     *
     * <p>On a closed simulation it only makes the calling thread the one that may call it (a
     * second {@code close()} included): the world's owner thread and the input source are left
     * as they are, since a newer simulation may be driving that world now.
     */
    public void bindTickThread() {
        host.check("Simulation.bindTickThread()");
        Thread me = Thread.currentThread();
        owner.bind(me);
        handedOver(me);
    }

    /**
     * The rest of a hand-over to {@code me}, which is the tick thread now: by
     * {@link #bindTickThread()}, or by {@code TickOwner} taking over from a terminated one. On
     * {@code me}.
     */
    private void handedOver(Thread me) {
        if (closing.closed()) {
            // Nothing more to bind: no tick will run. The world may be driven by a newer
            // simulation now, so its owner thread is left alone (a host closing its worlds binds first).
            return;
        }
        executor.bindOwner(me);
        if (watchdog != null) { // a source that blocks here stalls the next tick: watched and named like beginTick
            watchdog.betweenTicksStarted(published.nextTick(), System.nanoTime());
        }
        steps.enter(TickSteps.BIND_TICK_THREAD);
        try {
            inputs.bindTickThread();
        } finally {
            steps.leave();
            if (watchdog != null) {
                watchdog.tickEnded();
            }
        }
    }

    /**
     * Refuses a caller on a thread other than the hosting pool thread's turn while a
     * {@code WorldHost} holds this simulation, naming {@code what} and the fix.
     */
    void requireNotHosted(String what) {
        host.check(what);
    }

    /**
     * Refuses {@code what} while a {@code WorldHost} holds this simulation, whichever thread
     * calls (inside {@code hostedWorld.call} too), saying {@code why} and the {@code fix}: see
     * {@link HostGuard#checkNotHosted}. Any thread.
     */
    void requireNotHostedAtAll(String what, String why, String fix) {
        host.checkNotHosted(what, why, fix);
    }

    /**
     * Refuses {@code what} on a thread other than the tick thread while the simulation is open
     * and a tick has bound one, naming both threads and {@code fix}; changes nothing. A closed
     * simulation, or one no tick has bound yet, takes it from any thread; a tick thread that
     * has terminated is taken over by this one first, as {@link #bindTickThread()} would (its
     * end happens-before the {@code isAlive()} that saw it: see {@code TickOwner}).
     */
    void requireTickThreadWhileOpen(String what, String fix) {
        Thread me = Thread.currentThread();
        Thread bound = owner.thread();
        if (!closing.closed() && bound != null && bound != me) {
            Thread now = owner.takeOverIfEnded(bound, me);
            if (now != me) {
                throw owner.otherThread(what, me, now, fix);
            }
        }
    }

    /**
     * The host's side of {@link HostGuard}, reached through {@code EngineInternals}: {@code world}
     * null when it leaves. A host taking it is refused when it is closed, checked under the tick
     * owner's lock with the mark: {@link #closeIfStillOn} (another host closing it as a failed world
     * of its own) checks the mark and closes under that lock, so it either closes first (and this
     * is refused) or sees the simulation hosted again and leaves it to that host.
     */
    void hostedAs(String world) {
        if (world == null) {
            host.unhost();
            return;
        }
        synchronized (owner) {
            if (closing.closed()) {
                throw new IllegalStateException(world + ": the simulation is closed, so it cannot tick again; build "
                        + "a new one (restore a snapshot of this one into it to go on from where it was) and add that");
            }
            host.host(world);
        }
    }

    /**
     * For {@code WorldHost.close()}, through {@code EngineInternals}: takes this simulation
     * over on the calling thread ({@link #bindTickThread()}, the input source's included, so a
     * recorder's pipeline closes on this thread afterwards) and closes it, returning true, when
     * its tick thread is still {@code left} (the pool thread whose tick failed, joined by the
     * caller, which orders that tick before this), so no thread has taken it back since;
     * returns false, changing nothing, when one has (it is that thread's to close), when a host
     * holds it again (added anew, here or on another host, which takes it back too: its tick
     * thread stays {@code left} until that host's first turn), or when it is closed already. The
     * check, the hand-over and the close hold the tick owner's lock, which
     * {@code bindTickThread()}'s move and a host's taking it ({@link #hostedAs(String)}) take too:
     * a thread taking it back meanwhile either moves or hosts it first, and keeps it open, or
     * comes after the close, onto a closed simulation (a host's add is refused). No tick runs
     * meanwhile: only the tick thread ticks, and {@code left} has ended.
     *
     * @throws RuntimeException what the input source's {@code bindTickThread} threw, after the
     *     simulation was closed all the same
     */
    boolean closeIfStillOn(Thread left) {
        synchronized (owner) {
            if (owner.thread() != left || closing.closed() || host.hostedAs() != null) {
                return false; // taken back: by a thread's bind, or a host's add (whose first turn may not have come)
            }
            try {
                bindTickThread(); // its input source's is user code, which may throw: closed all the same
            } finally {
                closing.close();
            }
            return true;
        }
    }

    /** The host's side of {@link HostGuard}: {@code turn} begins its turn with this simulation, or null when it ends. */
    void hostTurn(Thread turn) {
        host.turn(turn);
    }

    /** For the explorer, through {@code EngineInternals}: the hosted world ({@code world 'name'}) while a host holds it, else null. Any thread. */
    String hostedNow() {
        return host.hostedAs();
    }

    /**
     * For the explorer, through {@code EngineInternals}: {@code tick N failed under
     * FailurePolicy.STOP: } and the failure's message, or a failure outside the systems in the
     * words of {@link StopCause}, from that failure until the next tick begins (cleared before it takes its inputs; see the field {@code stoppedBy} for the
     * ordering); else null. Any thread.
     */
    String stoppedByNow() {
        return stoppedBy;
    }

    /**
     * For {@code RunReplayer}, on the tick thread after a tick threw a divergence it explained:
     * {@code detail} (which components differ, or null) joins what stopped the simulation, as it
     * joined the message.
     */
    void stopCauseDetail(String detail) {
        String now = stoppedBy;
        if (now != null && detail != null) {
            stoppedBy = now + ". " + detail;
        }
    }

    /**
     * For the explorer, through {@code EngineInternals}: whether a {@link #run} is in progress
     * (the volatile mark {@code run()} sets for its whole length). Any thread.
     */
    boolean runningNow() {
        return running;
    }

    /** For the explorer, through {@code EngineInternals}: whether {@link #close()} was called. Any thread. */
    boolean closedNow() {
        return closing.closed();
    }

    /**
     * Refuses to go on after {@link #close()}, in the user's terms (the executor's own refusal
     * names an executor the user never made).
     */
    void requireOpen() {
        if (closing.closed()) {
            throw closedRefusal();
        }
    }

    private IllegalStateException closedRefusal() {
        Thread by = closing.closer();
        return new IllegalStateException("simulation is closed" + (by != null && by != Thread.currentThread()
                ? " (by thread '" + by.getName() + "')" : "") + "; build a new one with Simulation.builder(world)");
    }

    /**
     * Refuses {@code call} (a snapshot, a restore, {@code RunRecorder.start}) from inside a
     * tick's schedule, naming when to make it.
     */
    void requireBetweenTicks(String call) {
        if (inSchedule) {
            throw new IllegalStateException(call + " called while tick " + published.nextTick() + " runs (from a "
                    + "system, a run condition or an observer hook): the world is part-way through the tick, so a run "
                    + "restored from it would run the tick's earlier systems again; call it between ticks, after "
                    + "tick() returns or in atEndOfTick");
        }
    }

    /** Refuses {@code call} (a tick or a run) on the tick thread from inside a tick, naming where it was made. */
    private void requireNotInTick(String call) {
        long t = tickRunning; // the tick thread's field: another thread's stale read is let by, and refused as a thread
        if (t >= 0 && owner.thread() == Thread.currentThread()) {
            String step = steps.current();
            throw TickOwner.reentrant(call, t, inSchedule ? "a system, a run condition or an observer hook (the "
                    + "schedule is running)" : step != null ? step : inEndOfTick ? "the end-of-tick hook (atEndOfTick)"
                    : "the tick's own steps");
        }
    }

    /**
     * Runs {@code ticks} ticks (0: until {@link #stop()}) at {@code hz} ticks per second (0: as
     * fast as possible): {@code sim.run(600, 60.0)} is ten seconds of a 60 Hz game. See
     * {@link #run(long, double, TickListener)} for the pacing.
     *
     * @param ticks how many ticks to run, 0 for until {@link #stop()}
     * @param hz the ticks per second, 0 for as fast as possible
     */
    public void run(long ticks, double hz) {
        run(ticks, hz, null);
    }

    /**
     * Runs {@code ticks} ticks (0: until {@link #stop()}) at {@code hz} ticks per second (0:
     * as fast as possible), parking between ticks when ahead (spinning the last fraction of a millisecond).
     * When a tick overruns, the next starts at once and the schedule is not made up.
     *
     * @param ticks     how many ticks to run, 0 for no limit
     * @param hz        the target rate in ticks per second, 0 for no pacing
     * @param afterTick called after each tick with its number (progress, metrics); may be null
     * @throws IllegalArgumentException if {@code ticks} is negative or {@code hz} is negative or
     *     not a finite number; nothing runs then
     * @throws IllegalStateException after {@link #close()}, or from inside a tick (an end-of-tick
     *     hook, a system, a listener: naming where); nothing runs then; as {@link #tick()} on
     *     a thread other than the tick thread
     */
    public void run(long ticks, double hz, TickListener afterTick) {
        host.check("Simulation.run()");
        requireOpen();
        requireNotInTick("Simulation.run()");
        if (ticks < 0) {
            throw new IllegalArgumentException("cannot run " + ticks + " ticks; give a count of ticks, or 0 to run "
                    + "until stop()");
        }
        if (!(hz >= 0) || Double.isInfinite(hz)) {
            throw new IllegalArgumentException("cannot run at " + hz + " ticks per second; give a rate above 0, or 0 "
                    + "to run as fast as possible");
        }
        long period = hz > 0 ? (long) (1e9 / hz) : 0;
        boolean outer = running; // a run() from a listener of another keeps the outer one's mark
        running = true;
        try {
            runLoop(ticks, period, afterTick); // a stop() asked before this run makes it return at once
        } finally {
            if (!outer) {
                stopRequested = false; // the outermost run takes the request: one stop ends one run
            }
            running = outer;
        }
    }

    private void runLoop(long ticks, long period, TickListener afterTick) {
        long next = System.nanoTime();
        for (long n = 0; (ticks == 0 || n < ticks) && !stopRequested; n++) {
            long start = System.nanoTime();
            long t = tickUnlessClosed();
            if (t < 0) {
                return; // closed from another thread (or a hook) meanwhile: the run ends as if stopped
            }
            if (afterTick != null) {
                try {
                    afterTick.ticked(t, System.nanoTime() - start);
                } catch (RuntimeException | Error e) {
                    if (!(e instanceof VirtualMachineError)) {
                        stoppedBy = StopCause.afterTick(t, published.nextTick(), e);
                    }
                    throw e;
                }
            }
            if (period > 0) {
                next += period;
                long now = System.nanoTime();
                if (next > now) {
                    IdleStrategy.idleUntil(next);
                } else {
                    next = now;
                }
            }
        }
    }

    /**
     * Asks {@link #run} to return after the tick in progress; with no run in progress, the
     * next {@code run()} returns at once, before its first tick. The run that returns takes
     * the request, so one stop ends one run and a later {@code run()} ticks again. Any thread:
     * the request is a volatile write that the run reads before each tick, so a stop asked
     * on another thread before that thread's {@code run(0, hz)} has started is not lost (that
     * run does not start ticking). {@link #close()} also ends a run in progress after its tick
     * and refuses one not yet started.
     *
     * @throws IllegalStateException while a {@code WorldHost} holds this simulation and no
     *     {@code run()} is in progress (the host ticks it without one, so there is nothing to
     *     stop): the message names the fix, {@code hostedWorld.remove()}. A {@code run()}
     *     started inside {@code hostedWorld.call} is stopped as any other.
     */
    public void stop() {
        if (!running) {
            host.checkNotHostedToStop();
        }
        stopRequested = true;
    }

    /** Receives each tick's number and wall time from {@link #run}. */
    @FunctionalInterface
    public interface TickListener {
        /**
         * Tick {@code tick} ran in {@code nanos} nanoseconds.
         *
         * @param tick the number of the tick that ran
         * @param nanos the tick's wall time, in nanoseconds
         */
        void ticked(long tick, long nanos);
    }

    /**
     * The whole simulation state as a snapshot: the world (with each system's last-run tick, by
     * name), the next tick's number, the seed, the names of the schedule's systems (a restore
     * checks them against its own), the scheduler's flow state (event channels with their readers' positions, state
     * machines, fixed steps) and every resource put with a codec. The clock, inputs and random
     * source are rebuilt from tick and seed; other resources put without a codec are
     * configuration that the code building the simulation puts again. That holds for one a
     * system writes or reduces into too, without a word (right for one rebuilt every tick, a
     * spatial grid or a count reset each tick): a resource a system keeps state in across
     * ticks needs a codec, or a restored run diverges; orrery-testkit's {@code DeterminismCheck}
     * names such resources when its restored run differs.
     *
     * @return a new array holding the snapshot; restore it with {@link #restore} into a simulation
     *     built the same way, with the same seed
     * @throws SnapshotException naming a reference component without a codec, or an event
     *     channel whose events need a codec ({@link SimulationBuilder#events})
     * @throws IllegalStateException after {@link #close()}, on a thread other than the tick
     *     thread while that thread is alive (naming both: call it on the tick thread between
     *     ticks, or after a thread that lives on has stopped ticking, {@link #bindTickThread()}
     *     first; a tick thread that has terminated, joined say, is taken over by this call's
     *     thread, as {@code bindTickThread()} would), before the first tick while another
     *     thread is in a snapshot or restore (naming it), or while a tick's schedule runs (from
     *     a system, a run condition or an observer hook: the world is part-way through the tick)
     */
    public byte[] snapshot() {
        host.check("Simulation.snapshot()");
        requireOpen();
        TickOwner.Call call = owner.begin("Simulation.snapshot()"); // refused on another than the tick thread
        try {
            return snapshotOnTickThread();
        } finally {
            owner.end(call);
        }
    }

    private byte[] snapshotOnTickThread() {
        requireBetweenTicks("Simulation.snapshot()");
        if (!unsnapshotted.isEmpty()) {
            throw new SnapshotException("the snapshot would leave out flow state, and a run restored from it would "
                    + "diverge: " + String.join("; ", unsnapshotted));
        }
        Map<String, byte[]> extras = new LinkedHashMap<>();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeLong(published.nextTick());
            out.writeLong(seed);
            out.flush();
            extras.put(TICK_SECTION, bytes.toByteArray());
            extras.put(RESOURCES_SECTION, ResourceSerializer.write(resources, codecs, BUILT_INS));
            extras.put(SystemsSection.NAME, SystemsSection.write(schedule.systemNames()));
        } catch (IOException e) {
            throw new SnapshotException("writing the simulation's resources failed: " + e.getMessage(), e);
        }
        return snapshots.write(world, extras);
    }

    /**
     * Restores a snapshot taken by {@link #snapshot()} into this simulation, whose world must
     * be new (components registered, no entities) and whose seed must match (the snapshot's:
     * {@link #snapshotSeed}).
     *
     * <p>All or nothing: every section is read and checked (every length, count, index and
     * value against the bytes present and what the restored state will do with it) before the
     * world or a resource is touched, so a refused snapshot leaves the simulation new, and a
     * good one can then be restored into it. The snapshot must carry every resource this
     * simulation snapshots (those with a codec), and only those, and name the same systems as
     * this simulation's schedule: it carries each system's state by name (its last-run tick,
     * which {@code changed} and {@code added} filters compare against, and its position in the
     * event channels it reads), so a system renamed, added or removed since would run without
     * it. A snapshot written before snapshots named their systems restores unchecked.
     *
     * <p>Each resource with a codec gets a new object, the one its codec reads; those without
     * keep the object the building code put. A system that captured a resource object (in its
     * lambda, in a field) instead of reading it through its job ({@code job.resource(KEY)},
     * {@code job.resourceForWrite(KEY)}) or the store ({@code resources().get(KEY)}) goes on
     * with the object the restore replaced, which nothing else reads, and the restored run
     * diverges without a word; orrery-testkit's {@code DeterminismCheck} names the resource when
     * its restored run differs.
     *
     * @param snapshot bytes from {@link #snapshot()} of a simulation built the same way, with the
     *     same seed; not changed
     * @throws SnapshotException for a corrupt snapshot, another seed, or resources or systems
     *     that do not match (naming the systems each side lacks), naming the section, the byte
     *     offset and what was wrong; the simulation
     *     is then unchanged
     * @throws IllegalStateException after {@link #close()}, after the first tick, while a
     *     {@link RunRecorder} records this simulation (its start snapshot is the world before the
     *     restore: restore before {@code RunRecorder.start}), on a thread
     *     other than the tick thread once one is bound and alive (one that has terminated is
     *     taken over, as {@link #snapshot()} says), or while another thread is in a
     *     snapshot or restore before it is (as {@link #snapshot()}), or while a
     *     tick's schedule runs
     */
    public void restore(byte[] snapshot) {
        host.check("Simulation.restore()");
        requireOpen();
        TickOwner.Call call = owner.begin("Simulation.restore()"); // refused on another than the tick thread
        try {
            restoreOnTickThread(snapshot);
        } finally {
            owner.end(call);
        }
    }

    private void restoreOnTickThread(byte[] snapshot) {
        requireBetweenTicks("Simulation.restore()");
        if (recordedPolicy != null) { // the recording's start snapshot is the world before this restore
            throw new IllegalStateException("Simulation.restore() refused: a RunRecorder records this simulation, and "
                    + "its start snapshot holds the world as it was when the recorder started, so its journal's ticks "
                    + "would follow a world the recording does not hold and it could not be replayed; restore before "
                    + "RunRecorder.start (close the recorder, restore into a new simulation, then record it)");
        }
        if (published.nextTick() != 0) {
            String hosted = host.hostedAs(); // inside hostedWorld.call: say how to swap a loaded world in
            throw new IllegalStateException("Simulation.restore() refused: " + (hosted == null ? "this simulation"
                    : hosted + " on a WorldHost") + " is at tick " + published.nextTick() + ", past its start; restore "
                    + "a snapshot before the first tick, into a new simulation (built like the one that wrote it)"
                    + (hosted == null ? "" : ", then put it in the world's place: hostedWorld.remove().join(), then "
                    + "host.add(name, restored, hz)"));
        }
        // Parse every section before the world is touched, so a bad snapshot changes nothing.
        Map<String, byte[]> extras = snapshots.readExtras(snapshot);
        long[] tickAndSeed = tickAndSeed(extras);
        long restoredTick = tickAndSeed[0];
        if (tickAndSeed[1] != seed) {
            throw SnapshotInput.of(TICK_SECTION, extras.get(TICK_SECTION)).refuseAt(8, "the snapshot was taken with "
                    + "seed " + tickAndSeed[1] + " but this simulation has seed " + seed + "; build the simulation "
                    + "with the recorded seed (Simulation.snapshotSeed reads it)");
        }
        SystemsSection.check(extras.get(SystemsSection.NAME), schedule.systemNames()); // their state is by name
        Map<ResourceKey<?>, Object> restored = ResourceSerializer.read(RESOURCES_SECTION, extras.get(RESOURCES_SECTION),
                resources, codecs, BUILT_INS);
        snapshots.read(snapshot, world);
        ResourceSerializer.putAll(restored, resources);
        published.nextTick(restoredTick);
        clock.set(restoredTick);
    }

    /**
     * The seed a snapshot taken by {@link #snapshot()} was taken with, read without restoring
     * it and without a simulation: {@link #restore} refuses a snapshot of another seed, so a
     * tool that builds the simulation for a snapshot (a replay reading its parameters from a
     * file of its own, say) can check or take the seed first, and name the fix in its own
     * terms. Reads the snapshot's frame and checksum and its tick section only; the world and
     * resource sections are checked by {@code restore}.
     *
     * <p><b>Threading:</b> static and stateless; any thread.
     *
     * @param snapshot bytes from {@link #snapshot()}, not null
     * @return the seed to build the restoring simulation with
     * @throws SnapshotException for a truncated or corrupt snapshot, or one with no simulation
     *     sections (written by {@code WorldSnapshot}, not {@link #snapshot()}), naming the
     *     section, the offset and what was wrong
     */
    public static long snapshotSeed(byte[] snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        return tickAndSeed(new WorldSnapshot().readExtras(snapshot))[1];
    }

    /** The next tick and the seed of a snapshot's simulation sections, checked (the seed against nothing). */
    private static long[] tickAndSeed(Map<String, byte[]> extras) {
        byte[] tickSection = extras.get(TICK_SECTION);
        if (tickSection == null || extras.get(RESOURCES_SECTION) == null) {
            throw new SnapshotException("snapshot has no simulation sections (" + TICK_SECTION + ", " + RESOURCES_SECTION
                    + "); it was written by WorldSnapshot, not Simulation.snapshot()");
        }
        SnapshotInput in = SnapshotInput.of(TICK_SECTION, tickSection);
        try {
            long tick = in.readLong();
            if (tick < 0 || tick == Long.MAX_VALUE) {
                throw in.corruptAt(0, "the next tick is " + tick + "; ticks count from 0 and a run needs a next one");
            }
            long seed = in.readLong();
            in.requireEnd();
            return new long[] {tick, seed};
        } catch (IOException e) {
            throw new SnapshotException(e.getMessage(), e); // the input's own: names the section and the offset
        }
    }

    /**
     * Stops the worker threads and the watchdog; the simulation cannot run again, and a
     * second close does nothing. Afterwards a watchdog or an end-of-tick hook is refused, and
     * the other setters are taken (see the class for why).
     *
     * <p><b>Threading:</b> any thread, and never under a tick. On the tick thread between
     * ticks (after {@code tick()} or {@code run()} returns) it stops them at once. From inside
     * a tick (an end-of-tick hook, a system) it marks the simulation closed and returns; the
     * workers stop when that tick ends, and a {@link #run} in progress returns after it. From
     * another thread (a server's shutdown hook) while a tick runs, it marks the simulation
     * closed, so no tick starts after it (a {@link #run} in progress returns normally after
     * the tick, a {@link #tick()} is refused naming the closing thread), and waits for the tick
     * in progress to end, up to 10 seconds, then stops the workers; once it returns normally,
     * no tick runs and none will. A tick that does not end in time (one that hangs), or an
     * interrupt of the wait, makes it throw instead of waiting on for good: the simulation
     * stays closed and the tick thread stops the workers when its tick returns. To shut down
     * without the wait, {@link #stop()} the run and close on the tick thread after
     * {@code run()} returns.
     *
     * @throws IllegalStateException while a {@code WorldHost} holds the simulation (take it off
     *     first), or when the tick in progress on another thread did not end within the 10
     *     seconds (naming both threads and the tick; the workers then stop when it ends)
     */
    @Override
    public void close() {
        host.check("Simulation.close()");
        // inside hostedWorld.call too: the host would tick it next
        host.checkNotHosted("Simulation.close()", "which would tick it again and fail on the closed simulation",
                "take it off the host first with hostedWorld.remove().join() and close what that returns "
                + "(WorldHost.close() closes the simulations it still holds)");
        closing.close();
    }

    /** Stops the watchdog and the workers: once, by {@link Closing}, when no tick runs. */
    private void release() {
        try {
            if (watchdog != null) {
                watchdog.close();
            }
            executor.close();
        } finally {
            WorldClaims.release(world, this); // no tick runs now: another simulation may drive the world
        }
    }

    /** An input source that hands out an empty batch every tick. */
    private static final class NoInputs implements InputSource {
        private final InputBatch empty = new InputBatch();

        @Override
        public InputBatch beginTick(long tick) {
            empty.reset(tick);
            return empty;
        }

        @Override
        public void recordHash(long tick, long stateHash) {
        }
    }
}
