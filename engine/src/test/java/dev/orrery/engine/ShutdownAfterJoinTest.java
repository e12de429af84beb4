package dev.orrery.engine;

import static dev.orrery.engine.Thrown.caught;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A newcomer's shutdown: a loop thread runs the simulation with a {@link RunRecorder} or an
 * {@link InputPipeline} attached; the main thread stops the run, {@code join()}s the loop
 * thread and closes things in whichever order it writes them, without
 * {@code bindTickThread()}. That was refused: {@code RunRecorder.close()} with an
 * {@code IllegalStateException} naming the loop thread, {@code InputPipeline.close()} (on its
 * own, or from the recorder's close after {@code sim.close()}, whose {@code bindTickThread()}
 * no longer reaches the input source) with an assertion under {@code -ea}, and
 * {@code Simulation.snapshot()} as well. A tick thread that has terminated counts as released
 * now (its end happens-before the {@code isAlive()} that sees it, JLS 17.4.4): the calling
 * thread takes the simulation over, as {@code bindTickThread()} would. One that is alive but
 * idle (a pool's thread) is still the tick thread, and the calls are refused as before.
 *
 * <p>No waits on time: the loop thread signals a latch from its end-of-tick hook, and every
 * hand-over is a {@code join()} or a latch.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShutdownAfterJoinTest {
    record Hp(int hp) {
    }

    private static Simulation sim(World world, boolean populate, InputPipeline inputs) {
        Component<Hp> hp = world.component(Hp.class);
        if (populate) {
            world.entity().with(hp, new Hp(5)).spawnMany(20);
        }
        SimulationBuilder b = Simulation.builder(world).seed(9).systems(s -> s.system("heal")
                .query(world.query().with(hp).build()).writes(hp).forEachChunk(job -> { }));
        if (inputs != null) {
            b.inputs(inputs);
        }
        return b.build();
    }

    /** Runs {@code sim} on a loop thread until it has ticked 3 times, stops it and joins the thread. */
    private static void runAndJoinTheLoop(Simulation sim) throws InterruptedException {
        CountDownLatch ticked = new CountDownLatch(1);
        sim.atEndOfTick((tick, nanos) -> {
            if (tick == 2) {
                ticked.countDown();
            }
        });
        AtomicReference<Throwable> loopThrew = new AtomicReference<>();
        Thread loop = new Thread(() -> {
            try {
                sim.run(0, 0);
            } catch (Throwable t) {
                loopThrew.set(t);
                ticked.countDown();
            }
        }, "game-loop");
        loop.start();
        Latches.await(ticked);
        sim.stop();
        loop.join();
        assertNull(loopThrew.get(), "the loop ran");
        assertTrue(sim.currentTick() >= 3, "the loop ticked");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void theRecorderAndTheSimulationCloseInEitherOrderOnceTheLoopJoined(boolean recorderFirst, @TempDir Path dir)
            throws Exception {
        Simulation sim = sim(new World(), true, null);
        RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder());
        assertTrue(rec.inputs().tryPublish(1, 7, null, 0, 0));
        runAndJoinTheLoop(sim);
        long ticks = sim.currentTick();
        if (recorderFirst) {
            rec.close(); // was: refused naming 'game-loop', the recorder left recording
            sim.close();
        } else {
            sim.close();
            rec.close(); // was: the pipeline's close tripped its tick-thread assertion (with -ea)
        }
        assertTrue(rec.inputs().isClosed(), "the recording's pipeline closed");
        try (Simulation fresh = sim(new World(), false, null)) {
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertTrue(r.closedCleanly(), r.cut());
            assertEquals(ticks, r.ticks(), "every tick the loop ran was recorded, and the end record written");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void thePipelineAndTheSimulationCloseInEitherOrderOnceTheLoopJoined(boolean pipelineFirst) throws Exception {
        InputPipeline inputs = InputPipeline.builder().build();
        Simulation sim = sim(new World(), true, inputs);
        assertTrue(inputs.tryPublish(1, 7, null, 0, 0));
        runAndJoinTheLoop(sim);
        assertEquals(1, inputs.drainedCount(), "the loop's ticks drained the input");
        if (pipelineFirst) {
            inputs.close(); // was: an AssertionError naming 'game-loop' (with -ea)
            sim.close();
        } else {
            sim.close();
            inputs.close(); // was: the same assertion, and sim.bindTickThread() after the close did not help
        }
        assertTrue(inputs.isClosed());
        assertFalse(inputs.tryPublish(1, 7, null, 0, 0), "a closed pipeline takes no more inputs");
    }

    @Test
    void theThreadThatJoinedTheLoopSnapshotsAndTicksOn() throws Exception {
        InputPipeline inputs = InputPipeline.builder().build();
        try (Simulation sim = sim(new World(), true, inputs)) {
            runAndJoinTheLoop(sim);
            long next = sim.currentTick();
            byte[] snapshot = sim.snapshot(); // was: refused naming 'game-loop'
            // Taken over whole, as bindTickThread() does: the executor's owner and the input source too.
            assertTrue(inputs.tryPublish(2, 7, null, 0, 0));
            assertEquals(next, sim.tick(), "this thread ticks it now");
            assertEquals(1, inputs.drainedCount(), "its tick drained the input on this thread");
            try (Simulation restored = sim(new World(), false, null)) {
                restored.restore(snapshot);
                assertEquals(next, restored.currentTick(), "the snapshot holds the world the loop left");
                assertArrayEquals(snapshot, restored.snapshot());
            }
            inputs.close();
        }
    }

    @Test
    void aTickThreadThatIsAliveButIdleIsStillTheTickThread(@TempDir Path dir) throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "pool-loop"));
        Simulation sim = sim(new World(), true, null);
        try {
            RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder());
            assertEquals(2L, pool.submit(() -> {
                sim.run(3, 0);
                return sim.currentTick() - 1;
            }).get(1, TimeUnit.MINUTES)); // an edge from its last tick, but the thread lives on and may tick again
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, caught(() -> {
                try {
                    rec.close();
                } catch (java.io.IOException io) {
                    throw new java.io.UncheckedIOException(io);
                }
            }));
            assertTrue(e.getMessage().startsWith("RunRecorder.close() called on thread '"
                    + Thread.currentThread().getName() + "' but the simulation's tick thread is 'pool-loop'"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("join") && e.getMessage().contains("bindTickThread()"), e.getMessage());
            assertFalse(rec.inputs().isClosed(), "the refused close changed nothing");
            Throwable snap = caught(sim::snapshot);
            assertInstanceOf(IllegalStateException.class, snap, "a snapshot is refused too");
            assertTrue(snap.getMessage().contains("'pool-loop'"), snap.getMessage());
            Throwable pipe = caught(rec.inputs()::close);
            assertInstanceOf(AssertionError.class, pipe, "the pipeline's own close too (with -ea)");
            assertTrue(pipe.getMessage().contains("'pool-loop'") && pipe.getMessage().contains("bindTickThread()"),
                    pipe.getMessage());
            assertFalse(rec.inputs().isClosed());
            sim.bindTickThread(); // the explicit hand-over for a thread that lives on
            rec.close();
            assertTrue(rec.inputs().isClosed());
        } finally {
            pool.shutdown();
            sim.close();
        }
    }

    @Test
    void theThreadThatTookTheSimulationOverIsItsTickThreadWhileItLives() throws Exception {
        Simulation sim = sim(new World(), true, null);
        try {
            runAndJoinTheLoop(sim);
            CountDownLatch tookOver = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<Throwable> threw = new AtomicReference<>();
            Thread saver = new Thread(() -> {
                try {
                    sim.snapshot(); // takes over from the ended loop
                } catch (Throwable t) {
                    threw.set(t);
                }
                tookOver.countDown();
                Latches.await(release);
            }, "saver");
            saver.start();
            Latches.await(tookOver);
            assertNull(threw.get(), "the first thread after the loop ended took it over");
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, caught(sim::snapshot));
            assertTrue(e.getMessage().contains("tick thread is 'saver'"), "one taker at a time: " + e.getMessage());
            release.countDown();
            saver.join();
            assertTrue(sim.snapshot().length > 0, "and after it ended, the next thread takes it over");
        } finally {
            sim.close();
        }
    }
}
