package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RunRecorder x Simulation.restore: a recording's start snapshot is the world when the
 * recorder started, so a restore after the start would make the journal's ticks follow a world
 * the recording does not hold, and its replay would not reproduce the run. A restore while a
 * recorder records is refused, naming the recorder and the fix; a restore before the start is
 * recorded and replays to the live run's hash.
 */
class RestoreWhileRecordingTest {
    record Hp(int hp) {
    }

    private static Simulation sim(World world) {
        Component<Hp> hp = world.component(Hp.class);
        Field f = hp.field("hp");
        return Simulation.builder(world).seed(5).systems(s -> s.system("age").query(world.query().with(hp).build())
                .writes(hp).forEachChunk(job -> {
                    int[] v = job.chunk().writeInts(f);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        v[i] += 1;
                    }
                })).build();
    }

    /** A snapshot of a run of 20 entities after 10 ticks. */
    private static byte[] snapshotAfterTenTicks() {
        World w = new World();
        try (Simulation s = sim(w)) {
            w.entity().with(w.component(Hp.class), new Hp(3)).spawnMany(20);
            for (int t = 0; t < 10; t++) {
                s.tick();
            }
            return s.snapshot();
        }
    }

    @Test
    void shouldRefuseARestoreWhileARecorderRecords(@TempDir Path dir) throws Exception {
        byte[] snapshot = snapshotAfterTenTicks();
        World world = new World();
        try (Simulation live = sim(world); RunRecorder rec = RunRecorder.start(live, dir, InputPipeline.builder())) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> live.restore(snapshot),
                    "a restore after RunRecorder.start would leave the recording's start snapshot the empty world");
            assertTrue(e.getMessage().contains("RunRecorder") && e.getMessage().contains("before RunRecorder.start"),
                    e.getMessage());
            assertEquals(0, world.entityCount(), "nothing restored");
            assertEquals(0, live.currentTick());
        }
    }

    @Test
    void shouldReplayARunRestoredBeforeTheRecorderStarted(@TempDir Path dir) throws Exception {
        byte[] snapshot = snapshotAfterTenTicks();
        long liveHash;
        try (Simulation live = sim(new World())) {
            live.restore(snapshot);
            try (RunRecorder rec = RunRecorder.start(live, dir, InputPipeline.builder())) {
                for (int t = 0; t < 15; t++) {
                    live.tick();
                }
            }
            liveHash = live.world().stateHash();
        }
        try (Simulation fresh = sim(new World())) {
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertEquals(15, r.ticks());
            assertEquals(liveHash, fresh.world().stateHash(), "the replay reproduces the restored run");
            assertEquals(25, fresh.currentTick());
        }
    }
}
