package dev.orrery.scheduler.executor;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.UndeclaredAccessException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.ecs.storage.JobsRunning;
import dev.orrery.ecs.structure.EntityRows;
import dev.orrery.ecs.structure.ProvisionalRefs;
import dev.orrery.scheduler.ChunkSystem;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.UndeclaredEventAccessException;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
import dev.orrery.scheduler.check.CheckedMode;
import dev.orrery.scheduler.check.ReadOnlyColumns;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.internal.SchedulerInternals;

/**
 * One worker's {@link JobContext}, and the code that runs a job on that worker: binds the
 * worker's chunk view to each chunk, sets its command buffer's sort key and binds it the
 * system's declared structural effects (so an undeclared command is refused), checks by-id access
 * against the running system's declaration ({@link ByIdAccess} does the look-ups) and, in
 * {@link CheckedMode}, fingerprints the columns the system declared read-only around each job.
 *
 * <p><b>Threading:</b> used only by the thread it is {@link #bindOwner bound} to (worker 0:
 * the executor's owner thread; worker {@code i}: that worker's thread), which is also the
 * owner of its command buffer.
 */
final class WorkerContext implements JobContext {
    /** A static final, so with checked mode off the JIT drops every check below. */
    private static final boolean CHECKED = CheckedMode.ENABLED;
    private static final java.lang.invoke.VarHandle IN_JOB;

    static {
        try {
            IN_JOB = java.lang.invoke.MethodHandles.lookup().findVarHandle(WorkerContext.class, "inJob", Job.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int workerId;
    private final World world;
    // The world's jobs-running marker, told which system's job runs on this thread (named when a job iterates a query).
    private final JobsRunning jobsRunning;
    private final Resources resources;
    private final ChunkView[] views;
    private final CommandBuffer commands;
    /** Fingerprints of the running system's read-only columns before the job (checked mode). */
    private final long[] readOnlyBefore;
    private SystemRun running;
    /** The job running now, a chunk pipeline member's too (a release store per job), for a deadline's report; else null. */
    @SuppressWarnings("unused") // through IN_JOB
    private Job inJob;
    private int chunkOrdinal = -1;
    /** The ordinal events are keyed by: the chunk ordinal, or a range job's ordinal. */
    private int eventOrdinal;
    private ChunkView current;
    /** By-id access, with the last look-up remembered for the rest of the job. */
    private final ByIdAccess byId;
    JobObserver observer;
    /** Removal-log windows by column id, made on first use by this worker. */
    private RemovedEntities[] removedWindows = new RemovedEntities[0];
    /** Finish mode ({@link ScheduleExecutor#finishPhaseOnFailure}); set between runs, published by the job hand-off. */
    boolean finishChunksOnFailure;

    WorkerContext(int workerId, ExecutionPlan plan) {
        this.workerId = workerId;
        if (workerId > 255) {
            throw new IllegalArgumentException("at most 256 workers: worker " + workerId
                    + " would need command buffer id " + workerId + " (0..255)");
        }
        this.world = plan.world();
        this.jobsRunning = EcsInternals.storage(world).jobsRunning();
        this.resources = plan.resources();
        this.commands = new CommandBuffer(workerId);
        this.byId = new ByIdAccess(world);
        this.views = new ChunkView[plan.size()];
        int maxReadOnly = 0;
        for (int i = 0; i < views.length; i++) {
            views[i] = EcsInternals.newChunkView(plan.system(i).declaration().access(), EcsInternals.storage(world).sparse());
            maxReadOnly = Math.max(maxReadOnly, plan.system(i).declaration().access().reads().size());
        }
        this.readOnlyBefore = new long[maxReadOnly];
    }

    /** Binds this context, and so its command buffer, to the thread that runs its jobs. */
    void bindOwner(Thread thread) {
        commands.bindOwner(thread);
    }

    @Override
    public int workerId() {
        return workerId;
    }

    @Override
    public int systemIndex() {
        return running == null ? -1 : running.position;
    }

    @Override
    public String systemName() {
        return running == null ? null : running.name;
    }

    @Override
    public int chunkOrdinal() {
        return chunkOrdinal;
    }

    @Override
    public CommandBuffer commands() {
        return commands;
    }

    CommandBuffer buffer() {
        return commands;
    }

    @Override
    public ChunkView chunk() {
        return current;
    }

    /**
     * Runs {@code job} through its system's body, then, in a chunk pipeline, each
     * {@link Job#fused} job after it over the same chunks (unless one failed and failures stop
     * the phase); records each failure in its job instead of throwing.
     */
    void run(Job job) {
        try {
            for (Job j = job;;) {
                IN_JOB.setRelease(this, j);
                runOne(j);
                Job n = j.fused;
                if (n == null || j.failure != null && !finishChunksOnFailure) {
                    return;
                }
                j = n;
            }
        } finally {
            IN_JOB.setRelease(this, (Job) null);
        }
    }

    /**
     * The job {@link #run} runs now, one of a chunk pipeline's members included, or null
     * (read by the calling thread at a deadline; may be a moment stale).
     */
    Job runningJob() {
        return (Job) IN_JOB.getAcquire(this);
    }

    /** Runs one job of one system. */
    private void runOne(Job job) {
        SystemRun r = job.run;
        running = r;
        jobsRunning.jobStarts(r.name);
        byId.forget(); // rows may have moved at a sync point since the last job
        if (CHECKED) {
            CheckedMode.enterJob(r.access);
        }
        EcsInternals.declareEffects(commands, r.access.effects()); // built once per system: no allocation here
        try {
            if (r.rangeBody != null || r.walk != null) {
                runRange(job, r);
            } else {
                runChunks(job, r);
            }
        } finally {
            if (CHECKED) {
                CheckedMode.exitJob();
            }
            EcsInternals.declareEffects(commands, null); // unchecked again between jobs: nothing carries over to the next system
            running = null;
            jobsRunning.jobEnds();
        }
    }

    private void runChunks(Job job, SystemRun r) {
        ChunkSystem body = r.body;
        Chunk[] chunks = r.chunks;
        ChunkView view = views[r.position];
        EcsInternals.changeTicks(view, r.tick, r.since);
        current = view;
        int k = job.from;
        JobObserver obs = observer;
        long start = obs != null ? started(obs, r.position, job.from, job.to) : 0L;
        try {
            if (CHECKED) {
                ReadOnlyColumns.fingerprintAll(r.readOnly, r.chunks, job.from, job.to, readOnlyBefore);
            }
            for (int end = job.to; k < end; k++) {
                chunkOrdinal = k;
                key(r.position, k);
                EcsInternals.bind(view, chunks[k]);
                byId.current = chunks[k];
                if (finishChunksOnFailure) {
                    runChunkRecordingFailure(body, job, k);
                } else {
                    body.run(this);
                }
            }
            if (CHECKED) {
                k = -1; // a change found now belongs to the job, not to one chunk
                Component<?> written = ReadOnlyColumns.firstChanged(r.readOnly, r.chunks, job.from, job.to,
                        readOnlyBefore);
                if (written != null) { // written through an array a read accessor returned
                    throw new UndeclaredAccessException(r.name, written, true);
                }
            }
        } catch (Throwable t) {
            job.fail(t, k, workerId);
        } finally {
            EcsInternals.bind(view, null);
            current = null;
            byId.current = null;
            chunkOrdinal = -1;
            if (obs != null) {
                obs.jobRan(workerId, r.position, job.from, job.to, start, System.nanoTime());
            }
        }
    }

    /** Tells {@code obs} a job starts; returns its start time. */
    private long started(JobObserver obs, int system, int from, int to) {
        long now = System.nanoTime();
        obs.jobStarted(workerId, system, from, to, now);
        return now;
    }

    /** Finish mode: a chunk that throws records the job's first failure and the job goes on with its next chunk. */
    private void runChunkRecordingFailure(ChunkSystem body, Job job, int k) {
        try {
            body.run(this);
        } catch (Throwable t) {
            if (job.failure == null) {
                job.fail(t, k, workerId);
            }
        }
    }

    /**
     * Runs a range system's job over indices {@code [from, to)} (a level system's over slots,
     * see {@link LevelWalk#run}), or records the failure of its count (such a run has one
     * empty job, run inline). Its commands are keyed by the job's ordinal (a level system's by
     * slot): the jobs cover ascending ranges in ordinal order, so playback applies them in
     * index order however many jobs the indices were split into.
     */
    private void runRange(Job job, SystemRun r) {
        if (r.countFailure != null) { // the count threw or was negative: no indices to run
            job.fail(r.countFailure, -1, workerId);
            return;
        }
        JobObserver obs = observer;
        long start = obs != null ? started(obs, r.position, job.from, job.to) : 0L;
        try {
            if (r.walk != null) {
                r.walk.run(this, r.position, job);
            } else if (job.from < job.to) {
                key(r.position, job.ordinal);
                r.rangeBody.run(this, job.from, job.to);
            }
        } catch (Throwable t) {
            job.fail(t, job.from, workerId);
        } finally {
            if (obs != null) {
                obs.jobRan(workerId, r.position, job.from, job.to, start, System.nanoTime());
            }
        }
    }

    /** Keys the commands and events recorded next by (system {@code position}, {@code ordinal}, sequence). */
    void key(int position, int ordinal) {
        eventOrdinal = ordinal;
        EcsInternals.beginChunk(commands, position, ordinal);
    }

    /**
     * Runs an exclusive system's body on this (the calling) thread, with this context as its
     * job (its events, resources and commands, checked against its declaration), reporting it
     * to the observer.
     */
    void runExclusive(SystemRun r) {
        JobObserver obs = observer;
        long start = obs != null ? started(obs, r.position, -1, -1) : 0L;
        running = r;
        key(r.position, 0);
        EcsInternals.declareEffects(commands, null); // it may change the world directly, so commands go unchecked
        if (CHECKED) {
            CheckedMode.enterJob(r.access);
        }
        try {
            r.system.exclusiveBody().run(world, this);
        } finally {
            if (CHECKED) {
                CheckedMode.exitJob();
            }
            running = null;
            if (obs != null) {
                obs.jobRan(workerId, r.position, -1, -1, start, System.nanoTime());
            }
        }
    }

    // ---------------------------------------------------------------- resources

    @Override
    public <T> T resource(ResourceKey<T> key) {
        SystemRun r = runningSystem();
        if (!r.access.canReadResource(key)) {
            throw new UndeclaredResourceAccessException(r.name, key, false);
        }
        return resources.value(key);
    }

    @Override
    public <T> T resourceForWrite(ResourceKey<T> key) {
        SystemRun r = runningSystem();
        if (!r.access.canWriteResource(key)) {
            throw new UndeclaredResourceAccessException(r.name, key, true);
        }
        return resources.value(key);
    }

    @Override
    public void add(ResourceKey<LongSum> key, long amount) {
        SystemRun r = runningSystem();
        if (!r.access.canReduceResource(key)) {
            throw SchedulerInternals.reductionRefused(r.name, key);
        }
        SchedulerInternals.addDeclared(resources.value(key), workerId, amount); // checked above: not again in LongSum
    }

    // ---------------------------------------------------------------- events

    @Override
    public <T> void send(EventKey<T> key, T event) {
        SystemRun r = runningSystem();
        EventChannel<T> channel = r.writeChannel(key);
        if (channel == null) {
            throw new UndeclaredEventAccessException(r.name, key, true);
        }
        channel.record(workerId, r.position, eventOrdinal, event);
    }

    @Override
    public <T> EventReader<T> events(EventKey<T> key) {
        SystemRun r = runningSystem();
        EventReader<T> reader = r.reader(key);
        if (reader == null) {
            throw new UndeclaredEventAccessException(r.name, key, false);
        }
        return reader;
    }

    private SystemRun runningSystem() {
        SystemRun r = running;
        if (r == null) {
            throw new IllegalStateException("a JobContext was used outside its job; use it only inside the body "
                    + "call it was passed to");
        }
        return r;
    }

    // ---------------------------------------------------------------- change detection

    @Override
    public RemovedEntities removed(Component<?> column) {
        SystemRun r = runningSystem();
        if (!r.access.canRead(column)) {
            throw new UndeclaredAccessException(r.name, column, false);
        }
        int id = column.id();
        if (id >= removedWindows.length) {
            removedWindows = java.util.Arrays.copyOf(removedWindows, Math.max(id + 1, removedWindows.length * 2));
        }
        RemovedEntities w = removedWindows[id];
        if (w == null) {
            w = EcsInternals.removed(world, column); // once per worker and column: a warm job allocates nothing
            removedWindows[id] = w;
        }
        return w.since(r.since);
    }

    @Override
    public long lastRunTick() {
        return runningSystem().since;
    }

    // ---------------------------------------------------------------- by-id access

    @Override
    public <T> T get(long entity, Component<T> column) {
        Object[] arrays = byId.arrays(runningSystem(), entity, column, false);
        return column.type().read(arrays, byId.row());
    }

    @Override
    public boolean has(long entity, Component<?> column) {
        return byId.has(runningSystem(), entity, column);
    }

    @Override
    public <T> void set(long entity, Component<T> column, T value) {
        if (value == null) {
            throw EntityRows.nullValue("job.set", column);
        }
        if (!column.type().javaClass().isInstance(value)) {
            throw new IllegalArgumentException("value " + value + " given for component " + column + " of type "
                    + column.type().javaClass().getName());
        }
        ProvisionalRefs.refuse(column, value);
        Object[] arrays = byId.arrays(runningSystem(), entity, column, true);
        column.type().write(value, arrays, byId.row());
    }

    @Override
    public float getFloat(long entity, Field field) {
        return Float.intBitsToFloat((int) byId.readBits(runningSystem(), entity, field, FieldType.FLOAT));
    }

    @Override
    public void setFloat(long entity, Field field, float value) {
        byId.writeBits(runningSystem(), entity, field, FieldType.FLOAT, Float.floatToRawIntBits(value));
    }

    @Override
    public int getInt(long entity, Field field) {
        return (int) byId.readBits(runningSystem(), entity, field, FieldType.INT);
    }

    @Override
    public void setInt(long entity, Field field, int value) {
        byId.writeBits(runningSystem(), entity, field, FieldType.INT, value);
    }

    @Override
    public long getLong(long entity, Field field) {
        return byId.readBits(runningSystem(), entity, field, FieldType.LONG);
    }

    @Override
    public void setLong(long entity, Field field, long value) {
        byId.writeBits(runningSystem(), entity, field, FieldType.LONG, value);
    }

    @Override
    public double getDouble(long entity, Field field) {
        return Double.longBitsToDouble(byId.readBits(runningSystem(), entity, field, FieldType.DOUBLE));
    }

    @Override
    public void setDouble(long entity, Field field, double value) {
        byId.writeBits(runningSystem(), entity, field, FieldType.DOUBLE, Double.doubleToRawLongBits(value));
    }
}
