package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.TickProgress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What another thread may read of a hosted simulation, and what it may not: the tick count
 * and the last hash are published at each tick for any thread; the world and the resources
 * are the pool's, and {@code stop()}, which ends a {@code run()} the host never calls, is
 * refused naming {@code remove()}.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class HostedSimulationReadsTest {
    private static final long TARGET = 60;

    @Test
    void aThreadWaitingOnCurrentTickSeesTheHostsTicks() throws Exception {
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            Simulation sim = HostWorkload.build(5, 50);
            HostedWorld w = host.add("watched", sim, 100); // paced: the monitor spins long enough to be compiled
            AtomicLong seen = new AtomicLong(-1);
            // A busy monitor: when the tick count is a plain field, the JIT may hoist its read out
            // of the loop, and the thread then waits for ever on the value it read first.
            Thread monitor = new Thread(() -> {
                long t = sim.currentTick();
                while (t < TARGET) {
                    t = sim.currentTick(); // no call in the loop: a plain field may be read once
                }
                seen.set(t);
            }, "monitor");
            monitor.setDaemon(true); // a stale monitor must not keep the test JVM alive
            monitor.start();
            monitor.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(monitor.isAlive(), "the monitor never saw tick " + TARGET + " though the host ran "
                    + w.stats().ticks() + " ticks");
            assertTrue(seen.get() >= TARGET, String.valueOf(seen.get()));
        }
    }

    @Test
    void aMonitorReadsMonotoneProgressWhoseHashesAreTheWorldsAtTheirTicks() throws Exception {
        long ticks = 400;
        Simulation sim = HostWorkload.build(9, 200);
        Map<Long, Long> hashes = new ConcurrentHashMap<>();
        sim.hashListener((tick, hash, world) -> hashes.put(tick, hash)); // the world's own hash, on the pool thread
        List<TickProgress> seen = new ArrayList<>();
        List<Long> ticksAfter = new ArrayList<>();
        CountDownLatch first = new CountDownLatch(1);
        Thread monitor = new Thread(() -> {
            TickProgress p;
            TickProgress last = null;
            do {
                p = sim.progress();
                long after = sim.currentTick();
                if (!p.equals(last)) { // each change once: the list stays small however fast it spins
                    seen.add(p);
                    ticksAfter.add(after);
                    last = p;
                }
                first.countDown();
            } while (p.nextTick() < ticks);
        }, "monitor");
        monitor.setDaemon(true);
        monitor.start();
        assertTrue(first.await(30, TimeUnit.SECONDS)); // it read tick 0 before the host took the world
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            HostedWorld w = host.add("monitored", sim, 2000, ticks, Duration.ZERO);
            monitor.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(monitor.isAlive(), "the monitor never saw tick " + ticks);
            Simulation back = w.done().join();
            back.bindTickThread();
            assertEquals(new TickProgress(ticks, ticks - 1, hashes.get(ticks - 1)), back.progress());
            assertEquals(back.world().stateHash(), back.lastHash());
        }
        assertEquals(new TickProgress(0, -1, 0), seen.get(0));
        TickProgress before = seen.get(0);
        for (int i = 0; i < seen.size(); i++) {
            TickProgress p = seen.get(i);
            assertTrue(p.nextTick() >= before.nextTick() && p.hashedTick() >= before.hashedTick(),
                    "went back from " + before + " to " + p);
            if (p.hashed()) {
                // hashEvery(1): the hash of the last tick, or of the one before while the last is being hashed
                assertTrue(p.hashedTick() == p.nextTick() - 1 || p.hashedTick() == p.nextTick() - 2, p.toString());
                assertEquals(hashes.get(p.hashedTick()), p.hash(), "the hash read beside tick " + p.hashedTick());
            } else {
                assertEquals(0, p.hash());
                assertTrue(p.nextTick() <= 1, p.toString());
            }
            assertTrue(ticksAfter.get(i) >= p.nextTick(), "currentTick() after " + p + " was " + ticksAfter.get(i));
            before = p;
        }
        assertEquals(ticks, before.nextTick());
    }

    @Test
    void worldAndResourcesFromAnotherThreadAreRefusedNamingCallAndWorkInsideIt() throws Exception {
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            Simulation sim = HostWorkload.build(6, 50);
            HostedWorld w = host.add("guarded", sim, 200);
            for (String what : new String[] {"world", "resources", "batching", "commandTotals"}) {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> Object.class.cast(
                        switch (what) {
                            case "world" -> sim.world();
                            case "resources" -> sim.resources();
                            case "batching" -> sim.batching();
                            default -> sim.commandTotals();
                        }), what);
                String m = e.getMessage();
                assertTrue(m.startsWith("Simulation." + what + "() called on thread '" + Thread.currentThread().getName()
                        + "'") && m.contains("world 'guarded'") && m.contains("hostedWorld.call(sim -> ..."), m);
            }
            // the way that works: on the tick thread, between two ticks
            long[] inside = w.call(s -> new long[] {s.world().stateHash(), s.resources().keys().size(), s.currentTick()})
                    .get(30, TimeUnit.SECONDS);
            assertTrue(inside[1] > 0, "the resources were read");
            assertEquals(0, sim.skippedTicks(), "skipped ticks: any thread, a volatile read");
            Simulation back = w.remove().join();
            back.bindTickThread();
            assertTrue(back.currentTick() >= inside[2]);
            assertEquals(back.world().stateHash(), back.lastHash(), "unhosted, the world is the caller's again");
        }
    }

    @Test
    void stopOnAHostedSimulationIsRefusedNamingRemove() throws Exception {
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            Simulation sim = HostWorkload.build(7, 50);
            HostedWorld w = host.add("stopped", sim, 200);
            IllegalStateException e = assertThrows(IllegalStateException.class, sim::stop);
            String m = e.getMessage();
            assertTrue(m.startsWith("Simulation.stop() called while the simulation is world 'stopped' on a WorldHost")
                    && m.contains("hostedWorld.remove()"), m);
            long before = w.stats().ticks();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (w.stats().ticks() < before + 3) {
                assertTrue(System.nanoTime() - until < 0, "the world stopped ticking");
                Thread.sleep(5);
            }
            assertFalse(w.state().left(), "a refused stop() left the world hosted and ticking");
            Simulation back = w.remove().join(); // what stop() should have been
            back.bindTickThread();
            back.stop(); // the caller's again: allowed, and the next run() takes it (returns before ticking)
            long at = back.currentTick();
            back.run(2, 0);
            assertEquals(at, back.currentTick(), "the stop asked between runs ended the next one before its first tick");
            back.run(2, 0); // one stop ends one run
            assertEquals(at + 2, back.currentTick());
        }
    }

    @Test
    void stopStillEndsARunThatACallRunsOnThePool() throws Exception {
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            Simulation sim = HostWorkload.build(8, 50);
            HostedWorld w = host.add("running", sim, 100);
            CountDownLatch running = new CountDownLatch(1);
            var ran = w.call(s -> {
                long from = s.currentTick();
                s.run(0, 1000, (t, n) -> running.countDown()); // until stop(), on the pool thread's turn
                return s.currentTick() - from;
            });
            assertTrue(running.await(30, TimeUnit.SECONDS));
            sim.stop(); // from this thread: a run() is in progress, so stop() ends it
            assertTrue(ran.get(30, TimeUnit.SECONDS) >= 1);
            long before = w.stats().ticks();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (w.stats().ticks() < before + 3) { // the host ticks it again
                assertTrue(System.nanoTime() - until < 0, "the world stopped ticking");
                Thread.sleep(5);
            }
            // inside the run, on the pool thread, stop() from its listener works as alone
            long ticks = w.call(s -> {
                long from = s.currentTick();
                s.run(0, 0, (t, n) -> {
                    if (t - from >= 4) {
                        s.stop();
                    }
                });
                return s.currentTick() - from;
            }).get(30, TimeUnit.SECONDS);
            assertEquals(5, ticks);
        }
    }
}
