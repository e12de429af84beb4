package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hosted world keeps its own inputs and journal: inputs published from another thread
 * while the pool's threads take turns ticking it are consumed and journaled, and the
 * recording replays alone, on one thread, to the same hashes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostedRecordingTest {
    private static final int TICKS = 80;
    private static final int AGENTS = 200;

    @Test
    void inputsPublishedToAHostedWorldAreJournaledAndItsRecordingReplaysAlone(@TempDir Path dir) throws Exception {
        Simulation sim = HostWorkload.build(21, AGENTS);
        // The most entities alive at the end of any tick: above AGENTS only in a tick whose SPAWN
        // inputs added agents beyond the top-up. (The last tick alone may have had no input.)
        int[] most = {0};
        sim.atEndOfTick((tick, nanos) -> most[0] = Math.max(most[0], sim.world().entityCount()));
        RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(1024));
        int published = 0;
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            for (int i = 0; i < 6; i++) {
                host.add("neighbour-" + i, HostWorkload.build(i, 300), 0);
            }
            HostedWorld w = host.add("recorded", sim, 400, TICKS, Duration.ZERO);
            byte[] spawnThree = ByteBuffer.allocate(4).putInt(3).array();
            while (!w.done().isDone()) {
                if (rec.inputs().tryPublish(7, HostWorkload.SPAWN, spawnThree, 0, 4)) {
                    published++;
                }
                Thread.sleep(1);
            }
            w.done().join();
        }
        sim.bindTickThread(); // done() ordered the pool's last tick before this
        rec.close();
        long consumed = rec.inputs().acceptedCount() - rec.inputs().pendingCount();
        assertTrue(published > 5 && consumed > 5, "inputs reached the hosted world: published " + published
                + ", consumed " + consumed);
        assertTrue(most[0] > AGENTS, "spawn inputs grew the world: at most " + most[0] + " entities at a tick's end");

        try (Simulation fresh = HostWorkload.restoreTarget(21, AGENTS)) {
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertEquals(TICKS, r.ticks());
            assertEquals(TICKS, r.hashesChecked(), "every tick's journaled hash matched on replay");
            assertEquals(sim.lastHash(), r.finalHash());
            assertTrue(r.closedCleanly());
        }
        sim.close();
    }
}
