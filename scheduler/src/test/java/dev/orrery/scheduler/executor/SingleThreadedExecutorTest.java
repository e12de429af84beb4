package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.Schedule;

class SingleThreadedExecutorTest extends AbstractScheduleExecutorTest {
    @Override
    ScheduleExecutor create(Schedule schedule) {
        return new SingleThreadedExecutor(schedule.plan());
    }
}
