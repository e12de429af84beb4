package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.Simulation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The check's replays compare every tick with the reference, not only the ticks the recording
 * hashed: a game built with {@code hashEvery(0)} journals no hash, so its replay checked no tick
 * and only the end state was compared, and one built with {@code hashEvery(2)} checked every
 * other tick; a replay whose state differed mid-run and agreed again by the end (or by the next
 * hashed tick) passed. The game here does that: in a replay (a simulation built empty, then
 * restored) its walker jumps 100 ahead at tick 1 and back at tick 2.
 */
class ReplayEveryTickTest {
    record Pos(float x) {
    }

    /**
     * A walker that moves 1 a tick; when {@code flawed}, a simulation built empty (a replay's)
     * jumps at tick 1 and back at tick 2.
     */
    static SimulationFactory game(int hashEvery, boolean flawed) {
        return (workers, populate) -> {
            World world = new World();
            Component<Pos> pos = world.component(Pos.class);
            if (populate) {
                world.spawn(new Pos(0));
            }
            return Simulation.builder(world).workers(workers).seed(5).hashEvery(hashEvery).systems(s -> s
                    .system("walk").query(world.query().with(pos).build()).writes(pos)
                    .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                        long t = job.resource(Simulation.CLOCK).tick();
                        float jump = populate || !flawed ? 0 : t == 1 ? 100 : t == 2 ? -100 : 0;
                        float[] x = job.chunk().writeFloats(pos.field("x"));
                        for (int i = 0; i < job.chunk().size(); i++) {
                            x[i] += 1 + jump;
                        }
                    })).build();
        };
    }

    private static DeterminismCheck check(int hashEvery) {
        return DeterminismCheck.of(game(hashEvery, true)).ticks(6).workers(1).snapshotAt(0).reverseJobOrder(false)
                .flipSystemOrder(false);
    }

    @Test
    void aReplayThatDiffersMidRunAndAgreesByTheEndFailsAtTheTickItDiffers() {
        for (int hashEvery : new int[] {0, 2}) {
            DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(hashEvery).run(),
                    "hashEvery(" + hashEvery + ")");
            assertEquals("the recording replayed on 1 worker", f.run(), f.getMessage());
            assertEquals(1, f.tick(), f.getMessage());
            assertTrue(f.getMessage().startsWith("determinism check failed: the recording replayed on 1 worker differs "
                    + "from the reference (1 worker) at tick 1\n"), f.getMessage());
            assertTrue(f.getMessage().contains("Pos.x: 2.0 in the reference, 102.0 here"), f.getMessage());
        }
    }

    @Test
    void aGameThatReplaysTheSameOnEveryTickPasses() {
        List<String> runs = DeterminismCheck.of(game(0, false)).ticks(6).workers(1).snapshotAt(0).run();
        assertTrue(runs.contains("the recording replayed on 1 worker"), runs.toString());
    }
}
