package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Simulation#close()} from a thread other than the tick thread while a tick runs (a
 * server's shutdown hook): it used to close the executor under the tick at once, returning
 * while the tick went on without its workers (the tick thread ran the rest of its jobs alone,
 * the closer went on to close what the tick still wrote to), and the tick thread's
 * {@code run()} then failed with a bare "simulation is closed" naming no one. Now close marks
 * the simulation closed, waits for the tick in progress (bounded), and stops the workers after
 * it; the run returns normally.
 *
 * <p>Synchronised by latches only: the tick blocks inside a system until the test releases
 * it, after the closing thread has either returned or parked in its wait (its state read in
 * a loop bounded by a minute). Waits are bounded only so that a broken build fails, not hangs.
 */
class CloseDuringTickTest {
    record Pos(float x) {
    }

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final ExecutorService tickThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "the-tick-thread"));
    private volatile boolean closeReturned;
    private volatile Boolean closeReturnedAtEndOfTick1;

    @AfterEach
    void tearDown() {
        release.countDown();
        tickThread.shutdown();
    }

    /** Tick 1 blocks in an exclusive system until released; a parallel system runs after it. */
    private Simulation build() {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Field x = pos.field("x");
        Simulation sim = Simulation.builder(world).workers(3).systems(s -> s
                .system("wait").readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                    if (job.resource(Simulation.CLOCK).tick() == 1) {
                        entered.countDown();
                        await(release);
                    }
                })
                .system("move").inPhase(Phase.POST_UPDATE).query(world.query().with(pos).build()).writes(pos)
                .minBatchRows(64).forEachChunk(job -> {
                    float[] a = job.chunk().writeFloats(x);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        a[i]++;
                    }
                }))
                .build();
        for (int i = 0; i < 4096; i++) {
            sim.world().spawn(new Pos(0));
        }
        sim.atEndOfTick((t, n) -> {
            if (t == 1) {
                closeReturnedAtEndOfTick1 = closeReturned;
            }
        });
        return sim;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(1, TimeUnit.MINUTES)) {
                throw new AssertionError("the test never released the tick");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** Starts {@code sim.close()} on a thread named "the-closer"; what it throws lands in {@code failed}. */
    private Thread closeOnAnotherThread(Simulation sim, AtomicReference<Throwable> failed) {
        Thread closer = new Thread(() -> {
            try {
                sim.close();
                closeReturned = true;
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "the-closer");
        closer.start();
        return closer;
    }

    /** Until {@code closer} has returned or parks in close()'s timed wait (a minute at most). */
    private static void untilReturnedOrWaiting(Thread closer) {
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        Thread.State s;
        while ((s = closer.getState()) != Thread.State.TERMINATED && s != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < end, "the closing thread neither returned nor waited: " + s);
            Thread.onSpinWait();
        }
    }

    @Test
    void shouldWaitForTheTickInProgressWhenClosedFromAnotherThreadAndEndTheRunNormally() throws Exception {
        Simulation sim = build();
        Future<?> run = tickThread.submit(() -> sim.run(0, 0));
        assertTrue(entered.await(1, TimeUnit.MINUTES), "tick 1 never reached the latch");
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread closer = closeOnAnotherThread(sim, failed);
        untilReturnedOrWaiting(closer);
        release.countDown();
        run.get(1, TimeUnit.MINUTES); // the old code: ExecutionException, "simulation is closed" from run()
        closer.join(TimeUnit.MINUTES.toMillis(1));
        assertNull(failed.get(), "close() failed");
        assertTrue(closeReturned, "close() returned");
        assertEquals(Boolean.FALSE, closeReturnedAtEndOfTick1, "close() returned before the tick it came during ended");
        assertEquals(2, sim.currentTick(), "the run ended after the tick in progress");
        IllegalStateException ex = assertThrows(IllegalStateException.class, () -> sim.executor().run());
        assertTrue(ex.getMessage().contains("executor is closed"), ex.getMessage());
        ExecutionException tick = assertThrows(ExecutionException.class, () -> tickThread.submit(sim::tick)
                .get(1, TimeUnit.MINUTES));
        assertEquals("simulation is closed (by thread 'the-closer'); build a new one with Simulation.builder(world)",
                tick.getCause().getMessage());
        sim.close(); // a second close does nothing
    }

    @Test
    void shouldGiveUpNamingBothThreadsWhenTheTickOutlastsTheWaitAndLetTheTickThreadStopTheWorkers()
            throws Exception {
        Simulation sim = build();
        sim.closing.waitNanos = TimeUnit.MILLISECONDS.toNanos(1);
        Future<?> run = tickThread.submit(() -> sim.run(0, 0));
        assertTrue(entered.await(1, TimeUnit.MINUTES), "tick 1 never reached the latch");
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread closer = closeOnAnotherThread(sim, failed);
        closer.join(TimeUnit.MINUTES.toMillis(1)); // the tick is held until released below
        IllegalStateException e = (IllegalStateException) failed.get();
        String m = String.valueOf(e == null ? null : e.getMessage());
        assertTrue(m.startsWith("Simulation.close() called on thread 'the-closer' while tick 1 runs on the tick "
                + "thread 'the-tick-thread'") && m.contains("sim.stop()") && m.contains("tickDeadline"), m);
        release.countDown();
        run.get(1, TimeUnit.MINUTES);
        assertEquals(2, sim.currentTick(), "the run ended after the tick in progress");
        IllegalStateException ex = assertThrows(IllegalStateException.class, () -> sim.executor().run());
        assertTrue(ex.getMessage().contains("executor is closed"), "the tick thread stopped the workers: "
                + ex.getMessage());
    }

    @Test
    void shouldEndARunNormallyWhenItsEndOfTickHookCloses() throws Exception {
        release.countDown(); // nothing blocks
        Simulation sim = build();
        sim.atEndOfTick((t, n) -> {
            if (t == 3) {
                sim.close();
            }
        });
        tickThread.submit(() -> sim.run(0, 0)).get(1, TimeUnit.MINUTES); // the old code: "simulation is closed"
        assertEquals(4, sim.currentTick());
        IllegalStateException ex = assertThrows(IllegalStateException.class, () -> sim.executor().run());
        assertTrue(ex.getMessage().contains("executor is closed"), ex.getMessage());
    }
}
