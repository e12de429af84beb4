package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * WorldHost x Simulation.snapshot/restore from a server thread: the save goes through
 * {@code hostedWorld.call(Simulation::snapshot)}; loading it back into the hosted world, which
 * is past its first tick, is refused with a message that names the world and the host's way
 * (restore into a new simulation, remove the world, add the new one); that way works and the
 * restored world goes on as the saved one would have.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostedRestoreTest {

    @Test
    void aSaveTakenThroughCallLoadsIntoANewSimulationAddedInTheWorldsPlace() throws Exception {
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            host.add("neighbour", HostWorkload.build(1, 100), 300);
            HostedWorld w = host.add("saved", HostWorkload.build(9, 150), 300);
            eventually(() -> w.stats().ticks() > 3);
            byte[] save = w.call(Simulation::snapshot).get(20, TimeUnit.SECONDS);

            ExecutionException e = assertThrows(ExecutionException.class, () -> w.call(s -> {
                s.restore(save);
                return null;
            }).get(20, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            String m = e.getCause().getMessage();
            assertTrue(m.contains("world 'saved'") && m.contains("remove()") && m.contains("add("), m);
            long before = w.stats().ticks();
            eventually(() -> w.stats().ticks() > before + 3); // the refusal left the world ticking
            assertFalse(w.state().left(), w.state().toString());

            // the way the message names
            Simulation loaded = HostWorkload.restoreTarget(9, 150);
            loaded.restore(save);
            long savedAt = loaded.currentTick();
            w.remove().join().bindTickThread();
            HostedWorld again = host.add("saved", loaded, 300);
            eventually(() -> again.stats().ticks() > 5);
            long[] seen = again.call(s -> new long[] {s.currentTick(), s.world().stateHash()}).get(20, TimeUnit.SECONDS);
            assertTrue(seen[0] > savedAt, "it ticks on from the save: " + seen[0] + " after " + savedAt);
            try (Simulation alone = HostWorkload.build(9, 150)) {
                while (alone.currentTick() < seen[0]) {
                    alone.tick();
                }
                assertEquals(alone.world().stateHash(), seen[1], "the loaded world at tick " + seen[0]
                        + " is the one the saved world would have been");
            }
        }
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - until < 0, "waited 20 s");
            Thread.sleep(5);
        }
    }
}
