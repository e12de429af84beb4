package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code RunReplayer.replay} into a simulation a {@code WorldHost} holds was refused by the
 * restore inside it, with a message naming {@code Simulation.restore()} (from another thread:
 * "run it through hostedWorld.call"; inside the call: "restore before the first tick"), neither
 * of which is the way: a replay restores and then ticks the simulation on the calling thread,
 * which a hosted world cannot allow. It is now refused before anything is touched, naming
 * {@code RunReplayer.replay}, the world, and the fix: replay into a simulation that is not hosted.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostedReplayTargetTest {
    private static final int AGENTS = 50;

    @Test
    void aReplayIntoAHostedSimulationIsRefusedNamingTheReplayAndASimulationThatIsNotHosted(@TempDir Path dir)
            throws Exception {
        byte[] snapshot;
        try (Simulation sim = HostWorkload.build(5, AGENTS);
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            for (int t = 0; t < 10; t++) {
                sim.tick();
            }
            snapshot = sim.snapshot();
            for (int t = 0; t < 5; t++) {
                sim.tick();
            }
        }
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            HostedWorld w = host.add("target", HostWorkload.restoreTarget(5, AGENTS), 200);
            assertRefusal(assertThrows(IllegalStateException.class, () -> RunReplayer.replay(dir, w.simulation()))
                    .getMessage());
            assertRefusal(assertThrows(IllegalStateException.class,
                    () -> RunReplayer.replay(dir, snapshot, w.simulation())).getMessage());
            ExecutionException e = assertThrows(ExecutionException.class, () -> w.call(s -> {
                try {
                    return RunReplayer.replay(dir, s);
                } catch (IOException io) {
                    throw new UncheckedIOException(io);
                }
            }).get(20, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertRefusal(e.getCause().getMessage());
            long before = w.stats().ticks();
            eventually(() -> w.stats().ticks() > before + 3); // the refusals left the world ticking
            assertFalse(w.state().left(), w.state().toString());
        }
    }

    private static void assertRefusal(String m) {
        assertTrue(m.startsWith("RunReplayer.replay refused"), m);
        assertTrue(m.contains("world 'target' on a WorldHost"), m);
        assertTrue(m.contains("replay into a new simulation that is not hosted"), m);
        assertFalse(m.contains("Simulation.restore()"), m);
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - until < 0, "waited 20 s");
            Thread.sleep(5);
        }
    }
}
