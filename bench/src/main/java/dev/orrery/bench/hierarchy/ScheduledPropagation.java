package dev.orrery.bench.hierarchy;

import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.executor.ParallelExecutor;

/**
 * A {@link Propagation} that is an Orrery schedule over its own {@link TransformWorld}: a
 * tick is one run of the executor, the checksum is the world's, and closing stops the
 * executor's workers. Subclasses build their schedule over {@link #t} and hand it to
 * {@link #start} at the end of their constructor.
 *
 * <p><b>Threading:</b> driven by one thread; the executor's workers run the jobs.
 */
abstract class ScheduledPropagation extends Propagation {
    /** The world the schedule runs over. */
    final TransformWorld t;
    private ScheduleExecutor executor;

    ScheduledPropagation(Forest forest) {
        this.t = new TransformWorld(forest);
    }

    /** Makes the executor of {@code schedule} on {@code workers} workers; called once, as construction ends. */
    final void start(Schedule schedule, int workers) {
        this.executor = schedule.executor(workers);
    }

    @Override
    public final void tick() {
        executor.run();
    }

    @Override
    public final long checksum() {
        return t.checksum();
    }

    /** The executor's batching decisions, for the report; empty on 1 worker. */
    final String batching() {
        return executor instanceof ParallelExecutor p ? BatchDecision.toText(p.batching()) : "";
    }

    @Override
    public final void close() {
        executor.close();
    }
}
