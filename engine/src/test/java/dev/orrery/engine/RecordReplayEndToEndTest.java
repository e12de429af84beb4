package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 1 000 ticks of the arena with random inputs published from another thread while it runs,
 * recorded with 2 workers and a state hash every tick, then replayed with 1, 2 and 4
 * workers: every hash must match (the journal source checks each one). Also replays from a
 * snapshot taken mid-run, and shows a divergence is reported at its first tick with the
 * component that differs.
 */
class RecordReplayEndToEndTest {
    static final int TICKS = 1000;

    /**
     * The recording's outcome; {@code entitiesAfter[t]} and {@code damageAfter[t]} are the
     * entity count and the total damage dealt after tick {@code t}.
     */
    record Recorded(long finalHash, byte[] midSnapshot, int[] entitiesAfter, long[] damageAfter) {
    }

    static Recorded record(Path dir) throws Exception {
        byte[] mid = null;
        int[] entitiesAfter = new int[TICKS];
        long[] damageAfter = new long[TICKS];
        try (Simulation sim = ArenaWorkload.build(99, 2, true, 1);
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(1024).maxPayloadBytes(16))) {
            AtomicBoolean done = new AtomicBoolean();
            AtomicInteger published = new AtomicInteger();
            Thread client = new Thread(() -> {
                Random r = new Random(5);
                while (!done.get()) {
                    byte[] p = r.nextBoolean()
                            ? ByteBuffer.allocate(12).putInt(1 + r.nextInt(30)).putFloat(r.nextFloat()).putFloat(r.nextFloat()).array()
                            : ByteBuffer.allocate(4).putInt(1 + r.nextInt(20)).array();
                    int type = p.length == 12 ? ArenaWorkload.SPAWN : ArenaWorkload.DAMAGE;
                    if (rec.inputs().tryPublish(r.nextInt(4), type, p, 0, p.length)) {
                        published.incrementAndGet();
                    }
                    Thread.onSpinWait();
                    if (r.nextInt(50) == 0) {
                        Thread.yield();
                    }
                    try {
                        Thread.sleep(0, 200_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "test-client");
            client.start();
            try {
                for (int t = 0; t < TICKS; t++) {
                    // Inputs arrive whenever the client gets a core, but never fall behind one per
                    // ten ticks: on a loaded machine the ticks could otherwise outrun the client.
                    while (published.get() < t / 10 && client.isAlive()) {
                        Thread.onSpinWait();
                    }
                    sim.tick();
                    entitiesAfter[t] = sim.world().entityCount();
                    damageAfter[t] = sim.resources().get(ArenaWorkload.STATS).damage;
                    if (t == 499) {
                        mid = sim.snapshot();
                    }
                }
            } finally {
                done.set(true);
                client.join();
            }
            assertTrue(rec.inputs().drainedCount() > 50, "the run must consume real inputs, got "
                    + rec.inputs().drainedCount());
            return new Recorded(sim.world().stateHash(), mid, entitiesAfter, damageAfter);
        }
    }

    @Test
    void shouldReplayBitForBitOnAnyWorkerCountAndFromAMidRunSnapshot(@TempDir Path dir) throws Exception {
        Recorded recorded = record(dir);
        for (int workers : new int[] {1, 2, 4}) {
            try (Simulation fresh = ArenaWorkload.build(99, workers, false, 1)) {
                RunReplayer.Result r = RunReplayer.replay(dir, fresh);
                assertEquals(TICKS, r.ticks(), workers + " workers");
                assertEquals(TICKS, r.hashesChecked(), "a hash checked at every tick with " + workers + " workers");
                assertEquals(recorded.finalHash(), r.finalHash());
            }
        }
        try (Simulation fresh = ArenaWorkload.build(99, 2, false, 1)) {
            RunReplayer.Result r = RunReplayer.replay(dir, recorded.midSnapshot(), fresh);
            assertEquals(500, r.ticks());
            assertEquals(500, r.hashesChecked());
            assertEquals(recorded.finalHash(), r.finalHash());
        }
        assertTrue(Files.size(dir.resolve(RunRecorder.JOURNAL)) > 0);
    }

    @Test
    void shouldStopAtTheFirstDivergingTickNamingTheComponent(@TempDir Path dir) throws Exception {
        Recorded recorded = record(dir);
        // The sabotage pushes one agent, so the divergence shows only if that agent lives
        // through the tick. The client's damage inputs arrive at whatever rate its thread
        // gets, and can empty the world or kill that agent on the tick itself; so take the
        // first tick from 300 on that starts with agents and deals no damage (every agent
        // alive at its start has hp > 0, since the last tick reaped the rest).
        int sabotage = 300;
        while (sabotage < TICKS && (recorded.entitiesAfter()[sabotage - 1] == 0
                || recorded.damageAfter()[sabotage] != recorded.damageAfter()[sabotage - 1])) {
            sabotage++;
        }
        assertTrue(sabotage < TICKS, "no tick from 300 on started with agents and dealt no damage");
        long at = sabotage;
        try (Simulation buggy = ArenaWorkload.build(99, 2, false, 1, at)) {
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> RunReplayer.replay(dir, buggy));
            assertEquals(at, e.tick(), e.getMessage());
            assertTrue(e.detail() != null && e.detail().contains("Vel"), e.getMessage());
            assertTrue(e.getMessage().contains("Vel") && !e.detail().contains("Hp"), e.getMessage());
        }
    }
}
