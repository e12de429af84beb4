package dev.orrery.demo.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.cluster.world.WorldRuntime;
import dev.orrery.cluster.world.WorldSettings;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.SystemFailedException;
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
 * fail the same way; any other failure keeps that advice.
 */
class ClusterVerifyReplayFailureTest {
    private static final String WORLD = "stops-1";

    record Pos(float x) {
    }

    @TempDir
    Path dir;

    /** System "step" moves a few entities and throws at tick {@code throwsAt}; STOP. */
    private static WorldBlueprint throwingAt(long throwsAt) {
        return (worldId, populate) -> {
            World world = new World(256);
            Component<Pos> pos = world.component(Pos.class);
            if (populate) {
                world.entity().with(pos, new Pos(0)).spawnMany(3);
            }
            Field px = pos.field("x");
            SimulationBuilder b = Simulation.builder(world).seed(1).workers(1).onSystemFailure(FailurePolicy.STOP);
            Resources res = b.resources();
            return b.systems(s -> s.system("step").query(world.query().with(pos).build()).writes(pos)
                    .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                        if (res.get(Simulation.CLOCK).tick() == throwsAt) {
                            throw new IllegalStateException("step cannot run tick " + throwsAt);
                        }
                        job.chunk().writeFloats(px)[0] += 1;
                    })).build();
        };
    }

    private String verify(WorldStore store, WorldBlueprint blueprint, List<String> ids) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int failed = ClusterDemo.verifyWorlds(store, ids, blueprint, new PrintStream(bytes, true,
                StandardCharsets.UTF_8));
        assertEquals(1, failed);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theTickThatFailedUnderStopIsExplainedNotSentToARetry() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime w = WorldRuntime.open(WORLD, store, throwingAt(4),
                WorldSettings.defaults().withSnapshotEvery(0).withKeepSnapshots(0));
        for (int t = 0; t < 4; t++) {
            w.tick();
        }
        assertThrows(SystemFailedException.class, w::tick); // tick 4 journaled, then failed under STOP
        w.abandon();

        String line = verify(store, throwingAt(4), List.of(WORLD));
        assertEquals("verify: FAILED stops-1: system 'step' fails in the replay of journaled tick 4 "
                + "(java.lang.IllegalStateException: step cannot run tick 4), as it failed when that tick ran under "
                + "FailurePolicy.STOP; fix the system in the blueprint (every node), or make the blueprint's "
                + "failure policy SKIP_TICK to skip that tick" + System.lineSeparator(), line);
        assertFalse(line.contains("run the verification again"), line);
    }

    @Test
    void anyOtherFailureStillSaysToRunItAgain() throws IOException {
        String line = verify(new DirectoryWorldStore(dir), throwingAt(4), List.of("missing-1"));
        assertTrue(line.startsWith("verify: FAILED missing-1: world 'missing-1' has no journal in "), line);
        assertTrue(line.contains("(if the nodes are running and moved or cleaned up the world meanwhile, run the "
                + "verification again)"), line);
    }
}
