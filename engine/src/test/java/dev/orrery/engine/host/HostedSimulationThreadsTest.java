package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Phase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hosted simulation is the host's: a call from another thread (a snapshot, a tick, a close,
 * a recorder, a setter) is refused with a message naming the world and the fix rather than
 * racing the pool thread that ticks it; a simulation that another thread ticks right now is
 * not taken; and once the world left, the thread that takes it back may do all of it again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostedSimulationThreadsTest {

    @Test
    void callsFromAnotherThreadOnAHostedSimulationAreRefusedNamingTheWorldAndTheFix(@TempDir Path dir) throws Exception {
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            host.add("neighbour", HostWorkload.build(1, 100), 300);
            Simulation sim = HostWorkload.build(2, 200);
            HostedWorld w = host.add("guarded", sim, 300);
            eventually(() -> w.stats().ticks() > 3);
            Path recording = dir.resolve("rec");
            Map<String, Executable> calls = new LinkedHashMap<>();
            calls.put("Simulation.snapshot()", sim::snapshot);
            calls.put("Simulation.tick()", sim::tick);
            calls.put("Simulation.run()", () -> sim.run(1, 0));
            calls.put("Simulation.close()", sim::close);
            calls.put("Simulation.bindTickThread()", sim::bindTickThread);
            calls.put("Simulation.restore()", () -> sim.restore(new byte[0]));
            calls.put("Simulation.atEndOfTick()", () -> sim.atEndOfTick((t, n) -> { }));
            calls.put("Simulation.inputs()", () -> sim.inputs(InputPipeline.builder().build()));
            calls.put("Simulation.watchdog()", () -> sim.watchdog(0, null));
            calls.put("RunRecorder.start()", () -> RunRecorder.start(sim, recording, InputPipeline.builder()));
            for (Map.Entry<String, Executable> call : calls.entrySet()) {
                IllegalStateException e = assertThrows(IllegalStateException.class, call.getValue(), call.getKey());
                String m = e.getMessage();
                assertTrue(m.startsWith(call.getKey() + " called on thread '" + Thread.currentThread().getName() + "'"), m);
                assertTrue(m.contains("world 'guarded'") && m.contains("hostedWorld.call(") && m.contains("remove()"), m);
            }
            assertFalse(Files.exists(recording), "a refused recorder made no folder");
            long before = w.stats().ticks();
            eventually(() -> w.stats().ticks() > before + 5); // none of it stopped or broke the world
            assertFalse(w.state().left(), w.state().toString());
            byte[] snap = w.call(Simulation::snapshot).get(20, TimeUnit.SECONDS); // the way that works
            assertTrue(snap.length > 0);
            // closing it on its own turn would fail its next tick with a bare "simulation is closed"
            java.util.concurrent.ExecutionException closing = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> w.call(s -> {
                        s.close();
                        return null;
                    }).get(20, TimeUnit.SECONDS));
            String why = closing.getCause().getMessage();
            assertTrue(closing.getCause() instanceof IllegalStateException && why.contains("world 'guarded'")
                    && why.contains("hostedWorld.remove().join()"), why);
            long afterClose = w.stats().ticks();
            eventually(() -> w.stats().ticks() > afterClose + 5); // still ticking: nothing was closed
            assertFalse(w.state().left(), w.state().toString());

            Simulation back = w.remove().join();
            back.bindTickThread(); // ours now: everything is allowed again
            long at = back.currentTick();
            back.tick();
            assertEquals(at + 1, back.currentTick());
            assertTrue(back.snapshot().length > 0);
            back.close();
        }
    }

    @Test
    void aSimulationTickingOnAnotherThreadIsNotTakenAndThatThreadIsRefusedOnceItIsHosted() throws Exception {
        CountDownLatch inTick = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Simulation sim = HostWorkload.builder(3, 100, 1, s -> s.system("gate").inPhase(Phase.POST_UPDATE).exclusive(w -> {
            if (inTick.getCount() > 0) {
                inTick.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        })).build();
        AtomicReference<Throwable> ownThrew = new AtomicReference<>();
        Thread own = new Thread(() -> {
            try {
                sim.run(0, 200); // paced (idle between ticks) until refused
            } catch (Throwable t) {
                ownThrew.set(t);
            }
        }, "own-loop");
        own.start();
        assertTrue(inTick.await(20, TimeUnit.SECONDS));
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            IllegalStateException busy = assertThrows(IllegalStateException.class, () -> host.add("taken", sim, 100));
            assertTrue(busy.getMessage().contains("world 'taken'") && busy.getMessage().contains("'own-loop'")
                    && busy.getMessage().contains("stop"), busy.getMessage());
            assertTrue(host.worlds().isEmpty(), "nothing was added");
            release.countDown();
            // added between two of the loop's ticks: the loop's next tick is refused, naming the world
            HostedWorld w = null;
            while (w == null) {
                try {
                    w = host.add("taken", sim, 100);
                } catch (IllegalStateException stillTicking) {
                    Thread.onSpinWait();
                }
            }
            own.join(TimeUnit.SECONDS.toMillis(20));
            assertFalse(own.isAlive());
            assertTrue(ownThrew.get() instanceof IllegalStateException, String.valueOf(ownThrew.get()));
            assertTrue(ownThrew.get().getMessage().contains("world 'taken'"), ownThrew.get().getMessage());
            HostedWorld hosted = w;
            long before = hosted.stats().ticks();
            eventually(() -> hosted.stats().ticks() > before + 5);
            assertFalse(hosted.state().left(), "the host ticks it: " + hosted.failure());
        }
    }

    @Test
    void aSimulationOnOneHostIsRefusedByAnother() throws Exception {
        try (WorldHost one = WorldHost.builder().threads(1).build();
                WorldHost two = WorldHost.builder().threads(1).build()) {
            Simulation sim = HostWorkload.build(4, 50);
            HostedWorld w = one.add("first", sim, 100);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> two.add("second", sim, 100));
            assertTrue(e.getMessage().contains("world 'second'") && e.getMessage().contains("world 'first'"), e.getMessage());
            assertTrue(two.worlds().isEmpty());
            w.remove().join();
            HostedWorld moved = two.add("second", sim, 100); // after it left, it may move
            eventually(() -> moved.stats().ticks() > 3);
        }
    }

    @Test
    void aRecorderClosedFromAnotherThreadIsRefusedNamingItAndStaysOpenForTheCloseThatWorks(@TempDir Path dir)
            throws Exception {
        Simulation sim = HostWorkload.build(5, 100);
        RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder()); // before add, as the book says
        long ticks;
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            HostedWorld w = host.add("recorded", sim, 300);
            eventually(() -> w.stats().ticks() > 3);
            IllegalStateException e = assertThrows(IllegalStateException.class, rec::close);
            String m = e.getMessage();
            // it names the call that was made, not one the recorder makes inside
            assertTrue(m.startsWith("RunRecorder.close() called on thread '" + Thread.currentThread().getName() + "'"), m);
            assertTrue(m.contains("world 'recorded'") && m.contains("hostedWorld.call(") && m.contains("remove()"), m);
            long before = w.stats().ticks();
            eventually(() -> w.stats().ticks() > before + 5); // still recorded, still ticking
            assertFalse(w.state().left(), w.state().toString());
            w.remove().join();
            sim.bindTickThread();
            ticks = sim.currentTick();
        }
        rec.close(); // the refused close left it open: this one writes the end record
        assertTrue(rec.inputs().isClosed(), "the recorder's pipeline (and its journal thread) closed");
        try (Simulation fresh = HostWorkload.restoreTarget(5, 100)) {
            dev.orrery.engine.RunReplayer.Result r = dev.orrery.engine.RunReplayer.replay(dir, fresh);
            assertTrue(r.closedCleanly(), r.cut());
            assertEquals(ticks, r.ticks());
        }
        sim.close();
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - until < 0, "not within 20 s");
            Thread.sleep(5);
        }
    }
}
