package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run's deadline ends a run stuck on a worker's job: the run fails with the report of the
 * stuck job, a worker whose job ignores its interrupt is abandoned and replaced, and the
 * executor goes on. No sleep synchronises anything here: the job on the calling thread waits
 * (on a latch, with a generous bound) until a worker holds a job, so the stuck job is on a
 * worker however loaded the machine is, and the deadline is far above a run's real time.
 */
class RunDeadlineTest {
    record Val(int v) {
    }

    private static final long DEADLINE_MS = 1_500;

    /** A world of many small chunks, and a system whose worker jobs get stuck while {@code stuck} holds. */
    static final class Stuck {
        final World world = new World(256);
        final Component<Val> val = world.component(Val.class);
        final Field v = val.field("v");
        final Thread caller = Thread.currentThread();
        final CountDownLatch workerInJob = new CountDownLatch(1);
        final AtomicBoolean stuck = new AtomicBoolean(true);
        final AtomicBoolean release = new AtomicBoolean();
        final AtomicReference<Thread> stuckThread = new AtomicReference<>();
        final Schedule schedule;

        /** {@code interruptible}: the stuck job waits on a latch (ends when interrupted); else it spins, deaf to interrupts. */
        Stuck(boolean interruptible) {
            this(interruptible, false);
        }

        /**
         * As {@link #Stuck(boolean)}; with {@code pipeline}, a second system over the same query,
         * "after", adds 1000 to each value: the executor fuses it behind "stuck" in a chunk pipeline.
         */
        Stuck(boolean interruptible, boolean pipeline) {
            this(interruptible, pipeline, false);
        }

        /** As {@link #Stuck(boolean, boolean)}; with {@code behind}, a quick system "first" heads the pipeline, so "stuck" is its member. */
        Stuck(boolean interruptible, boolean pipeline, boolean behind) {
            for (int i = 0; i < 600; i++) {
                world.spawn(new Val(0));
            }
            CountDownLatch never = new CountDownLatch(1);
            dev.orrery.ecs.Query all = world.query().with(val).build();
            Schedule.Builder b = Schedule.builder(world).minBatchRows(1);
            if (behind) {
                b = b.system("first").query(all).writes(val).forEachChunk(job -> job.chunk().writeInts(v));
            }
            Schedule.SystemBuilder sb = b.system("stuck").query(all).writes(val);
            if (!pipeline) {
                sb = sb.despawns(); // despawns put a sync point before any later reader: no pipeline then
            }
            b = sb.forEachChunk(job -> {
                        int[] x = job.chunk().writeInts(v);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            x[i]++;
                        }
                        if (!stuck.get()) {
                            return;
                        }
                        if (Thread.currentThread() == caller) { // let a worker take a job before this one returns
                            await(workerInJob);
                            return;
                        }
                        if (!stuckThread.compareAndSet(null, Thread.currentThread())) {
                            return; // one stuck job is enough
                        }
                        workerInJob.countDown();
                        if (interruptible) {
                            await(never); // ends with the executor's interrupt
                            return;
                        }
                        while (!release.get()) {
                            Thread.onSpinWait(); // deaf to interrupts: only abandoning the thread ends the wait
                        }
                        if (!pipeline) {
                            job.commands().despawn(job.chunk().entity(0)); // recorded after it was abandoned
                        }
                    });
            if (pipeline) {
                b = b.system("after").query(all).writes(val).after("stuck").forEachChunk(job -> {
                    int[] x = job.chunk().writeInts(v);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        x[i] += 1000;
                    }
                });
            }
            schedule = b.build();
        }

        private static void await(CountDownLatch latch) {
            try {
                if (!latch.await(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no worker took a job within 60 s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting", e);
            }
        }

        ParallelExecutor executor(long deadlineMs) {
            ParallelExecutor e = new ParallelExecutor(SchedulerInternals.plan(schedule), 2);
            e.runDeadline(TimeUnit.MILLISECONDS.toNanos(deadlineMs));
            return e;
        }

        int sum() {
            int[] total = {0};
            world.query().with(val).build().forEachChunk(c -> {
                int[] x = c.readInts(v);
                for (int i = 0; i < c.size(); i++) {
                    total[0] += x[i];
                }
            });
            return total[0];
        }
    }

    @Test
    @Timeout(120)
    void shouldAbandonAWorkerWhoseJobIgnoresItsInterruptAndGoOn() throws InterruptedException {
        Stuck s = new Stuck(false);
        try (ParallelExecutor executor = s.executor(DEADLINE_MS)) {
            long start = System.nanoTime();
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(DEADLINE_MS), "not before the deadline");
            assertEquals("stuck", e.system());
            TimeoutException report = assertInstanceOf(TimeoutException.class, e.getCause());
            String m = e.getMessage();
            assertTrue(m.startsWith("system 'stuck' did not finish: its job over chunks [") && m.contains(" on worker 1 ")
                    && m.contains("(its deadline: 1500 ms)") && m.contains("was abandoned and a new worker started")
                    && m.contains("what the failed run left"), m);
            assertTrue(report.getMessage().contains("orrery-worker-1-abandoned"), report.getMessage());
            assertFalse(s.world.isStructureLocked());

            s.stuck.set(false);
            int before = s.sum();
            executor.run();
            executor.run();
            assertEquals(before + 2 * 600, s.sum(), "later runs run every job, on the new worker too");

            s.release.set(true); // the abandoned job returns at last: its thread ends, its despawn is never applied
            Thread abandoned = s.stuckThread.get();
            assertNotNull(abandoned);
            abandoned.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(abandoned.isAlive(), "an abandoned worker's thread ends when its job returns");
            executor.run();
            assertEquals(600, s.world.entityCount(), "nothing the abandoned job recorded is applied");
        } finally {
            s.release.set(true);
        }
    }

    @Test
    @Timeout(120)
    void shouldEndAJobThatAnswersItsInterruptWithoutAbandoningItsWorker() {
        Stuck s = new Stuck(true);
        try (ParallelExecutor executor = s.executor(10_000)) { // a 1 s grace: room for a loaded machine to wake it
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("stuck", e.system());
            assertInstanceOf(TimeoutException.class, e.getCause());
            assertTrue(e.getMessage().contains("it returned within the 1000 ms grace after the executor interrupted its "
                    + "worker"), e.getMessage());
            assertEquals(1, e.getSuppressed().length, "the job's own failure (its interrupted wait) is attached");
            assertTrue(s.stuckThread.get().isAlive() && !s.stuckThread.get().getName().endsWith("-abandoned"),
                    "the worker was kept: " + s.stuckThread.get().getName());

            assertFalse(s.world.isStructureLocked());
            assertEquals(600, s.world.entityCount());

            s.stuck.set(false);
            int before = s.sum();
            executor.run();
            assertEquals(before + 600, s.sum());
        }
    }

    @Test
    @Timeout(120)
    void shouldAbandonAStuckChunkPipelineAndRunItFusedAgainAfterwards() throws InterruptedException {
        Stuck s = new Stuck(false, true);
        try (ParallelExecutor executor = s.executor(DEADLINE_MS)) {
            assertTrue(executor.batching().stream().anyMatch(d -> d.system().equals("after")
                    && d.mode() == dev.orrery.scheduler.BatchDecision.Mode.FUSED), "the test needs 'after' fused: "
                    + executor.batching());
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("stuck", e.system());
            assertTrue(e.getMessage().contains("(a chunk pipeline, with 'after' after it on the same chunks)")
                    && e.getMessage().contains("was abandoned and a new worker started"), e.getMessage());
            assertFalse(s.world.isStructureLocked());

            s.stuck.set(false);
            int before = s.sum();
            executor.run();
            executor.run();
            assertEquals(before + 2 * 600 * 1001, s.sum(), "both systems of the pipeline ran on every chunk, twice");

            s.release.set(true); // the abandoned job returns; its pipeline's old jobs are no longer the executor's
            Thread abandoned = s.stuckThread.get();
            abandoned.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(abandoned.isAlive());
            int after = s.sum();
            executor.run();
            assertEquals(after + 600 * 1001, s.sum());
            assertEquals(600, s.world.entityCount(), "nothing the abandoned job recorded is applied");
        } finally {
            s.release.set(true);
        }
    }

    @Test
    @Timeout(120)
    void shouldNameTheStuckMemberOfAChunkPipelineNotItsHead() {
        Stuck s = new Stuck(false, true, true);
        try (ParallelExecutor executor = s.executor(DEADLINE_MS)) {
            assertTrue(executor.batching().stream().anyMatch(d -> d.system().equals("stuck")
                    && d.mode() == dev.orrery.scheduler.BatchDecision.Mode.FUSED), "the test needs 'stuck' fused: "
                    + executor.batching());
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertEquals("stuck", e.system(), e.getMessage());
            assertTrue(e.getMessage().startsWith("system 'stuck' did not finish: its job over chunks [")
                    && e.getMessage().contains("(a chunk pipeline, after 'first' and with 'after' after it on the "
                    + "same chunks)"), e.getMessage());
        } finally {
            s.release.set(true);
        }
    }

    @Test
    void shouldRefuseANegativeDeadline() {
        Stuck s = new Stuck(false);
        try (ParallelExecutor executor = new ParallelExecutor(SchedulerInternals.plan(s.schedule), 2)) {
            assertThrows(IllegalArgumentException.class, () -> executor.runDeadline(-1));
        }
    }

    @Test
    void shouldTakeADeadlineAfterCloseAsTheOtherSettingsAndStillRefuseARun() {
        // the rule of ScheduleExecutor after close: only run() is refused; a deadline is a
        // setting like the observer and the failure mode, taken and starting nothing
        Stuck s = new Stuck(false);
        s.release.set(true);
        ScheduleExecutor[] executors = {new ParallelExecutor(SchedulerInternals.plan(s.schedule), 2),
                new SingleThreadedExecutor(SchedulerInternals.plan(s.schedule))};
        for (ScheduleExecutor executor : executors) {
            executor.close();
            long workersBefore = liveWorkers();
            executor.runDeadline(TimeUnit.MILLISECONDS.toNanos(DEADLINE_MS));
            executor.runDeadline(0);
            executor.observe(null);
            executor.finishPhaseOnFailure(true);
            long workersAfter = liveWorkers(); // at most as many: an earlier test's abandoned worker may end meanwhile
            assertTrue(workersAfter <= workersBefore, "a setting after close started a worker: " + executor + ", "
                    + workersBefore + " -> " + workersAfter);
            assertThrows(IllegalArgumentException.class, () -> executor.runDeadline(-1),
                    "the argument check holds after close too: " + executor);
            IllegalStateException run = assertThrows(IllegalStateException.class, executor::run);
            assertEquals("this executor is closed; create a new one to run the schedule", run.getMessage());
            executor.close(); // a second close does nothing
        }
    }

    private static long liveWorkers() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("orrery-worker-")).count();
    }
}
