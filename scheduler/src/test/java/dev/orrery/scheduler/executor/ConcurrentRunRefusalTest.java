package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One world is run by one executor at a time: while executor A's run is in progress (its
 * system blocked on a latch), executor B's run over the same world from another thread is
 * refused at its start, names the world, A's thread and the fix, and changes nothing; A then
 * finishes with its own result, and B runs once A has returned, as does any sequential use of
 * the two on one thread. Before, B ran beside A, racing on the world (its system ran while A's
 * was still in its job). The threads meet through latches and joins with generous timeouts, so
 * a loaded machine only slows the test down.
 */
class ConcurrentRunRefusalTest {
    record Val(int v) {
    }

    private static final long WAIT_S = 60;
    private static final int ENTITIES = 50;

    @ParameterizedTest(name = "A on {0} workers, B on {1}, B of the same schedule: {2}")
    @CsvSource({"1, 1, true", "3, 3, true", "1, 3, false", "3, 1, false"})
    void shouldRefuseASecondExecutorsRunWhileTheFirstRunsTheWorld(int workersA, int workersB, boolean sameSchedule)
            throws InterruptedException {
        World world = new World();
        Component<Val> val = world.component(Val.class);
        for (int i = 0; i < ENTITIES; i++) {
            world.spawn(new Val(i));
        }
        Field v = val.field("v");
        Query all = world.query().with(val).build();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch let = new CountDownLatch(1);
        AtomicBoolean blockOnce = new AtomicBoolean(true);
        AtomicInteger plusOneJobs = new AtomicInteger();
        AtomicInteger doubleJobs = new AtomicInteger();
        Schedule plusOne = Schedule.builder(world)
                .system("plus one").query(all).writes(val).forEachChunk(job -> {
                    if (blockOnce.compareAndSet(true, false)) { // A's first run waits inside its job
                        entered.countDown();
                        await(let);
                    }
                    plusOneJobs.incrementAndGet();
                    int[] x = job.chunk().writeInts(v);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        x[i]++;
                    }
                })
                .build();
        Schedule doubling = Schedule.builder(world)
                .system("double").query(all).writes(val).forEachChunk(job -> {
                    doubleJobs.incrementAndGet();
                    int[] x = job.chunk().writeInts(v);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        x[i] *= 2;
                    }
                })
                .build();
        IntUnaryOperator stepB = sameSchedule ? x -> x + 1 : x -> x * 2;
        int[] expected = new int[ENTITIES];
        for (int i = 0; i < ENTITIES; i++) {
            expected[i] = i;
        }
        try (ScheduleExecutor a = plusOne.executor(workersA);
                ScheduleExecutor b = (sameSchedule ? plusOne : doubling).executor(workersB)) {
            AtomicReference<Throwable> failedA = new AtomicReference<>();
            Thread threadA = new Thread(() -> {
                try {
                    a.run();
                } catch (Throwable t) {
                    failedA.set(t);
                }
            }, "first-runner");
            threadA.start();
            assertTrue(entered.await(WAIT_S, TimeUnit.SECONDS), "A's system never started");

            int jobsBefore = plusOneJobs.get() + doubleJobs.get();
            Throwable refused = onThread("second-runner", b::run);
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, refused,
                    "B's run beside A's must be refused");
            String m = e.getMessage();
            assertTrue(m.startsWith("ScheduleExecutor.run() on thread 'second-runner' refused: World@"
                    + Integer.toHexString(System.identityHashCode(world)) + " is being run by another executor's run "
                    + "on thread 'first-runner'"), m);
            assertTrue(m.contains("Run one executor at a time per world") && m.contains("hand the world over "
                    + "between ticks"), m);
            assertEquals(jobsBefore, plusOneJobs.get() + doubleJobs.get(), "the refused run ran no job");

            let.countDown();
            threadA.join(TimeUnit.SECONDS.toMillis(WAIT_S));
            assertFalse(threadA.isAlive(), "A's run never returned");
            assertNull(failedA.get(), "A's run goes on untouched by the refusal");
            apply(expected, x -> x + 1);
            assertEquals(java.util.Arrays.toString(expected), values(all, v), "A's result");

            // A has returned (join orders it before this thread): B runs, on a thread of its own...
            assertNull(onThread("second-runner", b::run), "B runs once A's run has returned");
            apply(expected, stepB);
            assertEquals(java.util.Arrays.toString(expected), values(all, v), "B's result");

            // ... and the two take turns on one thread, handed over between runs.
            for (int tick = 0; tick < 2; tick++) {
                a.bindOwner(Thread.currentThread());
                a.run();
                apply(expected, x -> x + 1);
                b.bindOwner(Thread.currentThread());
                b.run();
                apply(expected, stepB);
            }
            assertEquals(java.util.Arrays.toString(expected), values(all, v), "A and B in turns on one thread");
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @CsvSource({"1", "3"})
    void shouldFreeTheWorldWhenARunFails(int workers) throws InterruptedException {
        World world = new World();
        Component<Val> val = world.component(Val.class);
        for (int i = 0; i < ENTITIES; i++) {
            world.spawn(new Val(i));
        }
        Query all = world.query().with(val).build();
        AtomicBoolean failOnce = new AtomicBoolean(true);
        Schedule failing = Schedule.builder(world)
                .system("fails once").query(all).reads(val).forEachChunk(job -> {
                    if (failOnce.compareAndSet(true, false)) {
                        throw new IllegalArgumentException("boom");
                    }
                })
                .build();
        AtomicInteger otherRuns = new AtomicInteger();
        Schedule other = Schedule.builder(world)
                .system("counts").query(all).reads(val).forEachChunk(job -> otherRuns.incrementAndGet())
                .build();
        try (ScheduleExecutor a = failing.executor(workers); ScheduleExecutor b = other.executor(workers)) {
            Throwable t = onThread("failing-runner", a::run);
            assertInstanceOf(SystemFailedException.class, t);
            assertNull(onThread("next-runner", b::run), "a failed run gives the world back");
            assertTrue(otherRuns.get() > 0, "B's system ran");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_S, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never let the blocked job go");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code r} on a new thread named {@code name}, joins it, and returns what it threw (null: nothing). */
    private static Throwable onThread(String name, Runnable r) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                r.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, name);
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(WAIT_S));
        assertFalse(t.isAlive(), "thread '" + name + "' never returned");
        return thrown.get();
    }

    private static void apply(int[] values, IntUnaryOperator op) {
        for (int i = 0; i < values.length; i++) {
            values[i] = op.applyAsInt(values[i]);
        }
    }

    /** The world's values in row order, read on this thread after every run returned. */
    private static String values(Query all, Field v) {
        StringBuilder out = new StringBuilder("[");
        all.forEachChunk(c -> {
            int[] x = c.readInts(v);
            for (int i = 0; i < c.size(); i++) {
                out.append(out.length() > 1 ? ", " : "").append(x[i]);
            }
        });
        return out.append(']').toString();
    }

    /**
     * An executor's run started from one of its own jobs is that run's nesting, whatever thread
     * the job is on: a job on a worker thread gets the same "run in progress" refusal as one on
     * the calling thread (the world's run claim, which the calling thread holds, answered it as
     * another executor's run before; which thread took a job decided the message).
     */
    @Test
    void shouldRefuseARunFromAJobOnAWorkerThreadAsARunInProgress() {
        World world = new World();
        Thread caller = Thread.currentThread();
        CountDownLatch workerTried = new CountDownLatch(1);
        AtomicReference<String> refused = new AtomicReference<>();
        ScheduleExecutor[] self = new ScheduleExecutor[1];
        Schedule schedule = Schedule.builder(world).minBatchRows(16)
                .system("nested").forEachRange(() -> 1024, (job, from, to) -> { // 64 jobs of 16 indices
                    if (Thread.currentThread() == caller) {
                        await(workerTried); // the caller's jobs wait, so a worker takes one
                        return;
                    }
                    if (workerTried.getCount() > 0) {
                        try {
                            self[0].run();
                        } catch (IllegalStateException e) {
                            refused.compareAndSet(null, e.getMessage());
                        }
                        workerTried.countDown();
                    }
                })
                .build();
        try (ScheduleExecutor executor = schedule.executor(2)) {
            self[0] = executor;
            executor.run();
        }
        assertTrue(refused.get() != null && refused.get().startsWith("run() called while a run is in progress"),
                String.valueOf(refused.get()));
    }
}
