package dev.orrery.engine;

import static dev.orrery.engine.Thrown.caught;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.Phase;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two threads calling {@link Simulation#tick()} at once. On a simulation no tick has bound yet,
 * both passed the tick-thread check (it read the tick thread, null, and then wrote it), so both
 * ran tick 0 on the same world (the executor's "run() called while a run is in progress", or
 * worse); the bind is a compare-and-set now: exactly one ticks, the other is refused naming
 * both. And a tick refused on another thread while the tick thread was in a tick cleared the
 * ticking mark it had not set, so a host's add and a third thread's snapshot no longer saw the
 * tick in progress; a refused tick leaves the mark alone now.
 *
 * <p>The first-tick race has no point a latch can hold (the window is between two field
 * accesses), so it runs many trials (for two seconds at most), each a fresh simulation whose
 * first tick both threads make at once, released by a spin on a volatile generation with a
 * start skew swept over the trials, and asserts each trial's outcome: it passes however loaded
 * the machine is; the old code failed within the first 31 trials in each of six runs here. The
 * mark test is synchronised by latches only (the tick blocks in a system until the test has
 * made its calls).
 */
class ConcurrentTickTest {
    private static final int TRIALS = 5000;

    /** Spin-wait steps up to which each side delays its tick, swept over the trials so that some start together. */
    private static final int SKEW = 64;

    private volatile Simulation racing;
    private volatile int generation;
    private volatile int ready = -1;
    private volatile int racerDone;
    private volatile Throwable racerThrew;
    private final AtomicInteger systemRuns = new AtomicInteger();

    @Test
    void shouldLetExactlyOneOfTwoFirstTicksAtOnceRunAndRefuseTheOtherNamingBothThreads() throws Exception {
        String main = Thread.currentThread().getName();
        Thread racer = new Thread(() -> {
            int seen = 0;
            while (true) {
                ready = seen;
                int g;
                while ((g = generation) == seen) {
                    Thread.onSpinWait();
                }
                if (g < 0) {
                    return;
                }
                seen = g;
                Simulation sim = racing;
                spin(g * 7 % SKEW);
                try {
                    sim.tick();
                    racerThrew = null;
                } catch (Throwable t) {
                    racerThrew = t;
                }
                racerDone = g;
            }
        }, "the-racer");
        racer.setDaemon(true);
        racer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        int trial = 0;
        try {
            while (trial < TRIALS && System.nanoTime() < deadline) {
                trial++;
                systemRuns.set(0);
                try (Simulation sim = counting()) {
                    racing = sim;
                    while (ready != trial - 1) {
                        stillWaiting(deadline, "trial " + trial + ": the racer never got ready");
                    }
                    generation = trial; // publishes racing; the racer ticks at once, this thread too
                    spin(trial * 3 % SKEW);
                    Throwable mine = caught(sim::tick);
                    while (racerDone != trial) {
                        stillWaiting(deadline, "trial " + trial + ": the racer's tick never returned");
                    }
                    Throwable theirs = racerThrew;
                    if (mine == null && theirs == null || systemRuns.get() != 1 || sim.currentTick() != 1) {
                        fail("trial " + trial + ": not exactly one of the two first ticks ran (the system ran " + systemRuns.get()
                                + " times, currentTick " + sim.currentTick() + "; this thread's tick " + mine
                                + ", the racer's " + theirs + ")");
                    }
                    Throwable refused = mine != null ? mine : theirs;
                    IllegalStateException e = assertInstanceOf(IllegalStateException.class, refused,
                            "trial " + trial + ": the other was refused");
                    assertTrue(e.getMessage().contains("'the-racer'") && e.getMessage().contains("'" + main + "'")
                            && e.getMessage().contains("bindTickThread"), "trial " + trial + ": " + e.getMessage());
                }
            }
        } finally {
            generation = -1;
            racer.join(TimeUnit.MINUTES.toMillis(1));
        }
    }

    /** One step of a spin-wait, failing a minute past {@code deadline} (only so that a broken build fails, not hangs). */
    private static void stillWaiting(long deadline, String what) {
        if (System.nanoTime() - deadline > TimeUnit.MINUTES.toNanos(1)) {
            fail(what);
        }
        Thread.onSpinWait();
    }

    private static void spin(int n) {
        for (int i = 0; i < n; i++) {
            Thread.onSpinWait();
        }
    }

    private Simulation counting() {
        World world = new World();
        return Simulation.builder(world).systems(s -> s.system("count")
                .exclusive((w, job) -> systemRuns.incrementAndGet())).build();
    }

    @Test
    void shouldKeepTheTickingMarkWhenATickFromAnotherThreadIsRefused() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        World world = new World();
        ExecutorService tickThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "the-tick-thread"));
        ExecutorService intruder = Executors.newSingleThreadExecutor(r -> new Thread(r, "the-intruder"));
        try (Simulation sim = Simulation.builder(world).systems(s -> s.system("wait").inPhase(Phase.POST_UPDATE)
                .readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                    if (job.resource(Simulation.CLOCK).tick() == 1) {
                        entered.countDown();
                        try {
                            assertTrue(release.await(1, TimeUnit.MINUTES), "the test never released the tick");
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                    }
                })).build()) {
            Future<Long> ticks = tickThread.submit(() -> {
                sim.tick();
                return sim.tick(); // tick 1 blocks until released
            });
            assertTrue(entered.await(1, TimeUnit.MINUTES), "tick 1 never reached the latch");
            Throwable refusedTick = intruder.submit(() -> caught(sim::tick)).get(1, TimeUnit.MINUTES);
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, refusedTick);
            assertTrue(e.getMessage().contains("'the-intruder'") && e.getMessage().contains("'the-tick-thread'"),
                    e.getMessage());
            // The tick thread is still in tick 1: a host's add and this thread's snapshot see it.
            Throwable hosting = caught(() -> sim.hostedAs("world 'w'"));
            Throwable snapshot = caught(sim::snapshot);
            release.countDown();
            assertEquals(1L, ticks.get(1, TimeUnit.MINUTES), "the tick went on once released");
            IllegalStateException h = assertInstanceOf(IllegalStateException.class, hosting,
                    "adding to a host while the tick thread ticks is refused");
            assertTrue(h.getMessage().contains("being ticked by thread 'the-tick-thread' right now"), h.getMessage());
            IllegalStateException s = assertInstanceOf(IllegalStateException.class, snapshot);
            assertTrue(s.getMessage().contains("'the-tick-thread', which is in a tick now"), s.getMessage());
            assertEquals(2, sim.currentTick(), "the refused calls changed nothing");
            sim.hostedAs(null); // nothing hosted it; harmless, and leaves it closable should the check have let it by
        } finally {
            tickThread.shutdown();
            intruder.shutdown();
        }
    }
}
