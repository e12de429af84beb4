package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RunRecorder#close()} swaps the simulation's input source and hash listener, which the
 * ticks read on plain memory, so it is for the tick thread (its Javadoc). A server's shutdown
 * thread closing the recorder while its game loop still runs was let through until the input
 * pipeline's assertion (with {@code -ea}) or a race (without), after the recorder had already
 * marked itself closed: the later close on the right thread did nothing, and the recording had
 * no end record. Now it is refused at once, naming both threads and the fix, and changes nothing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecorderCloseThreadTest {
    record Hp(int hp) {
    }

    private static Simulation sim(World world, boolean populate) {
        Component<Hp> hp = world.component(Hp.class);
        if (populate) {
            world.entity().with(hp, new Hp(5)).spawnMany(20);
        }
        return Simulation.builder(world).seed(9).systems(s -> s.system("heal").query(world.query().with(hp).build())
                .writes(hp).forEachChunk(job -> { })).build();
    }

    @Test
    void aCloseFromAnotherThreadWhileTheLoopRunsIsRefusedAndTheCloseOnTheTickThreadEndsTheRecording(@TempDir Path dir)
            throws Exception {
        Simulation sim = sim(new World(), true);
        RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder());
        Thread loop = new Thread(() -> sim.run(0, 200), "game-loop");
        loop.start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sim.currentTick() < 3) {
            assertTrue(System.nanoTime() < until, "the loop did not tick");
            Thread.sleep(5);
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, rec::close);
        String m = e.getMessage();
        assertTrue(m.startsWith("RunRecorder.close() called on thread '" + Thread.currentThread().getName()
                + "' but the simulation's tick thread is 'game-loop'"), m);
        assertTrue(m.contains("stop()") && m.contains("bindTickThread()"), m);
        assertFalse(rec.inputs().isClosed(), "the refused close changed nothing");
        sim.stop();
        loop.join();
        sim.bindTickThread(); // the loop stopped and joined: this thread may take it over
        long ticks = sim.currentTick();
        rec.close();
        assertTrue(rec.inputs().isClosed());
        try (Simulation fresh = sim(new World(), false)) {
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertTrue(r.closedCleanly(), r.cut());
            assertEquals(ticks, r.ticks(), "every tick the loop ran was recorded");
        }
        sim.close();
    }
}
