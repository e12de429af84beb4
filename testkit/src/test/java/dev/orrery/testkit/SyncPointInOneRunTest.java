package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import org.junit.jupiter.api.Test;

/**
 * A sync point is seen only where a playback applied commands, so when the run to explain
 * records commands where the reference records none, its trail has one point more. The report
 * names the system whose commands make the difference, not the next system (or "something
 * outside the systems"): a spawner that spawns once, gated by a resource without a codec, spawns
 * again in the restored run (met in HerdGameTest's breeding, gated by a census without a codec,
 * reported as "after system 'wean'").
 */
class SyncPointInOneRunTest {
    /** Whether the spawner has spawned: state kept across ticks, without a codec. */
    static final ResourceKey<boolean[]> SPAWNED = ResourceKey.of("spawned", boolean[].class);

    private static Simulation build(int workers, boolean populate, Phase spawnerPhase) {
        GrowingWorld g = new GrowingWorld(populate);
        return g.builder(workers).resource(SPAWNED, new boolean[1])
                .systems(s -> {
                    s.system("spawner").inPhase(spawnerPhase).writesResource(SPAWNED).spawns(g.growth)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                boolean[] spawned = job.resourceForWrite(SPAWNED);
                                if (!spawned[0]) {
                                    job.commands().add(job.commands().spawn(), g.growth, new GrowingWorld.Growth(7));
                                    spawned[0] = true;
                                }
                            });
                    s.system("grow").query(g.growing).writes(g.growth).forEachChunk(job -> {
                        float[] v = job.chunk().writeFloats(g.size);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) v[i] += 1;
                    });
                })
                .build();
    }

    private static DeterminismFailure restored(Phase spawnerPhase) {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> DeterminismCheck.of(
                (w, p) -> build(w, p, spawnerPhase)).ticks(20).workers(1, 2).run());
        assertEquals("restored from the snapshot of tick 10 on 1 worker", f.run(), f.getMessage());
        assertEquals(10, f.tick(), f.getMessage());
        return f;
    }

    @Test
    void commandsOnlyTheRestoredRunRecordsBeforeTheNextSystemAreLaidAtTheSystemThatRecordedThem() {
        DeterminismFailure f = restored(Phase.PRE_UPDATE);
        String m = f.getMessage();
        assertEquals("spawner", f.system(), m);
        assertTrue(m.contains("first difference when the commands of system 'spawner' were applied (the sync point "
                + "before system 'grow' at tick 10"), m);
        assertFalse(m.contains("after system 'grow'"), m);
    }

    @Test
    void commandsOnlyTheRestoredRunRecordsAtTheEndOfTheTickAreLaidAtTheSystemThatRecordedThem() {
        DeterminismFailure f = restored(Phase.POST_UPDATE);
        String m = f.getMessage();
        assertEquals("spawner", f.system(), m);
        assertTrue(m.contains("first difference when the commands of system 'spawner' were applied (the sync point "
                + "at the end of tick 10"), m);
        assertFalse(m.contains("something outside the systems"), m);
    }
}
