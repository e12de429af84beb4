package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's features on a hosted world: a recording started on its tick thread while it
 * ticks replays alone to the same hashes; a world that failed under STOP is the caller's and
 * can come back under another policy; a watchdog reports a hosted world's long tick and ends
 * with the host.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostedFeaturesTest {

    @Test
    void aRecordingStartedInsideCallWhileHostedReplaysAloneToTheSameHashes(@TempDir Path dir) throws Exception {
        Simulation sim = HostWorkload.build(31, 150);
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            host.add("neighbour", HostWorkload.build(32, 100), 0);
            HostedWorld w = host.add("recorded", sim, 300);
            eventually(() -> w.stats().ticks() > 5);
            RunRecorder rec = w.call(s -> {
                try {
                    return RunRecorder.start(s, dir, InputPipeline.builder().ringSize(256));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(20, TimeUnit.SECONDS);
            byte[] two = ByteBuffer.allocate(4).putInt(2).array();
            long startedAt = w.call(Simulation::currentTick).get(20, TimeUnit.SECONDS);
            while (w.call(Simulation::currentTick).get(20, TimeUnit.SECONDS) < startedAt + 60) {
                rec.inputs().tryPublish(9, HostWorkload.SPAWN, two, 0, 4); // from this thread, as a server would
                Thread.sleep(2);
            }
            Simulation back = w.remove().join();
            back.bindTickThread();
            rec.close();
            assertTrue(rec.inputs().acceptedCount() > 5, "inputs reached it: " + rec.inputs().acceptedCount());
            try (Simulation fresh = HostWorkload.restoreTarget(31, 150)) {
                RunReplayer.Result r = RunReplayer.replay(dir, fresh);
                assertTrue(r.ticks() >= 60, "ticks replayed: " + r.ticks());
                assertEquals(r.ticks(), r.hashesChecked(), "every recorded hash matched");
                assertEquals(back.currentTick(), r.nextTick());
                assertEquals(back.lastHash(), r.finalHash());
            }
            back.close();
        }
    }

    @Test
    void aWorldThatFailedUnderStopIsTheCallersAndComesBackUnderSkipTick() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        try (WorldHost host = WorldHost.builder().threads(2).onFailure((w, t, e) -> heard.add(w.name() + "@" + t))
                .build()) {
            host.add("good", HostWorkload.build(5, 100), 300);
            SimulationBuilder[] holder = new SimulationBuilder[1];
            holder[0] = HostWorkload.builder(6, 100, 1, s -> HostWorkload.failing(holder[0].resources(), 4, 3).accept(s));
            Simulation sim = holder[0].onSystemFailure(FailurePolicy.STOP).build();
            HostedWorld first = host.add("fragile", sim, 300);
            CompletionException e = org.junit.jupiter.api.Assertions.assertThrows(CompletionException.class,
                    () -> first.done().join());
            assertTrue(e.getCause().getMessage().contains("fragile"), e.getCause().getMessage());
            assertEquals(List.of("fragile@3"), heard);
            sim.bindTickThread(); // the caller's now: change its policy, then host it again under the same name
            sim.onSystemFailure(FailurePolicy.SKIP_TICK);
            HostedWorld again = host.add("fragile", sim, 300);
            eventually(() -> again.stats().skippedTicks() >= 3);
            assertFalse(again.state().left());
            assertEquals(List.of("fragile@3"), heard, "skipped ticks are no failures");
        }
    }

    @Test
    void aWatchdogReportsAHostedWorldsLongTickAndEndsWithTheHost() throws Exception {
        int before = countThreads("orrery-tick-watchdog");
        List<String> overruns = new CopyOnWriteArrayList<>();
        Simulation slow = HostWorkload.builder(7, 50, 1, HostWorkload.busy(60_000_000L)) // 60 ms a tick
                .stepSeconds(0.01).watchdog(2, (t, ns, system, job) -> overruns.add(system)).build();
        WorldHost host = WorldHost.builder().threads(2).build();
        try {
            host.add("light", HostWorkload.build(8, 50), 200);
            host.add("slow", slow, 0);
            eventually(() -> !overruns.isEmpty());
            assertEquals("busy", overruns.get(0), "the watchdog names the system still running");
        } finally {
            host.close();
        }
        eventually(() -> countThreads("orrery-tick-watchdog") == before); // the host closed the simulation, and its watchdog
    }

    private static int countThreads(String prefix) {
        int n = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix) && t.isAlive()) {
                n++;
            }
        }
        return n;
    }

    private static void eventually(BooleanSupplier condition) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - until < 0, "not within 20 s");
            Thread.sleep(5);
        }
    }
}
