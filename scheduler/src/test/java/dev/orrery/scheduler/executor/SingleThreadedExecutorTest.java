package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;

class SingleThreadedExecutorTest extends AbstractScheduleExecutorTest {
    @Override
    ScheduleExecutor create(Schedule schedule) {
        return new SingleThreadedExecutor(schedule.plan());
    }
}
