package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.Phase;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hosting a failed world's simulation again, here or on another host, takes it back: the
 * failed world's host must not close it at its own close. {@code WorldHost.close()} closed
 * every failed world's simulation whose tick thread was still the pool thread whose tick
 * failed; but a simulation added again ticks on the same pool thread (a pool of one), and one
 * added to another host keeps the old pool thread as its tick thread until that host's first
 * tick, so the close closed a simulation the caller had hosted again: one that had finished
 * its ticks there and was the caller's, or one still hosted on the other host (its hand-over
 * refused there, and the refusal added to the old failure).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FailedWorldHostedAgainTest {

    @Test
    void aFailedWorldAddedAgainThatFinishedThereStaysTheCallersAfterTheHostCloses() throws Exception {
        WorldHost host = WorldHost.builder().threads(1).threadName("again").build();
        Simulation sim = failingOnce().build();
        HostedWorld first = host.add("first", sim, 0);
        assertThrows(ExecutionException.class, () -> first.done().get(60, TimeUnit.SECONDS));
        HostedWorld again = host.add("again", sim, 0, 3, Duration.ZERO); // taken back: hosted again
        assertSame(sim, again.done().get(60, TimeUnit.SECONDS));
        assertEquals(HostedWorld.State.FINISHED, again.state());
        assertEquals(3, sim.currentTick(), "the failed tick 0 ran again, then two more");

        host.close();

        sim.bindTickThread(); // the finished world is the caller's: open, as every world that left otherwise
        assertEquals(3, sim.tick(), "the host's close left it open (it closed it as the failed world it once was)");
        sim.close();
    }

    @Test
    void aFailedWorldAddedToAnotherHostIsLeftToThatHost() throws Exception {
        WorldHost failedOn = WorldHost.builder().threads(1).threadName("old").build();
        Simulation sim = failingOnce().build();
        HostedWorld first = failedOn.add("first", sim, 0);
        assertThrows(ExecutionException.class, () -> first.done().get(60, TimeUnit.SECONDS));
        try (WorldHost other = WorldHost.builder().threads(1).threadName("new").build()) {
            HostedWorld moved = other.add("moved", sim, 0, 0, Duration.ofHours(1)); // not ticked there yet

            failedOn.close();

            assertEquals(List.of(), List.of(first.failure().orElseThrow().getSuppressed()),
                    "the old host did not try to take over a simulation another host holds");
            Simulation back = moved.remove().get(60, TimeUnit.SECONDS);
            back.bindTickThread();
            assertEquals(0, back.tick(), "it was left open for the host that holds it");
            back.close();
        }
    }

    /** A small world whose exclusive system 'fragile' throws on its first run only, under STOP. */
    private static SimulationBuilder failingOnce() {
        AtomicBoolean fail = new AtomicBoolean(true);
        return HostWorkload.builder(7, 20, 1, s -> s.system("fragile").inPhase(Phase.POST_UPDATE).exclusive(w -> {
            if (fail.getAndSet(false)) {
                throw new IllegalStateException("fragile fails once");
            }
        })).onSystemFailure(FailurePolicy.STOP);
    }
}
