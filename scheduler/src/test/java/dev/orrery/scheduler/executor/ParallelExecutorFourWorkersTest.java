package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.Schedule;

class ParallelExecutorFourWorkersTest extends AbstractScheduleExecutorTest {
    @Override
    ScheduleExecutor create(Schedule schedule) {
        return new ParallelExecutor(schedule.plan(), 4);
    }
}
