package dev.orrery.engine;

import static dev.orrery.engine.Thrown.caught;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link Simulation#snapshot()} and {@link Simulation#restore} from a thread other than the
 * tick thread: a snapshot taken while the tick thread ticks reads a world being written (a
 * torn snapshot, restoring into a world no tick produced), and one taken at the end-of-tick
 * hook or while the input source hands over inputs was let through without a word; one
 * taken while a system ran was refused only because the mid-tick flag happened to be
 * visible, naming a system as the caller. Both are refused now naming both threads and the
 * fix, whatever the tick is doing, and the hand-over ({@code bindTickThread}) still works.
 *
 * <p>Synchronised by latches only (no sleeps): the tick blocks until the test has made its
 * call, so it passes however loaded the machine is. Each wait is bounded (a minute) only so
 * that a broken build fails instead of hanging.
 */
class ForeignThreadSnapshotTest {
    record Pos(float x) {
    }

    /** A snapshotted resource, counted by a system; its codec below can block a snapshot part-way. */
    static final class Counter {
        long n;
    }

    static final ResourceKey<Counter> COUNTER = ResourceKey.of("Counter", Counter.class);

    /** Where the tick thread waits: inside a system, or in the end-of-tick hook. */
    enum BlockIn { SYSTEM, END_OF_TICK }

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    private Simulation build(BlockIn where) {
        return build(where, true);
    }

    private Simulation build(BlockIn where, boolean populate) {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Field x = pos.field("x");
        Simulation sim = Simulation.builder(world).systems(s -> s
                .system("move").query(world.query().with(pos).build()).writes(pos)
                .forEachChunk(job -> job.chunk().writeFloats(x)[0]++)
                .system("wait").inPhase(Phase.POST_UPDATE).readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                    if (where == BlockIn.SYSTEM && job.resource(Simulation.CLOCK).tick() == 1) {
                        block();
                    }
                })).build();
        if (where == BlockIn.END_OF_TICK) {
            sim.atEndOfTick((tick, nanos) -> {
                if (tick == 1) {
                    block();
                }
            });
        }
        if (populate) {
            sim.world().spawn(new Pos(0));
        }
        return sim;
    }

    private void block() {
        entered.countDown();
        try {
            if (!release.await(1, TimeUnit.MINUTES)) {
                throw new AssertionError("the test never released the tick");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldRefuseASnapshotOrRestoreFromAnotherThreadWhileATickBlocksInASystem() throws Exception {
        refusesWhileTicking(BlockIn.SYSTEM);
    }

    @Test
    void shouldRefuseASnapshotOrRestoreFromAnotherThreadWhileATickIsInItsEndOfTickHook() throws Exception {
        refusesWhileTicking(BlockIn.END_OF_TICK);
    }

    private void refusesWhileTicking(BlockIn where) throws Exception {
        ExecutorService tickThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "the-tick-thread"));
        try (Simulation sim = build(where)) {
            Future<Long> ticks = tickThread.submit(() -> {
                sim.tick();
                return sim.tick(); // tick 1 blocks until released
            });
            assertTrue(entered.await(1, TimeUnit.MINUTES), "tick 1 never reached the latch");
            Throwable snap = caught(sim::snapshot);
            Throwable rest = caught(() -> sim.restore(new byte[0]));
            release.countDown();
            assertEquals(1L, ticks.get(1, TimeUnit.MINUTES), "the tick went on once released");
            for (Throwable t : new Throwable[] {snap, rest}) {
                IllegalStateException e = assertInstanceOf(IllegalStateException.class, t, where + ": refused");
                String m = e.getMessage();
                assertTrue(m.contains("'" + Thread.currentThread().getName() + "'") && m.contains("'the-tick-thread'")
                        && m.contains("atEndOfTick") && m.contains("bindTickThread"), m);
            }
            assertTrue(snap.getMessage().startsWith("Simulation.snapshot() called on thread"), snap.getMessage());
            assertTrue(rest.getMessage().startsWith("Simulation.restore() called on thread"), rest.getMessage());
            assertEquals(2, sim.currentTick(), "the refused calls changed nothing");
        } finally {
            tickThread.shutdown();
        }
    }

    @Test
    void shouldRefuseASnapshotFromAnotherThreadAfterTheTickThreadStoppedUntilItIsHandedOver() throws Exception {
        ExecutorService tickThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "the-tick-thread"));
        try (Simulation sim = build(BlockIn.SYSTEM)) {
            release.countDown(); // nothing blocks
            assertEquals(2L, tickThread.submit(() -> {
                sim.tick();
                sim.tick();
                return sim.tick();
            }).get(1, TimeUnit.MINUTES));
            // Future.get is the happens-before edge a hand-over needs; without bindTickThread the
            // simulation is still the other thread's, which might tick it again at any moment.
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, caught(sim::snapshot));
            assertTrue(e.getMessage().contains("'the-tick-thread'"), e.getMessage());
            sim.bindTickThread();
            byte[] snapshot = sim.snapshot();
            assertNotNull(snapshot);
            assertEquals(3L, sim.tick(), "this thread ticks it now");
            // a new simulation has no tick thread yet: a thread restores it, and another may then tick it
            try (Simulation restored = build(BlockIn.SYSTEM, false)) {
                restored.restore(snapshot);
                assertEquals(3L, tickThread.submit(restored::tick).get(1, TimeUnit.MINUTES));
            }
        } finally {
            tickThread.shutdown();
        }
    }

    @Test
    void shouldRefuseTheFirstTickOnAnotherThreadWhileARestoreOrSnapshotIsUnderWay() throws Exception {
        CountDownLatch inWrite = new CountDownLatch(1);
        CountDownLatch letWrite = new CountDownLatch(1);
        ResourceCodec<Counter> blocking = blockingCodec(thread -> inWrite, thread -> letWrite);
        World world = new World();
        world.component(Pos.class);
        ExecutorService snapshotter = Executors.newSingleThreadExecutor(r -> new Thread(r, "the-snapshot-thread"));
        try (Simulation sim = Simulation.builder(world).resource(COUNTER, new Counter(), blocking)
                .systems(s -> s.system("count").writesResource(COUNTER)
                        .exclusive((w, job) -> job.resourceForWrite(COUNTER).n++)).build()) {
            Future<byte[]> snapshot = snapshotter.submit(sim::snapshot); // no tick yet: any thread may
            assertTrue(inWrite.await(1, TimeUnit.MINUTES), "the snapshot never reached the codec");
            Throwable tick = caught(sim::tick);
            letWrite.countDown();
            assertNotNull(snapshot.get(1, TimeUnit.MINUTES));
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, tick, "refused mid-snapshot");
            assertTrue(e.getMessage().contains("'the-snapshot-thread'")
                    && e.getMessage().contains("Simulation.snapshot()"), e.getMessage());
            assertEquals(0, sim.currentTick(), "the refused tick did not run");
            assertNull(caught(sim::tick), "once the snapshot returned, this thread ticks");
            assertEquals(1, sim.currentTick());
        } finally {
            snapshotter.shutdown();
        }
    }

    /**
     * Two threads in a snapshot of a simulation no tick has bound, one returning first: the
     * mark that keeps a first tick off (one field, the call last begun) was cleared by the call
     * that returned, while the other still read the world, so a first tick on a third thread
     * then ran under it. Only one thread may be in a snapshot or restore before the first tick
     * (the second is refused naming the first), and a tick stays refused until that one returns.
     */
    @Test
    void shouldKeepTheFirstTickOffWhileAnyUnboundSnapshotIsUnderWayNotOnlyTheLastBegun() throws Exception {
        CountDownLatch aInWrite = new CountDownLatch(1);
        CountDownLatch letA = new CountDownLatch(1);
        CountDownLatch bSettled = new CountDownLatch(1); // b reached its write, or its snapshot returned
        CountDownLatch letB = new CountDownLatch(1);
        ResourceCodec<Counter> blocking = blockingCodec(thread -> thread.equals("snapshot-a") ? aInWrite : bSettled,
                thread -> thread.equals("snapshot-a") ? letA : letB);
        World world = new World();
        world.component(Pos.class);
        ExecutorService a = Executors.newSingleThreadExecutor(r -> new Thread(r, "snapshot-a"));
        ExecutorService b = Executors.newSingleThreadExecutor(r -> new Thread(r, "snapshot-b"));
        try (Simulation sim = Simulation.builder(world).resource(COUNTER, new Counter(), blocking)
                .systems(s -> s.system("count").writesResource(COUNTER)
                        .exclusive((w, job) -> job.resourceForWrite(COUNTER).n++)).build()) {
            Future<byte[]> first = a.submit(sim::snapshot);
            assertTrue(aInWrite.await(1, TimeUnit.MINUTES), "a's snapshot never reached the codec");
            Future<Throwable> second = b.submit(() -> {
                try {
                    return caught(sim::snapshot);
                } finally {
                    bSettled.countDown();
                }
            });
            assertTrue(bSettled.await(1, TimeUnit.MINUTES), "b's snapshot neither wrote nor returned");
            letB.countDown();
            Throwable refusedB = second.get(1, TimeUnit.MINUTES);
            Throwable tick = caught(sim::tick); // a is still in its snapshot
            long ticked = sim.currentTick();
            letA.countDown();
            assertNotNull(first.get(1, TimeUnit.MINUTES));
            assertEquals(0, ticked, "no tick ran while a's snapshot read the world");
            IllegalStateException e = assertInstanceOf(IllegalStateException.class, tick, "refused mid-snapshot");
            assertTrue(e.getMessage().contains("'snapshot-a'"), e.getMessage());
            IllegalStateException eb = assertInstanceOf(IllegalStateException.class, refusedB,
                    "a second thread's snapshot while a's runs");
            assertTrue(eb.getMessage().contains("'snapshot-a'") && eb.getMessage().contains("'snapshot-b'"),
                    eb.getMessage());
            assertNull(caught(sim::tick), "once a's snapshot returned, this thread ticks");
            assertEquals(1, sim.currentTick());
        } finally {
            a.shutdown();
            b.shutdown();
        }
    }

    /**
     * A codec for {@link Counter} whose write counts down {@code entered} (by the writing
     * thread's name) and then waits, at most a minute, for {@code let}: a snapshot held inside
     * the world's write for as long as the test needs.
     */
    private static ResourceCodec<Counter> blockingCodec(Function<String, CountDownLatch> entered,
            Function<String, CountDownLatch> let) {
        return new ResourceCodec<>() {
            @Override
            public void write(Counter value, DataOutput out) throws IOException {
                String thread = Thread.currentThread().getName();
                entered.apply(thread).countDown();
                try {
                    assertTrue(let.apply(thread).await(1, TimeUnit.MINUTES), "the test never let the write go on");
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                out.writeLong(value.n);
            }

            @Override
            public Counter read(DataInput in) throws IOException {
                Counter c = new Counter();
                c.n = in.readLong();
                return c;
            }
        };
    }
}
