package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Record and replay x relations: a replay that differs from its recording only in a relation's
 * pairs (a second target, which the marker column does not hold) matches every recorded column
 * hash, so the divergence's detail must not say that only the entity table or the archetype
 * layout can differ: it names the relations the world registered as the other suspects.
 */
class PairOnlyDivergenceTest {
    record Pos(float x) {}

    @TempDir
    Path dir;

    /** Four entities; at tick 2 entity 0 comes to like 1 and then {@code second}. */
    private static Simulation build(int second, boolean populate) {
        World world = new World();
        world.component(Pos.class);
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        for (int i = 0; populate && i < 4; i++) {
            world.spawn(new Pos(i));
        }
        return Simulation.builder(world).workers(1).seed(5)
                .systems(s -> s.system("befriend").readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                    if (job.resource(Simulation.CLOCK).tick() == 2) {
                        long[] all = new long[4];
                        int[] n = {0};
                        w.query().build().forEach((view, row) -> all[n[0]++] = view.entity(row));
                        w.relations().add(all[0], likes, all[1]);
                        w.relations().add(all[0], likes, all[second]);
                    }
                }))
                .build();
    }

    @Test
    void aReplayWhosePairsAloneDifferNamesTheRelationsAmongTheSuspects() throws Exception {
        Path recording = dir.resolve("run");
        try (Simulation sim = build(2, true)) {
            RunRecorder recorder = RunRecorder.start(sim, recording, InputPipeline.builder());
            sim.run(5, 0);
            recorder.close();
        }
        try (Simulation other = build(3, false)) {
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> RunReplayer.replay(recording, other));
            assertEquals(2, e.tick(), e.getMessage());
            assertTrue(e.getMessage().contains("every component's values match; the entity table (ids, generations, "
                    + "free list), the archetype layout or the pairs of a relation ([Likes]) differ"), e.getMessage());
        }
    }
}
