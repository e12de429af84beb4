package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.scheduler.SystemFailedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * What stopped a run ({@code stoppedBy}: the tick that failed under {@code FailurePolicy.STOP})
 * is cleared as the next tick begins, before it takes its inputs: it used to be cleared only
 * after the input source's {@code beginTick} returned, so a reader while that next tick waited
 * for its inputs (a source that blocks) read "tick N failed ... no tick has run since" of a run
 * that was ticking again. The interleaving is fixed with latches inside the source's
 * {@code beginTick}: no clock.
 */
class StoppedByClearedTest {

    @Test
    void theFailureIsClearedBeforeTheNextTickTakesItsInputs() throws Exception {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(0)).spawnMany(4);
        AtomicBoolean armed = new AtomicBoolean(true);
        ExecutorService tickThread = Executors.newSingleThreadExecutor();
        Simulation sim = Simulation.builder(world).seed(1).workers(1).hashEvery(0)
                .systems(s -> s.system("fragile").query(world.query().with(hp).build()).reads(hp).forEachChunk(job -> {
                    if (armed.getAndSet(false)) {
                        throw new IllegalStateException("not yet");
                    }
                })).build();
        try {
            ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> tickThread.submit(sim::tick).get(60, TimeUnit.SECONDS));
            assertTrue(failed.getCause() instanceof SystemFailedException, String.valueOf(failed.getCause()));
            String stopped = EngineInternals.stoppedBy(sim);
            assertTrue(stopped != null && stopped.startsWith("tick 0 failed under FailurePolicy.STOP"), stopped);

            // The next tick reads a new source (so it asks beginTick), which waits inside beginTick.
            CountDownLatch inBeginTick = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            InputBatch empty = new InputBatch();
            tickThread.submit(() -> sim.inputs(new InputSource() {
                @Override
                public InputBatch beginTick(long tick) {
                    inBeginTick.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    empty.reset(tick);
                    return empty;
                }

                @Override
                public void recordHash(long tick, long stateHash) {
                }
            })).get(60, TimeUnit.SECONDS);
            Future<Long> retry = tickThread.submit(sim::tick);
            assertTrue(inBeginTick.await(60, TimeUnit.SECONDS), "the retry reached beginTick");
            try {
                assertNull(EngineInternals.stoppedBy(sim), "the retry has begun: the failure no longer stops the run");
            } finally {
                release.countDown();
            }
            assertEquals(0L, retry.get(60, TimeUnit.SECONDS), "the failed tick ran again");
            assertNull(EngineInternals.stoppedBy(sim));
        } finally {
            tickThread.submit(sim::close).get(60, TimeUnit.SECONDS); // on the thread that ticked it
            tickThread.shutdownNow();
        }
    }
}
