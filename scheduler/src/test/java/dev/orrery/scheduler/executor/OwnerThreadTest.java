package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The threading sentences of the executor, backed by asserts (tests run with {@code -ea}):
 * {@code run} only on the owner thread, and each worker's command buffer recorded only on the
 * worker's thread. Each test fails if its assert is removed, since the wrong-thread call then
 * succeeds.
 */
class OwnerThreadTest {
    record Val(int v) {
    }

    private static Throwable onAnotherThread(Runnable r) throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                r.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, "not-the-owner");
        t.start();
        t.join();
        return thrown.get();
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 3})
    void shouldAssertThatRunIsCalledOnTheOwnerThread(int workers) throws InterruptedException {
        World w = new World(256);
        Component<Val> val = w.component(Val.class);
        for (int i = 0; i < 100; i++) {
            w.spawn(new Val(i));
        }
        AtomicInteger runs = new AtomicInteger();
        Schedule s = Schedule.builder(w)
                .system("count").query(w.query().with(val).build()).reads(val).forEachChunk(job -> runs.incrementAndGet())
                .build();
        try (ScheduleExecutor ex = s.executor(workers)) {
            ex.run(); // the first run binds this thread as the owner
            int before = runs.get();
            Throwable t = onAnotherThread(ex::run);
            AssertionError e = assertInstanceOf(AssertionError.class, t);
            assertTrue(e.getMessage().startsWith("ScheduleExecutor.run called on thread 'not-the-owner', but the "
                    + "executor is owned by thread '" + Thread.currentThread().getName() + "'"), e.getMessage());
            assertEquals(before, runs.get(), "the refused run ran nothing");

            // An explicit hand-over makes the other thread the owner (Thread.start orders the bind before it).
            Thread[] next = new Thread[1];
            AtomicReference<Throwable> handedOver = new AtomicReference<>();
            next[0] = new Thread(() -> {
                try {
                    ex.run();
                } catch (Throwable x) {
                    handedOver.set(x);
                }
            });
            ex.bindOwner(next[0]);
            next[0].start();
            next[0].join();
            assertNull(handedOver.get());
            assertTrue(runs.get() > before);
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 3})
    void shouldBindEachJobsCommandBufferToTheThreadRunningTheJob(int workers) {
        World w = new World(256);
        Component<Val> val = w.component(Val.class);
        for (int i = 0; i < 200; i++) {
            w.spawn(new Val(i));
        }
        AtomicReference<Throwable> fromOtherThread = new AtomicReference<>();
        AtomicInteger recordedOnWorker = new AtomicInteger();
        Schedule s = Schedule.builder(w).minBatchRows(16)
                .system("leaky").query(w.query().with(val).build()).reads(val).spawns()
                .forEachChunk(job -> {
                    job.commands().spawn(); // on the job's own thread: fine
                    recordedOnWorker.incrementAndGet();
                    try {
                        Throwable t = onAnotherThread(() -> job.commands().spawn());
                        if (t != null) {
                            fromOtherThread.compareAndSet(null, t);
                        }
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .build();
        int entities = w.entityCount();
        try (ScheduleExecutor ex = s.executor(workers)) {
            ex.run();
        }
        AssertionError e = assertInstanceOf(AssertionError.class, fromOtherThread.get(),
                "recording into a job's command buffer from another thread must fail an assertion");
        assertTrue(e.getMessage().contains("is owned by thread '")
                && e.getMessage().contains("called from thread 'not-the-owner'"), e.getMessage());
        assertEquals(entities + recordedOnWorker.get(), w.entityCount(), "only the owner's recordings were applied");
    }
}
