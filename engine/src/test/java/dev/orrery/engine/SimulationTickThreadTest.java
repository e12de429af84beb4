package dev.orrery.engine;

import static dev.orrery.engine.Thrown.caught;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The tick-thread check of {@link Simulation#tick()}: an {@link IllegalStateException} naming
 * both threads, with or without {@code -ea} (it was an assertion, and without {@code -ea} the
 * executor's misleading "a run is in progress" surfaced instead).
 */
class SimulationTickThreadTest {
    @Test
    void shouldRefuseATickFromAThreadOtherThanTheTickThread() throws Exception {
        try (Simulation sim = ArenaWorkload.build(3, 1, false, 1)) {
            sim.tick(); // binds this thread
            Throwable thrown = onOtherThread(sim::tick);
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, thrown);
            assertTrue(e.getMessage().contains("'" + Thread.currentThread().getName() + "'")
                    && e.getMessage().contains("bindTickThread"), e.getMessage());
            assertEquals(1, sim.currentTick(), "the refused tick did not run");
            sim.tick();
            assertEquals(2, sim.currentTick());
        }
    }

    @Test
    void shouldHandTheSimulationToAnotherThreadThroughBindTickThread() throws Exception {
        try (Simulation sim = ArenaWorkload.build(3, 2, false, 1)) {
            sim.tick();
            // Future.get below is the happens-before edge from this thread's last tick onwards.
            assertNull(onOtherThread(() -> {
                sim.bindTickThread();
                sim.tick();
                sim.tick();
            }));
            assertEquals(3, sim.currentTick());
            assertInstanceOf(IllegalStateException.class, caught(sim::tick), "this thread handed the simulation over");
            sim.bindTickThread();
            sim.tick();
            assertEquals(4, sim.currentTick());
        }
    }

    private static Throwable onOtherThread(Runnable r) throws InterruptedException {
        ExecutorService other = Executors.newSingleThreadExecutor(t -> new Thread(t, "not-the-tick-thread"));
        try {
            Future<Throwable> f = other.submit(() -> caught(r));
            return f.get();
        } catch (ExecutionException e) {
            throw new AssertionError(e);
        } finally {
            other.shutdown();
        }
    }
}
