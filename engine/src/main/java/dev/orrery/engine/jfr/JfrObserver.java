package dev.orrery.engine.jfr;

import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.graph.SystemGraph;
import jdk.jfr.EventType;

/**
 * Turns what an executor reports into JFR events: a {@link JobEvent} per job (when job events
 * are on) and a {@link SyncPointEvent} per command playback (while a recording enables
 * them), and passes every report on to another observer, such as a Chrome trace. It installs
 * itself on the executor only while it has something to do, so a simulation that is not
 * being recorded keeps the executor's unobserved path, which times nothing.
 *
 * <p><b>Threading:</b> {@link #chain} and {@link #beforeRun} are called on the tick thread
 * between runs (the executor's next job hand-off publishes the change to the workers).
 * {@link #jobRan} is called on each worker for its own jobs and commits a thread-local JFR
 * event; {@link #syncPointApplied} on the tick thread.
 */
public final class JfrObserver implements JobObserver {
    private static final EventType SYNC_POINTS = EventType.getEventType(SyncPointEvent.class);

    private final ScheduleExecutor executor;
    private final String[] names;
    private final boolean jobEvents;
    private JobObserver next;
    private JobObserver watch;
    private boolean syncEvents;

    /**
     * An observer of {@code executor}, which runs the systems of {@code graph}; with
     * {@code jobEvents}, it emits a {@link JobEvent} per job.
     */
    public JfrObserver(ScheduleExecutor executor, SystemGraph graph, boolean jobEvents) {
        this.executor = executor;
        this.jobEvents = jobEvents;
        this.names = new String[graph.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = graph.system(i).name();
        }
        install();
    }

    /** Passes every report on to {@code observer} as well ({@code null}: to none); between runs. */
    public void chain(JobObserver observer) {
        this.next = observer;
        install();
    }

    /**
     * Also reports every job's start and end to {@code watcher} (a tick watchdog), and keeps
     * this observer installed while one is set; {@code null} removes it. Between runs.
     */
    public void watch(JobObserver watcher) {
        this.watch = watcher;
        install();
    }

    /**
     * Follows recordings that start or stop: installs this observer while sync-point events
     * are enabled and leaves the executor unobserved otherwise. Call before each run.
     */
    public void beforeRun() {
        boolean on = SYNC_POINTS.isEnabled();
        if (on != syncEvents) {
            syncEvents = on;
            install();
        }
    }

    private void install() {
        executor.observe(jobEvents || syncEvents || watch != null ? this : next);
    }

    @Override
    public void jobStarted(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos) {
        JobObserver w = watch;
        if (w != null) {
            w.jobStarted(workerId, systemIndex, fromChunk, toChunk, startNanos);
        }
        JobObserver n = next;
        if (n != null) {
            n.jobStarted(workerId, systemIndex, fromChunk, toChunk, startNanos);
        }
    }

    @Override
    public void jobRan(int workerId, int systemIndex, int fromChunk, int toChunk, long startNanos, long endNanos) {
        JobObserver w = watch;
        if (w != null) {
            w.jobRan(workerId, systemIndex, fromChunk, toChunk, startNanos, endNanos);
        }
        JobObserver n = next;
        if (n != null) {
            n.jobRan(workerId, systemIndex, fromChunk, toChunk, startNanos, endNanos);
        }
        if (jobEvents) {
            JobEvent e = new JobEvent();
            if (e.shouldCommit()) {
                e.system = names[systemIndex];
                e.worker = workerId;
                e.firstChunk = fromChunk;
                e.nanos = endNanos - startNanos;
                e.commit();
            }
        }
    }

    @Override
    public void syncPointApplied(long commands, long moves, long startNanos, long endNanos) {
        JobObserver n = next;
        if (n != null) {
            n.syncPointApplied(commands, moves, startNanos, endNanos);
        }
        if (!syncEvents) { // installed for a watchdog or job events only: no event to make, so none is allocated
            return;
        }
        SyncPointEvent e = new SyncPointEvent();
        if (e.shouldCommit()) {
            e.commands = commands;
            e.moves = moves;
            e.nanos = endNanos - startNanos;
            e.commit();
        }
    }
}
