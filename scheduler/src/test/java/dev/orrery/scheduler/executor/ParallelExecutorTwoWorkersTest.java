package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;

class ParallelExecutorTwoWorkersTest extends AbstractScheduleExecutorTest {
    @Override
    ScheduleExecutor create(Schedule schedule) {
        return new ParallelExecutor(schedule.plan(), 2);
    }
}
