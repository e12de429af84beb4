package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orrery.ecs.World;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two threads calling {@link Simulation#tick()} at once on a simulation no tick has bound yet:
 * both passed the tick-thread check (it read the tick thread, null, and then wrote it), so both
 * ran tick 0 on the same world (the executor's "run() called while a run is in progress", or
 * worse). The bind is a compare-and-set now: exactly one ticks, the other is refused naming both.
 *
 * <p>The race has no point a latch can hold (the window is between two field accesses), so it
 * runs many trials (for two seconds at most), each a fresh simulation whose first tick both
 * threads make at once, released by a spin on a volatile generation with a start skew swept
 * over the trials, and asserts each trial's outcome: it passes however loaded the machine is;
 * the old code failed within the first hundred trials in each of four runs here.
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

    private static Throwable caught(Runnable r) {
        try {
            r.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
