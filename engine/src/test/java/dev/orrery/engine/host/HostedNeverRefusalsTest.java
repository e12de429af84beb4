package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The calls a hosted simulation refuses whichever thread makes them, its own turn included (a
 * close, a replay into it), are refused by one guard in one shape: "{@code call} refused: the
 * simulation is world 'name' on a WorldHost, why; fix". The replay's refusal was its own copy
 * of the guard's rule, and the close's read "Simulation.close() called while the simulation
 * is ...", so two refusals of one rule were worded two ways.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostedNeverRefusalsTest {

    @Test
    void aCloseAndAReplayInsideTheWorldsOwnTurnAreRefusedInOneShapeNamingTheCallTheWorldAndTheFix(@TempDir Path dir)
            throws Exception {
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            HostedWorld w = host.add("kept", HostWorkload.build(6, 20), 200);
            String close = refusedInside(w, s -> {
                s.close();
                return null;
            });
            assertTrue(close.startsWith("Simulation.close() refused: the simulation is world 'kept' on a WorldHost, "),
                    close);
            assertTrue(close.endsWith("; take it off the host first with hostedWorld.remove().join() and close what "
                    + "that returns (WorldHost.close() closes the simulations it still holds)"), close);
            String replay = refusedInside(w, s -> {
                try {
                    return RunReplayer.replay(dir, s);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            assertTrue(replay.startsWith("RunReplayer.replay refused: the simulation is world 'kept' on a WorldHost, "),
                    replay);
            assertTrue(replay.contains("; replay into a new simulation that is not hosted"), replay);
            Simulation back = w.remove().get(20, TimeUnit.SECONDS);
            back.bindTickThread();
            back.close(); // once off the host, the same close is taken
        }
    }

    private static String refusedInside(HostedWorld w, java.util.function.Function<Simulation, Object> action)
            throws Exception {
        ExecutionException e = assertThrows(ExecutionException.class, () -> w.call(action).get(20, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
        return e.getCause().getMessage();
    }
}
