package dev.orrery.demo.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.StopFailingWorld;
import dev.orrery.cluster.world.WorldBlueprint;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --cluster-verify}'s line for a world whose journaled tick fails again in the
 * verifier's replay: the tick that failed under {@code STOP} (journaled last) names the system,
 * the tick and the fixes, as the node says it, not "run the verification again", which would
 * fail the same way; any other failure keeps that advice. The world is the cluster tests'
 * {@link StopFailingWorld} (from the cluster's test jar).
 */
class ClusterVerifyReplayFailureTest {
    private static final String WORLD = "stops-1";

    @TempDir
    Path dir;

    private String verify(WorldStore store, WorldBlueprint blueprint, List<String> ids) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int failed = ClusterDemo.verifyWorlds(store, ids, blueprint, new PrintStream(bytes, true,
                StandardCharsets.UTF_8));
        assertEquals(1, failed);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theTickThatFailedUnderStopIsExplainedNotSentToARetry() throws IOException {
        WorldStore store = StopFailingWorld.failedAt(dir, WORLD, 4); // tick 4 journaled, then failed under STOP
        String line = verify(store, StopFailingWorld.throwingAt(4), List.of(WORLD));
        assertEquals("verify: FAILED stops-1: system 'step' fails in the replay of journaled tick 4 "
                + "(java.lang.IllegalStateException: step cannot run tick 4), as it failed when that tick ran under "
                + "FailurePolicy.STOP; fix the system in the blueprint (every node), or make the blueprint's "
                + "failure policy SKIP_TICK to skip that tick" + System.lineSeparator(), line);
        assertFalse(line.contains("run the verification again"), line);
    }

    @Test
    void anyOtherFailureStillSaysToRunItAgain() throws IOException {
        String line = verify(new DirectoryWorldStore(dir), StopFailingWorld.throwingAt(4), List.of("missing-1"));
        assertTrue(line.startsWith("verify: FAILED missing-1: world 'missing-1' has no journal in "), line);
        assertTrue(line.contains("(if the nodes are running and moved or cleaned up the world meanwhile, run the "
                + "verification again)"), line);
    }
}
