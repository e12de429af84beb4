package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;

class SingleThreadedExecutorTest extends AbstractScheduleExecutorTest {
    @Override
    ScheduleExecutor create(Schedule schedule) {
        return new SingleThreadedExecutor(SchedulerInternals.plan(schedule));
    }
}
