package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.executor.PlannedExecutor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker abandoned at a run's deadline keeps its worker id, which its replacement takes
 * over. When the abandoned job finally returns, its end must not clear the replacement's
 * watchdog slot: before, it did, and a tick stuck in the replacement's job was reported as
 * "no job running" (or named another worker's job).
 *
 * <p>Driven by latches, not timing, in the {@link AbandonedWorkerScenario} it shares with
 * {@code TraceAbandonedWorkerTest}: the executor runs the schedule as a simulation's tick
 * does, and the test starts the watched span itself, already past the limit, once the
 * abandoned job has returned and the caller's job that waited for the replacement has ended
 * (still running, it would be the longest-running job), so the watchdog reports at its next
 * poll with the slots in exactly that state (the span starts no later than the replacement's
 * job, as a tick starts before its run).
 */
class WatchdogAbandonedWorkerTest {
    @Test
    @Timeout(120)
    void shouldNameTheReplacementsJobAfterTheAbandonedJobReturns() throws Exception {
        List<String> reports = new CopyOnWriteArrayList<>();
        AbandonedWorkerScenario scenario = new AbandonedWorkerScenario(sc -> {
            long until = System.nanoTime() + 60_000_000_000L; // held until the watchdog has reported
            while (reports.isEmpty() && System.nanoTime() < until) {
                sleep();
            }
        });
        try (ScheduleExecutor executor = scenario.schedule.executor(2)) {
            PlannedExecutor planned = (PlannedExecutor) executor;
            long limit = 50_000_000L;
            TickWatchdog watchdog = new TickWatchdog(limit, planned.plan(), 2,
                    (tick, elapsed, system, job) -> reports.add(system + "|" + job), planned.activity());
            executor.observe(new JobFanOut(watchdog, scenario.afterObservers())); // the watchdog hears of the end first
            try {
                scenario.abandonInFirstRun(executor);
                long beforeRun = System.nanoTime(); // the span starts no later, as a tick starts before its run
                scenario.runWithReplacementHolding(executor, () -> {
                    Latches.await(scenario.oldReturned);
                    // the caller's job, which may have started before the replacement's, has left its slot:
                    // still running (its thread not yet back from the wait on a loaded machine), it would be
                    // the longest-running job and rightly named
                    Latches.await(scenario.callerLeft);
                    watchdog.tickStarted(2, Math.min(beforeRun, System.nanoTime() - 10 * limit)); // already late
                });
                watchdog.tickEnded();
            } finally {
                scenario.releaseAbandoned();
                watchdog.close();
            }
        }
        assertEquals(1, reports.size(), reports.toString());
        String[] report = reports.get(0).split("\\|", 2);
        assertEquals("held", report[0], reports.toString());
        assertTrue(report[1].startsWith("worker 1 chunks ["), reports.toString());
    }

    /**
     * Between the abandonment and its replacement's first job, the slot still holds the abandoned
     * job's start: an overrun of a span that started after it must not name that job (before, it
     * did, as "worker 1 chunks [...]" of 'held', the longest-running job).
     */
    @Test
    @Timeout(120)
    void shouldNotNameTheAbandonedJobBeforeItsReplacementsFirstJob() throws Exception {
        AbandonedWorkerScenario scenario = new AbandonedWorkerScenario(sc -> { }); // no run 2: no replacement's job
        List<String> reports = new CopyOnWriteArrayList<>();
        try (ScheduleExecutor executor = scenario.schedule.executor(2)) {
            PlannedExecutor planned = (PlannedExecutor) executor;
            long limit = 50_000_000L;
            TickWatchdog watchdog = new TickWatchdog(limit, planned.plan(), 2,
                    (tick, elapsed, system, job) -> reports.add(system + "|" + job), planned.activity());
            executor.observe(watchdog);
            try {
                scenario.abandonInFirstRun(executor);

                watchdog.tickStarted(2, System.nanoTime()); // no run yet: the replacement has run no job
                long until = System.nanoTime() + 60_000_000_000L; // reported once past the limit
                while (reports.isEmpty() && System.nanoTime() < until) {
                    sleep();
                }
                watchdog.tickEnded();
            } finally {
                scenario.releaseAbandoned();
                watchdog.close();
            }
        }
        assertEquals(1, reports.size(), reports.toString());
        String[] report = reports.get(0).split("\\|", 2);
        assertEquals("", report[0], reports.toString());
        assertTrue(report[1].startsWith("no job running"), reports.toString());
    }

    private static void sleep() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
