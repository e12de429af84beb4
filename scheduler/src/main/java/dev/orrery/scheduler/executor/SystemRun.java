package dev.orrery.scheduler.executor;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.ChunkSystem;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.RangeSystem;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.access.SystemAccess;
import dev.orrery.scheduler.event.ChannelReader;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.Arrays;
import java.util.List;

/**
 * The run-time state of one system inside one executor (the last of a system's three
 * stages: {@code SystemDeclaration} for the graph, {@link ScheduledSystem} in the plan, this
 * in the executor; see the {@code dev.orrery.scheduler} package summary): its matching
 * chunks this run (or, for a range system, its index count; for a level system, its
 * hierarchy's slot count, see {@link LevelWalk}), split into jobs. A job of an ordinary
 * system covers chunk ordinals {@code [from, to)}; a job of a range system covers indices
 * {@code [from, to)}, and one of a level system slots {@code [from, to)}.
 *
 * <p><b>Threading:</b> {@link #collect} and {@link #split} run on the calling thread while
 * none of this system's jobs is out; workers only read {@link #chunks} inside the ranges of
 * the jobs handed to them.
 */
final class SystemRun {
    final int position;
    final String name;
    final ScheduledSystem system;
    final ChunkSystem body;
    final RangeSystem rangeBody;
    /** A level system's walk, else null. */
    final LevelWalk walk;
    final boolean exclusive;
    final boolean syncBefore;
    final SystemAccess access;
    /** The components declared read and not written, fingerprinted around each job in checked mode. */
    final Component<?>[] readOnly;
    final int minBatchRows;
    final Job[] jobs;
    Chunk[] chunks = new Chunk[16];
    int chunkCount;
    long rows;
    int jobsLeft;
    /** Caller only: when this system's jobs were last handed out ({@link System#nanoTime}), 0 when not split. */
    long handedOutAt;
    /** Caller only: the earliest a worker thread began one of those jobs, after {@link #handedOutAt}. */
    long firstPickup;
    /** What the range count threw (or why it was refused) in the last {@link #collect}, else null. */
    Throwable countFailure;
    /** The declared run condition, or null. */
    final RunCondition runIf;
    private final EventKey<?>[] eventWrites;
    /** The channels of {@link #eventWrites}, looked up as the system starts (a restore may replace them). */
    private final EventChannel<?>[] writeChannels;
    private final EventKey<?>[] eventReads;
    /** One reader per read channel, bound as the system starts; its jobs only read it. */
    private final ChannelReader<?>[] readers;
    /** The world whose change state keeps this system's slot (its last-run tick, kept by name). */
    private final World world;
    private final int changeSlot;
    /** The chunk pipeline this system runs in ({@code 'move' -> 'damage'}), or null; see {@link ChunkPipelines}. */
    String pipeline;
    /** In a pipeline: columns another member writes (a by-id read of another chunk's entity may not touch them). */
    Component<?>[] byIdUnsafeRead;
    /** In a pipeline: columns another member reads or writes (a by-id write of another chunk's entity may not touch them). */
    Component<?>[] byIdUnsafeWrite;
    /** This run's change tick (stamped by its writes) and its previous run's (what filters compare against). */
    long tick;
    long since;

    SystemRun(ExecutionPlan plan, int position, int maxJobs) {
        ScheduledSystem system = plan.system(position);
        this.position = position;
        this.name = system.name();
        this.system = system;
        this.body = system.body();
        this.rangeBody = system.rangeBody();
        this.walk = system.leveled() ? new LevelWalk(plan.world(), system.levelRelation(), system.levelBody()) : null;
        this.exclusive = system.declaration().exclusive();
        this.syncBefore = plan.graph().syncBefore(position); // declared or placed by the graph
        this.access = system.declaration().access();
        this.readOnly = access.reads().toArray(new Component<?>[0]);
        int forced = BatchOverride.current();
        this.minBatchRows = forced > 0 ? forced : system.minBatchRows();
        this.runIf = system.declaration().runIf();
        this.eventWrites = access.eventWrites().toArray(new EventKey<?>[0]);
        this.writeChannels = new EventChannel<?>[eventWrites.length];
        this.eventReads = access.eventReads().toArray(new EventKey<?>[0]);
        this.readers = new ChannelReader<?>[eventReads.length];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = new ChannelReader<>();
        }
        this.world = plan.world();
        this.changeSlot = EcsInternals.systemSlot(world, name);
        this.jobs = new Job[Math.max(1, maxJobs)];
        for (int i = 0; i < jobs.length; i++) {
            jobs[i] = new Job(this, i);
        }
    }

    /** Marks this system a member of chunk pipeline {@code name}; see {@link ChunkPipelines}. */
    void pipeline(String name, Component<?>[] unsafeRead, Component<?>[] unsafeWrite) {
        this.pipeline = name;
        this.byIdUnsafeRead = unsafeRead;
        this.byIdUnsafeWrite = unsafeWrite;
    }

    /**
     * Takes {@code planned} as this run's change tick (on the owner thread, as the system
     * starts; the phase loop plans it from the system's place in the phase) and records it as
     * the system's last run; {@link #since} keeps the previous one.
     */
    void beginChangeTick(long planned) {
        since = EcsInternals.lastRun(world, changeSlot);
        tick = planned;
        EcsInternals.lastRun(world, changeSlot, tick);
    }

    /**
     * Lists the non-empty matching chunks in query order (allocates only when the list
     * grows), asks a range system for its count, or takes a level system's hierarchy; a
     * count (or hierarchy) that throws or is negative is kept in {@link #countFailure}, with
     * no rows.
     */
    void collect(long changeTick) {
        chunkCount = 0;
        rows = 0;
        countFailure = null;
        beginChangeTick(changeTick);
        if (walk != null) {
            try {
                rows = walk.collect(name);
            } catch (Throwable t) {
                countFailure = t;
            }
            return;
        }
        if (rangeBody != null) {
            try {
                int n = system.rangeCount().getAsInt();
                if (n < 0) {
                    throw new IllegalStateException("range system '" + name + "' counted " + n
                            + " indices; its count must be 0 or more");
                }
                rows = n;
            } catch (Throwable t) {
                countFailure = t;
            }
            return;
        }
        Query q = system.query();
        if (q == null) {
            return;
        }
        List<Archetype> archetypes = EcsInternals.archetypes(q);
        boolean filtered = EcsInternals.hasChangeFilter(q);
        for (int a = 0, na = archetypes.size(); a < na; a++) {
            Archetype arch = archetypes.get(a);
            for (int c = 0, nc = arch.chunkCount(); c < nc; c++) {
                Chunk chunk = arch.chunk(c);
                int size = chunk.size();
                if (size == 0 || filtered && !EcsInternals.passes(q, chunk, since)) {
                    continue;
                }
                if (chunkCount == chunks.length) {
                    chunks = Arrays.copyOf(chunks, chunkCount * 2);
                }
                chunks[chunkCount++] = chunk;
                rows += size;
            }
        }
    }

    /** Whether the system reads an event channel (opening it merges what was sent). */
    boolean readsEvents() {
        return eventReads.length > 0;
    }

    /**
     * As the system starts, on the calling thread: looks up the channels it writes and opens
     * its readers on the events it has not read (marking them read). Allocates nothing.
     */
    void openEvents(Resources resources) {
        for (int i = 0; i < eventWrites.length; i++) {
            writeChannels[i] = resources.value(SchedulerInternals.channelKey(eventWrites[i]));
        }
        for (int i = 0; i < eventReads.length; i++) {
            open(resources, eventReads[i], readers[i]);
        }
    }

    @SuppressWarnings("unchecked")
    private <T> void open(Resources resources, EventKey<T> key, ChannelReader<?> reader) {
        resources.value(SchedulerInternals.channelKey(key)).openReader(name, (ChannelReader<T>) reader);
    }

    /** The channel of {@code key} if the system declared a write of it, else null. */
    @SuppressWarnings("unchecked")
    <T> EventChannel<T> writeChannel(EventKey<T> key) {
        for (int i = 0; i < eventWrites.length; i++) {
            if (eventWrites[i] == key) {
                return (EventChannel<T>) writeChannels[i];
            }
        }
        return null;
    }

    /** The reader of {@code key} if the system declared a read of it, else null. */
    @SuppressWarnings("unchecked")
    <T> EventReader<T> reader(EventKey<T> key) {
        for (int i = 0; i < eventReads.length; i++) {
            if (eventReads[i] == key) {
                return (EventReader<T>) readers[i];
            }
        }
        return null;
    }

    /** The one empty job of a system its run condition skips: it completes with nothing run. */
    Job skipped() {
        return single(0);
    }

    /** Prepares the single job covering every chunk (every index or slot for a range or level system). */
    Job whole() {
        return single(rangeBody != null || walk != null ? (int) rows : chunkCount);
    }

    /** The run's one job, over {@code [0, to)}; a level walk then has nothing left to hand out. */
    private Job single(int to) {
        if (walk != null) {
            walk.handedOutAll();
        }
        Job j = jobs[0];
        j.reset(0, to);
        jobsLeft = 1;
        return j;
    }

    /**
     * Splits the chunks into at most {@code maxJobs} jobs of about equal row counts, none
     * under {@code minRows} rows unless it holds the last chunks; returns the count. The
     * split changes no result: commands and events are keyed by chunk ordinal (a range job's by
     * its ordinal among ascending ranges, a level job's by slot), never by job or by the order
     * the jobs ran in ({@link JobOrderOverride} runs them last to first to prove it).
     * {@link AdaptiveBatching} picks {@code minRows}.
     */
    int split(int maxJobs, long minRows) {
        if (rangeBody != null) {
            return splitRange(maxJobs, minRows);
        }
        if (walk != null) {
            return nextStage(maxJobs, minRows);
        }
        long want = Math.min(Math.min(maxJobs, jobs.length), Math.max(1, rows / minRows));
        want = Math.min(want, chunkCount);
        long target = (rows + want - 1) / want;
        int n = 0;
        int from = 0;
        long acc = 0;
        for (int c = 0; c < chunkCount; c++) {
            acc += chunks[c].size();
            if (n < want - 1 && acc >= target * (n + 1)) {
                jobs[n++].reset(from, c + 1);
                from = c + 1;
            }
        }
        if (from < chunkCount) {
            jobs[n++].reset(from, chunkCount);
        }
        jobsLeft = n;
        return n;
    }

    /** Splits this pipeline member's chunks as {@code head}'s first {@code n} jobs are (same chunk list); returns {@code n}. */
    int splitLike(SystemRun head, int n) {
        for (int k = 0; k < n; k++) {
            jobs[k].reset(head.jobs[k].from, head.jobs[k].to);
        }
        jobsLeft = n;
        return n;
    }

    /**
     * Splits {@code [0, rows)} into at most {@code maxJobs} ranges of about equal size, none
     * under {@code minRows}.
     */
    private int splitRange(int maxJobs, long minRows) {
        int n = (int) Math.min(Math.min(maxJobs, jobs.length), Math.max(1, rows / minRows));
        for (int k = 0; k < n; k++) {
            jobs[k].reset((int) (rows * k / n), (int) (rows * (k + 1) / n));
        }
        jobsLeft = n;
        return n;
    }

    /**
     * A level system's next stage of jobs (see {@link LevelWalk#nextStage}), with slots of at
     * least {@code minRows}; returns how many, 0 when its last level is done.
     */
    int nextStage(int maxJobs, long minRows) {
        int n = walk.nextStage(jobs, maxJobs, minRows);
        jobsLeft = n;
        return n;
    }

    /** The failure of {@code job} as the exception the caller sees. */
    SystemFailedException failureOf(Job job) {
        if (rangeBody != null || walk != null) {
            return SchedulerInternals.ofRange(name, job.from, job.to, job.failedWorker, job.failure);
        }
        Chunk chunk = exclusive || job.failedOrdinal < 0 || job.failedOrdinal >= chunkCount ? null
                : chunks[job.failedOrdinal];
        return SchedulerInternals.inChunk(name, chunk, exclusive ? -1 : job.failedOrdinal, job.failedWorker,
                job.failure);
    }
}
