package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a replay's divergence says about where it differs, each from a recording replayed into
 * a simulation built otherwise ({@link RecordedReplays#record}, {@link RecordedReplays#replayDiverges}).
 * (Was FirstTickDivergenceTest and PairOnlyDivergenceTest, which repeated the record-and-replay steps.)
 */
class ReplayDivergenceDetailTest {
    record Pos(float x) {}

    @TempDir
    Path dir;

    /**
     * A replay from a recording's own start snapshot that differs at the first tick: the message
     * named "no hash after tick -1" and "may not be a snapshot of the recorded run", and blamed
     * non-determinism alone, where the usual cause (a golden recording replayed after a change to a
     * system) is that the game's code changed.
     */
    @Test
    void aReplayFromTheStartThatDiffersAtOnceNamesAChangedGameNotAForeignSnapshot() throws Exception {
        Path recording = dir.resolve("run");
        RecordedReplays.record(RecordedReplays.growing(1, true), recording, 3);
        try (Simulation changed = RecordedReplays.growing(2, false)) {
            ReplayDivergenceException e = RecordedReplays.replayDiverges(recording, changed);
            String m = e.getMessage();
            assertEquals(0, e.tick(), m);
            assertFalse(m.contains("tick -1"), m);
            assertFalse(m.contains("may not be a snapshot of the recorded run"), m);
            assertTrue(m.contains("the first tick of the recording, replayed from its own start snapshot"), m);
            assertTrue(m.contains("the game's code changed since the recording"), m);
        }
    }

    /** Four entities; at tick 2 entity 0 comes to like 1 and then {@code second}. */
    private static Simulation befriending(int second, boolean populate) {
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

    /**
     * Record and replay x relations: a replay that differs from its recording only in a relation's
     * pairs (a second target, which the marker column does not hold) matches every recorded column
     * hash, so the divergence's detail must not say that only the entity table or the archetype
     * layout can differ: it names the relations the world registered as the other suspects.
     */
    @Test
    void aReplayWhosePairsAloneDifferNamesTheRelationsAmongTheSuspects() throws Exception {
        Path recording = dir.resolve("run");
        RecordedReplays.record(befriending(2, true), recording, 5);
        try (Simulation other = befriending(3, false)) {
            ReplayDivergenceException e = RecordedReplays.replayDiverges(recording, other);
            assertEquals(2, e.tick(), e.getMessage());
            assertTrue(e.getMessage().contains("every component's values match; the entity table (ids, generations, "
                    + "free list), the archetype layout or the pairs of a relation ([Likes]) differ"), e.getMessage());
        }
    }
}
