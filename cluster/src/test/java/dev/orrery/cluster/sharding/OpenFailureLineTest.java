package dev.orrery.cluster.sharding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.StopFailingWorld;
import dev.orrery.cluster.world.WorldRuntime;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node's line for a world that fails to open ({@link WorldEntity#openFailure}): the tick
 * that failed under STOP failing again in the replay names the system, the tick and the
 * fixes; a blueprint throwing at an earlier tick, one that ran without failing, is named as
 * not the world's; any other failure sends the person to the store and the blueprints. The
 * world is {@link StopFailingWorld}'s.
 */
class OpenFailureLineTest {
    private static final String WORLD = "opens-1";

    @TempDir
    Path dir;

    /** Ticks 0 to 3 with a blueprint throwing at tick 4, which throws; lets the world go as the actor does. */
    private WorldStore failAtTickFour() throws IOException {
        return StopFailingWorld.failedAt(dir, WORLD, 4);
    }

    @Test
    void theTickThatFailedUnderStopNamesTheSystemTheTickAndTheFixes() throws IOException {
        WorldStore store = failAtTickFour();
        SystemFailedException e = assertThrows(SystemFailedException.class,
                () -> WorldRuntime.open(WORLD, store, StopFailingWorld.throwingAt(4), StopFailingWorld.settings()));
        for (Throwable failure : new Throwable[] {e, new IllegalStateException("wrapped", e)}) { // the cause chain
            String line = WorldEntity.openFailure(WORLD, failure);
            assertEquals("world opens-1 cannot open here: system 'step' fails in the replay of journaled tick 4 "
                    + "(java.lang.IllegalStateException: step cannot run tick 4), as it failed when that tick ran under "
                    + "FailurePolicy.STOP; fix the system in the blueprint (every node), or make the blueprint's "
                    + "failure policy SKIP_TICK to skip that tick; until then it is retried with back-off and fails "
                    + "the same way each time", line);
        }
    }

    @Test
    void aBlueprintThrowingAtATickThatRanIsNamedAsNotTheWorlds() throws IOException {
        WorldStore store = failAtTickFour();
        SystemFailedException e = assertThrows(SystemFailedException.class,
                () -> WorldRuntime.open(WORLD, store, StopFailingWorld.throwingAt(2), StopFailingWorld.settings()));
        String line = WorldEntity.openFailure(WORLD, e);
        assertTrue(line.startsWith("world opens-1 failed to open here: system 'step' fails in the replay of journaled "
                + "tick 2 (") && line.contains("a tick that ran without failing when it was journaled")
                && line.contains("runs the blueprint the world ran with"), line);
        assertFalse(line.contains("SKIP_TICK"), line);
    }

    @Test
    void aSystemFailureWithoutACauseIsDescribedByItsOwnMessageNotByNull() throws ReflectiveOperationException {
        // No executor path makes one (a system cannot throw null), but the type allows it.
        Method atSyncPoint = SystemFailedException.class.getDeclaredMethod("atSyncPoint", String.class,
                Throwable.class);
        atSyncPoint.setAccessible(true);
        SystemFailedException e = (SystemFailedException) atSyncPoint.invoke(null, "sync point ending phase Update",
                null);
        String line = WorldEntity.openFailure(WORLD, e);
        assertFalse(line.contains("(null)"), line);
        assertTrue(line.startsWith("world opens-1 cannot open here: system 'sync point ending phase Update' fails in "
                + "the replay of journaled tick (not known) (" + e.getMessage() + ")"), line);
    }

    @Test
    void anyOtherFailureSendsThePersonToTheStoreAndTheBlueprints() {
        String line = WorldEntity.openFailure(WORLD, new IOException("disk gone"));
        assertEquals("world opens-1 failed to open here (disk gone); it is retried with back-off; if it keeps failing, "
                + "check the store and that every node runs the same blueprint", line);
    }
}
