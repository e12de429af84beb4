package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Test support: a world whose system fails under {@code FailurePolicy.STOP}, journaled up to the
 * tick that failed, for the tests of what the node and the verifiers say when that tick fails
 * again in a replay. Shared with the demo's tests through the cluster's test jar (see the
 * cluster's pom), so the world is written once.
 */
public final class StopFailingWorld {
    /** What system "step" moves. */
    public record Pos(float x) {
    }

    private StopFailingWorld() {
    }

    /**
     * System "step" moves three entities and throws "step cannot run tick N" at tick {@code throwsAt};
     * one worker, seed 1, {@code FailurePolicy.STOP}.
     *
     * @param throwsAt the tick at which "step" throws
     * @return the blueprint
     */
    public static WorldBlueprint throwingAt(long throwsAt) {
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

    /**
     * The settings the world runs under: no snapshot, so a reopening replays from tick 0.
     *
     * @return the settings
     */
    public static WorldSettings settings() {
        return WorldSettings.defaults().withSnapshotEvery(0).withKeepSnapshots(0);
    }

    /**
     * Opens {@code world} in a store in {@code dir} with {@link #throwingAt throwingAt(failing)},
     * runs ticks 0 to {@code failing - 1}, sees tick {@code failing} (journaled first) throw under
     * STOP, and lets the world go as the node's actor does.
     *
     * @param dir the store's folder
     * @param world the world's id
     * @param failing the tick that fails
     * @return the store, holding the journal up to and with tick {@code failing}
     * @throws IOException when the store cannot be written
     */
    public static WorldStore failedAt(Path dir, String world, int failing) throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime w = WorldRuntime.open(world, store, throwingAt(failing), settings());
        for (int t = 0; t < failing; t++) {
            w.tick();
        }
        assertThrows(SystemFailedException.class, w::tick);
        w.abandon();
        return store;
    }
}
