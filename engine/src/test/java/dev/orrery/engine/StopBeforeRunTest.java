package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code Simulation.stop()} is not lost when it comes before the run it is meant for: a
 * {@code run(0, hz)} started on another thread after the stop returns before its first tick
 * (it used to clear the request as it started and run until {@code close()}), and one stop
 * ends one run, so the run after that ticks again.
 */
class StopBeforeRunTest {
    @Test
    void shouldEndARunStartedOnAnotherThreadAfterTheStop() throws Exception {
        try (Simulation sim = ArenaWorkload.build(7, 1, true, 1)) {
            AtomicLong ticked = new AtomicLong(-1);
            sim.stop(); // before the other thread's run has started: the request waits for it
            Thread runner = new Thread(() -> {
                long from = sim.currentTick();
                sim.run(0, 1000); // until stop()
                ticked.set(sim.currentTick() - from);
            }, "stop-before-run");
            runner.start();
            runner.join(TimeUnit.SECONDS.toMillis(30));
            boolean hung = runner.isAlive();
            if (hung) {
                sim.close(); // frees the runner so the test ends
                runner.join(TimeUnit.SECONDS.toMillis(30));
            }
            assertFalse(hung, "the stop asked before run() started was lost: run(0, hz) kept ticking");
            assertEquals(0, ticked.get(), "the run took the stop before its first tick");
        }
    }

    @Test
    void shouldEndOneRunPerStop() {
        try (Simulation sim = ArenaWorkload.build(7, 1, true, 1)) {
            sim.run(2, 0);
            sim.stop();
            sim.run(5, 0);
            assertEquals(2, sim.currentTick(), "the stop asked between runs ended the next before its first tick");
            sim.run(5, 0);
            assertEquals(7, sim.currentTick(), "and only that one");
            sim.run(0, 0, (tick, nanos) -> {
                if (tick == 9) {
                    sim.stop(); // during a run: it returns after this tick
                }
            });
            assertEquals(10, sim.currentTick());
            sim.run(3, 0);
            assertEquals(13, sim.currentTick(), "a stop taken by its run is not left for the next");
        }
    }
}
