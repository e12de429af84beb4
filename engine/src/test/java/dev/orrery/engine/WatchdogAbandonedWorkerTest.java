package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.executor.PlannedExecutor;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker abandoned at a run's deadline keeps its worker id, which its replacement takes
 * over. When the abandoned job finally returns, its end must not clear the replacement's
 * watchdog slot: before, it did, and a tick stuck in the replacement's job was reported as
 * "no job running" (or named another worker's job).
 *
 * <p>Driven by latches, not timing: the executor runs the schedule as a simulation's tick
 * does, and the test starts the watched span itself, already past the limit, once the
 * abandoned job has returned, so the watchdog reports at its next poll with the slots in
 * exactly that state (the span starts no later than the replacement's job, as a tick starts
 * before its run).
 */
class WatchdogAbandonedWorkerTest {
    @Test
    @Timeout(120)
    void shouldNameTheReplacementsJobAfterTheAbandonedJobReturns() throws Exception {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(1)).spawnMany(600); // three chunks: a job each
        Thread caller = Thread.currentThread();
        AtomicInteger run = new AtomicInteger(1);
        AtomicReference<Thread> abandoned = new AtomicReference<>();
        AtomicReference<Thread> replacement = new AtomicReference<>();
        CountDownLatch workerInJob = new CountDownLatch(1);
        CountDownLatch releaseOld = new CountDownLatch(1);
        CountDownLatch replacementIn = new CountDownLatch(1);
        CountDownLatch oldReturned = new CountDownLatch(1);
        List<String> reports = new CopyOnWriteArrayList<>();
        Schedule schedule = Schedule.builder(world).system("held").minBatchRows(1)
                .query(world.query().with(hp).build()).writes(hp).forEachChunk(job -> {
                    Thread me = Thread.currentThread();
                    if (run.get() == 1) { // a worker's job outlives the deadline; the caller waits until it is in it
                        if (me == caller) {
                            Latches.await(workerInJob);
                        } else if (abandoned.compareAndSet(null, me)) {
                            workerInJob.countDown();
                            Latches.awaitIgnoringInterrupts(releaseOld);
                        }
                    } else if (me == caller) { // run 2: leave the other jobs to the replacement
                        Latches.await(replacementIn);
                    } else if (me != abandoned.get() && replacement.compareAndSet(null, me)) {
                        replacementIn.countDown();
                        long until = System.nanoTime() + 60_000_000_000L; // held until the watchdog has reported
                        while (reports.isEmpty() && System.nanoTime() < until) {
                            sleep();
                        }
                    }
                }).build();
        try (ScheduleExecutor executor = schedule.executor(2)) {
            PlannedExecutor planned = (PlannedExecutor) executor;
            long limit = 50_000_000L;
            TickWatchdog watchdog = new TickWatchdog(limit, planned.plan(), 2,
                    (tick, elapsed, system, job) -> reports.add(system + "|" + job), planned.activity());
            JobObserver afterWatchdog = (worker, system, from, to, start, end) -> {
                if (Thread.currentThread() == abandoned.get()) {
                    oldReturned.countDown(); // the watchdog has heard of its end by now
                }
            };
            executor.observe(new JobFanOut(watchdog, afterWatchdog));
            try {
                executor.runDeadline(200_000_000L);
                SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
                assertTrue(e.getMessage().contains("abandoned"), e.getMessage());
                assertNotNull(abandoned.get());

                executor.runDeadline(0);
                run.set(2);
                long beforeRun = System.nanoTime(); // the span starts no later, as a tick starts before its run
                Thread releaser = new Thread(() -> {
                    Latches.await(replacementIn);
                    releaseOld.countDown(); // the abandoned job returns while its replacement holds a job
                    Latches.await(oldReturned);
                    watchdog.tickStarted(2, Math.min(beforeRun, System.nanoTime() - 10 * limit)); // already late
                }, "releaser");
                releaser.start();
                executor.run();
                releaser.join(60_000);
                watchdog.tickEnded();
            } finally {
                releaseOld.countDown();
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
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(1)).spawnMany(600); // three chunks: a job each
        Thread caller = Thread.currentThread();
        AtomicReference<Thread> abandoned = new AtomicReference<>();
        CountDownLatch workerInJob = new CountDownLatch(1);
        CountDownLatch releaseOld = new CountDownLatch(1);
        List<String> reports = new CopyOnWriteArrayList<>();
        Schedule schedule = Schedule.builder(world).system("held").minBatchRows(1)
                .query(world.query().with(hp).build()).writes(hp).forEachChunk(job -> {
                    Thread me = Thread.currentThread();
                    if (me == caller) {
                        Latches.await(workerInJob);
                    } else if (abandoned.compareAndSet(null, me)) {
                        workerInJob.countDown();
                        Latches.awaitIgnoringInterrupts(releaseOld);
                    }
                }).build();
        try (ScheduleExecutor executor = schedule.executor(2)) {
            PlannedExecutor planned = (PlannedExecutor) executor;
            long limit = 50_000_000L;
            TickWatchdog watchdog = new TickWatchdog(limit, planned.plan(), 2,
                    (tick, elapsed, system, job) -> reports.add(system + "|" + job), planned.activity());
            executor.observe(watchdog);
            try {
                executor.runDeadline(200_000_000L);
                SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
                assertTrue(e.getMessage().contains("abandoned"), e.getMessage());
                assertNotNull(abandoned.get());

                watchdog.tickStarted(2, System.nanoTime()); // no run yet: the replacement has run no job
                long until = System.nanoTime() + 60_000_000_000L; // reported once past the limit
                while (reports.isEmpty() && System.nanoTime() < until) {
                    sleep();
                }
                watchdog.tickEnded();
            } finally {
                releaseOld.countDown();
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
