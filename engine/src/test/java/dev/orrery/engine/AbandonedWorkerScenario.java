package dev.orrery.engine;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The abandoned-worker choreography that {@code TraceAbandonedWorkerTest} and
 * {@code WatchdogAbandonedWorkerTest} observe from two sides: one system, {@code held}, over
 * 600 rows in 256-byte chunks (several jobs of a few chunks each) on two workers. In run 1 a worker's job outlives the run's
 * deadline ({@link #abandonInFirstRun}), so the executor abandons that worker and later
 * replaces it under the same worker id. In run 2 ({@link #runWithReplacementHolding}) the
 * caller leaves the jobs to the replacement, which holds its job (doing what the test gave the
 * constructor) while the abandoned job is released and returns. Driven by latches, not timing.
 *
 * <p><b>Threading:</b> built and driven on the test's thread, which is the executor's caller;
 * the job body runs on the executor's threads and meets the test only through the latches and
 * atomic references below; {@link #releaseAbandoned} may be called from any thread, more than
 * once.
 */
final class AbandonedWorkerScenario {
    /** The run's deadline in run 1, past which the held worker is abandoned. */
    private static final long DEADLINE_NANOS = 200_000_000L;

    /** The worker thread whose run-1 job outlived the deadline; null until it is in its job. */
    final AtomicReference<Thread> abandoned = new AtomicReference<>();
    /** The worker thread that took the first run-2 job; null until it is in it. */
    private final AtomicReference<Thread> replacement = new AtomicReference<>();
    /** Counted down when the abandoned worker's run-1 job has begun. */
    private final CountDownLatch workerInJob = new CountDownLatch(1);
    /** Counted down to let the abandoned job return. */
    private final CountDownLatch releaseOld = new CountDownLatch(1);
    /** Counted down when the replacement is in its run-2 job. */
    private final CountDownLatch replacementIn = new CountDownLatch(1);
    /** Counted down by {@link #afterObservers} when the abandoned job's end has been reported. */
    final CountDownLatch oldReturned = new CountDownLatch(1);
    /**
     * Counted down by {@link #afterObservers} when the caller's first run-2 job has ended and
     * been reported. That job may have started before the replacement's (it waits in its body
     * until the replacement is in a job), so until then it may be the longest-running job;
     * every later job of the caller starts after the replacement's.
     */
    final CountDownLatch callerLeft = new CountDownLatch(1);
    /** The schedule to build the executor from ({@code schedule.executor(2)}). */
    final Schedule schedule;

    private final Thread caller = Thread.currentThread();
    private final AtomicInteger run = new AtomicInteger(1);

    /**
     * @param replacementHolds what the replacement does inside its run-2 job, on its own thread:
     *     return when the test has seen what it waits for (it must not return sooner)
     */
    AbandonedWorkerScenario(Consumer<AbandonedWorkerScenario> replacementHolds) {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(1)).spawnMany(600); // about thirty small chunks: several jobs
        this.schedule = Schedule.builder(world).system("held").minBatchRows(1)
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
                        replacementHolds.accept(this);
                    }
                }).build();
    }

    /**
     * A job observer to fan out to after the one under test: it counts {@link #oldReturned}
     * down when the abandoned job ends, and {@link #callerLeft} when a run-2 job of the caller
     * ends, so that observer has heard of the end by then.
     */
    JobObserver afterObservers() {
        return (worker, system, from, to, start, end) -> {
            Thread me = Thread.currentThread();
            if (me == abandoned.get()) {
                oldReturned.countDown();
            } else if (me == caller && run.get() == 2) {
                callerLeft.countDown();
            }
        };
    }

    /** Run 1: runs {@code executor} under the deadline and asserts it failed, abandoning the held worker. */
    void abandonInFirstRun(ScheduleExecutor executor) {
        executor.runDeadline(DEADLINE_NANOS);
        SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
        assertTrue(e.getMessage().contains("abandoned"), e.getMessage());
        assertNotNull(abandoned.get());
    }

    /**
     * Run 2, with no deadline: a releaser thread waits until the replacement is in its job,
     * lets the abandoned job return, then runs {@code thenOnReleaser}; the call returns after
     * the run and the releaser (waited for up to 60 s).
     */
    void runWithReplacementHolding(ScheduleExecutor executor, Runnable thenOnReleaser) throws InterruptedException {
        executor.runDeadline(0);
        run.set(2);
        Thread releaser = new Thread(() -> {
            Latches.await(replacementIn);
            releaseOld.countDown(); // the abandoned job returns while its replacement holds a job
            thenOnReleaser.run();
        }, "releaser");
        releaser.start();
        executor.run();
        releaser.join(60_000);
    }

    /** Lets the abandoned job return (for a test's {@code finally}, so no worker stays held). */
    void releaseAbandoned() {
        releaseOld.countDown();
    }
}
