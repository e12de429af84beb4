package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;

class ParallelExecutorTwoWorkersTest extends AbstractScheduleExecutorTest {
    @Override
    ScheduleExecutor create(Schedule schedule) {
        return new ParallelExecutor(SchedulerInternals.plan(schedule), 2);
    }
}
