package dev.orrery.engine.tick;

import dev.orrery.ecs.World;
import dev.orrery.ecs.snapshot.ReferenceCodec;
import dev.orrery.ecs.snapshot.SnapshotException;
import dev.orrery.ecs.snapshot.WorldSnapshot;
import dev.orrery.engine.input.InputBatch;
import dev.orrery.engine.input.InputSource;
import dev.orrery.engine.random.CounterRandom;
import dev.orrery.engine.trace.ChromeTrace;
import dev.orrery.engine.resource.ResourceCodec;
import dev.orrery.engine.resource.ResourceSerializer;
import dev.orrery.engine.resource.Resources;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.access.ResourceKey;
import dev.orrery.scheduler.executor.PlaybackTotals;
import dev.orrery.scheduler.executor.ScheduleExecutor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import jdk.jfr.FlightRecorder;

/**
 * A running simulation: a world, its schedule of systems and their executor, resources,
 * a seed and an input source, advanced one fixed time step per {@link #tick()}.
 *
 * <pre>{@code
 * Simulation sim = Simulation.builder(world).seed(42).workers(4)
 *     .systems(s -> s.system("move").query(moving).reads(vel).writes(pos)
 *         .readsResource(Simulation.CLOCK).forEachChunk(job -> { ... }))
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
 * <p><b>Threading:</b> build, tick, run, snapshot and close on one thread, the tick
 * thread; {@link #stop()} may be called from any thread.
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
    private final Clock clock;
    private final long seed;
    private final int workers;
    private final int hashEvery;
    private final WorldSnapshot snapshots;
    private InputSource inputs;
    private HashListener hashListener;
    private ChromeTrace trace;
    private final boolean jfrJobEvents;
    private long tick;
    private long lastHash;
    private volatile boolean stopRequested;

    private Simulation(Builder b) {
        this.world = b.world;
        this.seed = b.seed;
        this.workers = b.workers;
        this.hashEvery = b.hashEvery;
        this.resources = b.resources;
        this.clock = new Clock(b.stepSeconds);
        this.snapshots = b.snapshots;
        this.inputs = b.inputs != null ? b.inputs : new NoInputs();
        resources.put(CLOCK, clock);
        resources.put(RANDOM, new CounterRandom(seed));
        resources.put(INPUTS, new InputBatch());
        Schedule.Builder sb = Schedule.builder(world);
        b.systems.accept(sb);
        this.schedule = sb.build();
        this.executor = schedule.executor(workers);
        this.jfrJobEvents = b.jfrJobEvents;
        if (jfrJobEvents) {
            observeJobs();
        }
    }

    /** Starts building a simulation over {@code world}. */
    public static Builder builder(World world) {
        return new Builder(world);
    }

    /** The world. */
    public World world() {
        return world;
    }

    /** The resources. */
    public Resources resources() {
        return resources;
    }

    /** The schedule (print it with {@code schedule().toDot()}). */
    public Schedule schedule() {
        return schedule;
    }

    /** The seed. */
    public long seed() {
        return seed;
    }

    /** Worker threads in all, counting the tick thread. */
    public int workers() {
        return workers;
    }

    /** The number of the next tick to run (ticks run so far, after a restore: plus the restored tick). */
    public long currentTick() {
        return tick;
    }

    /** The clock resource. */
    public Clock clock() {
        return clock;
    }

    /** Replaces the input source (for example with a journal during replay); call between ticks. */
    public void inputs(InputSource source) {
        this.inputs = Objects.requireNonNull(source, "input source");
    }

    /**
     * Records every job and tick into {@code trace} from the next tick on ({@code null}
     * stops); call between ticks. Build it with {@link #newTrace(int)}.
     */
    public void trace(ChromeTrace trace) {
        this.trace = trace;
        observeJobs();
    }

    private void observeJobs() {
        ChromeTrace t = trace;
        if (!jfrJobEvents) {
            executor.observe(t);
            return;
        }
        String[] names = new String[schedule.graph().size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = schedule.graph().system(i).name();
        }
        executor.observe((worker, system, from, to, start, end) -> {
            if (t != null) {
                t.jobRan(worker, system, from, to, start, end);
            }
            JobEvent e = new JobEvent();
            if (e.shouldCommit()) {
                e.system = names[system];
                e.worker = worker;
                e.firstChunk = from;
                e.nanos = end - start;
                e.commit();
            }
        });
    }

    /** A trace sized for this simulation's workers, keeping up to {@code eventsPerWorker} jobs each. */
    public ChromeTrace newTrace(int eventsPerWorker) {
        return new ChromeTrace(schedule.plan(), workers, eventsPerWorker);
    }

    /** Totals of the structural changes applied from command buffers so far. */
    public PlaybackTotals commandTotals() {
        return executor.commandTotals();
    }

    /** Called on every hashed tick, before the input source sees the hash (recorders log more detail here). */
    public void hashListener(HashListener listener) {
        this.hashListener = listener;
    }

    /** Receives each hashed tick. */
    @FunctionalInterface
    public interface HashListener {
        /** Tick {@code tick} ran and left {@code world} with state hash {@code hash}. */
        void hashed(long tick, long hash, World world);
    }

    /** The state hash computed by the last hashed tick (0 before one). */
    public long lastHash() {
        return lastHash;
    }

    /**
     * Runs one fixed time step.
     *
     * @return the number of the tick that ran
     * @throws dev.orrery.scheduler.executor.SystemFailedException if a system threw; the
     *     tick's structural changes are discarded and the world stays consistent
     */
    public long tick() {
        long t = tick;
        long started = System.nanoTime();
        TickEvent event = new TickEvent();
        event.begin();
        clock.set(t);
        InputBatch batch = inputs.beginTick(t);
        resources.put(INPUTS, batch);
        executor.run();
        tick = t + 1;
        if (hashEvery > 0 && t % hashEvery == 0) {
            lastHash = world.stateHash();
            if (hashListener != null) {
                hashListener.hashed(t, lastHash, world);
            }
            inputs.recordHash(t, lastHash);
        }
        if (trace != null) {
            trace.tickRan(t, started, System.nanoTime());
        }
        if (event.shouldCommit()) {
            event.tick = t;
            event.inputs = batch.size();
            event.entities = world.entityCount();
            event.commit();
        }
        return t;
    }

    /**
     * Runs {@code ticks} ticks (0: until {@link #stop()}) at {@code hz} ticks per second (0:
     * as fast as possible), parking between ticks when ahead (see {@link IdleStrategy}).
     * When a tick overruns, the next starts at once and the schedule is not made up.
     *
     * @param afterTick called after each tick with its number (progress, metrics); may be null
     */
    public void run(long ticks, double hz, TickListener afterTick) {
        long period = hz > 0 ? (long) (1e9 / hz) : 0;
        long next = System.nanoTime();
        stopRequested = false;
        for (long n = 0; (ticks == 0 || n < ticks) && !stopRequested; n++) {
            long start = System.nanoTime();
            long t = tick();
            if (afterTick != null) {
                afterTick.ticked(t, System.nanoTime() - start);
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

    /** Asks {@link #run} to return after the tick in progress. Any thread. */
    public void stop() {
        stopRequested = true;
    }

    /** Receives each tick's number and wall time from {@link #run}. */
    @FunctionalInterface
    public interface TickListener {
        /** Tick {@code tick} ran in {@code nanos} nanoseconds. */
        void ticked(long tick, long nanos);
    }

    /**
     * The whole simulation state as a snapshot: the world, the next tick's number, the seed
     * and every resource put with a codec. The clock, inputs and random source are rebuilt
     * from tick and seed; resources put without a codec are configuration that the code
     * building the simulation puts again.
     *
     * @throws SnapshotException naming a reference component without a codec
     */
    public byte[] snapshot() {
        Map<String, byte[]> extras = new LinkedHashMap<>();
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeLong(tick);
            out.writeLong(seed);
            out.flush();
            extras.put(TICK_SECTION, bytes.toByteArray());
            extras.put(RESOURCES_SECTION, ResourceSerializer.write(resources, BUILT_INS));
        } catch (IOException e) {
            throw new SnapshotException("writing the simulation's resources failed: " + e.getMessage(), e);
        }
        return snapshots.write(world, extras);
    }

    /**
     * Restores a snapshot taken by {@link #snapshot()} into this simulation, whose world must
     * be new (components registered, no entities) and whose seed must match.
     *
     * @throws SnapshotException for a corrupt snapshot, another seed, or resources that do
     *     not match; the simulation is then unchanged
     */
    public void restore(byte[] snapshot) {
        if (tick != 0) {
            throw new IllegalStateException("restore a snapshot before the first tick, into a new simulation");
        }
        // Parse every section before the world is touched, so a bad snapshot changes nothing.
        Map<String, byte[]> extras = snapshots.readExtras(snapshot);
        byte[] tickSection = extras.get(TICK_SECTION);
        byte[] resSection = extras.get(RESOURCES_SECTION);
        if (tickSection == null || resSection == null) {
            throw new SnapshotException("snapshot has no simulation sections (" + TICK_SECTION + ", " + RESOURCES_SECTION
                    + "); it was written by WorldSnapshot, not Simulation.snapshot()");
        }
        long restoredTick;
        Map<ResourceKey<?>, Object> restored;
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(tickSection));
            restoredTick = in.readLong();
            long restoredSeed = in.readLong();
            if (restoredSeed != seed) {
                throw new SnapshotException("snapshot was taken with seed " + restoredSeed + " but this simulation has "
                        + "seed " + seed + "; build the simulation with the recorded seed");
            }
            restored = ResourceSerializer.read(resSection, resources);
        } catch (IOException e) {
            throw new SnapshotException("simulation sections of the snapshot are unreadable: " + e.getMessage(), e);
        }
        snapshots.read(snapshot, world);
        ResourceSerializer.putAll(restored, resources);
        tick = restoredTick;
        clock.set(restoredTick);
    }

    /** Stops the worker threads. */
    @Override
    public void close() {
        executor.close();
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

    /**
     * Collects a simulation's parts. Required: the world and the systems.
     *
     * <p><b>Threading:</b> use on one thread.
     */
    public static final class Builder {
        private final World world;
        private long seed;
        private int workers = 1;
        private double stepSeconds = 1.0 / 60.0;
        private int hashEvery = 1;
        private InputSource inputs;
        private Consumer<Schedule.Builder> systems = s -> { };
        private final Resources resources = new Resources();
        private final WorldSnapshot snapshots = new WorldSnapshot();
        private boolean jfrJobEvents = FlightRecorder.isInitialized();

        private Builder(World world) {
            this.world = Objects.requireNonNull(world, "world");
        }

        /** The seed of the random source (default 0). */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Worker threads in all, counting the tick thread (default 1: everything on the tick thread). */
        public Builder workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be at least 1, got " + workers);
            }
            this.workers = workers;
            return this;
        }

        /** The fixed time step in seconds (default 1/60). */
        public Builder stepSeconds(double seconds) {
            new Clock(seconds); // validates
            this.stepSeconds = seconds;
            return this;
        }

        /** Hash the state every {@code n} ticks and hand it to the input source (0: never; default 1). */
        public Builder hashEvery(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("hashEvery must be 0 (never) or positive, got " + n);
            }
            this.hashEvery = n;
            return this;
        }

        /** Where inputs come from (default: none). */
        public Builder inputs(InputSource source) {
            this.inputs = source;
            return this;
        }

        /** Declares the systems on the schedule builder. */
        public Builder systems(Consumer<Schedule.Builder> declare) {
            this.systems = Objects.requireNonNull(declare, "systems");
            return this;
        }

        /**
         * The simulation's resource store, so system bodies declared in {@link #systems} can
         * capture it and read {@link Simulation#CLOCK}, {@link Simulation#INPUTS},
         * {@link Simulation#RANDOM} and their own resources at run time.
         */
        public Resources resources() {
            return resources;
        }

        /** Puts a resource that snapshots leave out (configuration rebuilt at start-up). */
        public <T> Builder resource(ResourceKey<T> key, T value) {
            resources.put(key, value);
            return this;
        }

        /** Puts a resource that snapshots carry through {@code codec}. */
        public <T> Builder resource(ResourceKey<T> key, T value, ResourceCodec<T> codec) {
            resources.put(key, value);
            resources.codec(key, codec);
            return this;
        }

        /** Registers the snapshot codec of a reference component type. */
        public <T> Builder referenceCodec(Class<T> type, ReferenceCodec<T> codec) {
            snapshots.codec(type, codec);
            return this;
        }

        /**
         * Whether to emit a {@link JobEvent} per job (default: on when a flight recording was
         * already started when the builder was made, e.g. by {@code -XX:StartFlightRecording}).
         * Tick and sync-point events are always emitted while a recording enables them.
         */
        public Builder jfrJobEvents(boolean on) {
            this.jfrJobEvents = on;
            return this;
        }

        /** Builds the simulation and starts its worker threads. */
        public Simulation build() {
            return new Simulation(this);
        }
    }
}
