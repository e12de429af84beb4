package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.net.HostileLoad;
import dev.orrery.demo.net.ServerConfig;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short soak of the recorded demo server under {@code load --hostile} (about 40 s of
 * load): polite clients beside a flooding client, random {@code SET}s of every field, spawn
 * floods, garbage and silent sockets. Afterwards the server still answers a polite client;
 * every {@code MOVE}, {@code SPAWN} and {@code SET} answered {@code OK} is in the journal;
 * the polite clients saw at most 1 % {@code BUSY}; the heap live after each collection stayed
 * under {@link #LIVE_HEAP_BOUND}; and the recording replays to the live run's hash. No
 * assertion depends on how fast the machine is: the load is modest (polite clients at 20
 * commands a second, one pipelined flooder, one hostile client) and every wait is bounded
 * generously.
 */
class HostileSoakTest {
    /** The heap live after a collection, in the test's JVM (which runs the server), may not pass this. */
    static final long LIVE_HEAP_BOUND = 384L << 20;
    private static final int AGENTS = 2_000;
    private static final long CAP = 40_000;

    @TempDir
    Path tmp;

    @Test
    void shouldSurviveAHostileLoadLoseNothingAndReplayToTheSameHash() throws Exception {
        long started = System.nanoTime();
        Path recording = tmp.resolve("soak");
        ServerConfig limits = ServerConfig.defaults().withMaxConnectionsPerAddress(64)
                .withHelloTimeout(Duration.ofSeconds(3));
        RunOptions options = new RunOptions(AGENTS, 2, 0, 2, 19, 60, 0, 0, ServerConfig.loopback(), recording, null,
                null, null, true, limits, CAP);
        AtomicLong peakLive = new AtomicLong();
        Thread sampler = new Thread(() -> sampleLiveHeap(peakLive), "heap-sampler");
        sampler.setDaemon(true);
        RunningDemo run = RunningDemo.start(options);
        HostileLoad.Report report;
        try {
            sampler.start();
            report = new HostileLoad(new HostileLoad.Options("127.0.0.1", run.port(), Duration.ofSeconds(40), 4, 20,
                    8, 5)).run();
            System.out.println("HostileSoakTest: " + report.summaryLine());
            try (LineClient polite = new LineClient(run.port())) {
                assertTrue(polite.ask("HELLO after").startsWith("OK 1 "), "the server no longer greets");
                assertEquals("OK 2", polite.ask("MOVE 1 5 5"), "the server no longer takes a polite MOVE");
                long first = tickOf(polite.awaitState());
                long tick = first;
                while (tick < first + 10) { // every input queued before now has been taken by a tick
                    tick = tickOf(polite.awaitState());
                }
            }
        } finally {
            sampler.interrupt();
            run.stop();
        }
        RunResult live = run.finish();
        System.gc(); // the server's world, buffers and the recorder are still reachable from run
        long liveAtEnd = liveHeap();
        assertTrue(report.count("polite_sent") >= 200, "the polite clients hardly ran: " + report.summaryLine());
        assertTrue(live.entities() <= CAP + 20_000, "the world grew past its cap: " + live);
        assertTrue(report.count("hostile_sent") >= 500 && report.count("flood_sent") >= 500
                && report.count("garbage_lines") >= 100, "the hostile clients hardly ran: " + report.summaryLine());
        assertTrue(report.count("err_BAD_VALUE") > 0 && report.count("err_FORBIDDEN") > 0
                && report.count("err_QUOTA") > 0, "the attacks were not all made: " + report.summaryLine());
        assertTrue(report.politeBusyRate() <= 0.01, "polite clients saw over 1% BUSY: " + report.summaryLine());
        assertTrue(peakLive.get() < LIVE_HEAP_BOUND && liveAtEnd < LIVE_HEAP_BOUND, "heap live after GC reached "
                + (peakLive.get() >> 20) + " MiB during the run and " + (liveAtEnd >> 20) + " MiB at the end");

        Set<Long> journaled = journaledInputs(recording.resolve(RunRecorder.JOURNAL));
        Set<Long> lost = new HashSet<>(report.okInputs());
        lost.removeAll(journaled);
        assertTrue(lost.isEmpty(), lost.size() + " inputs answered OK are not in the journal, e.g. client "
                + (lost.isEmpty() ? 0 : lost.iterator().next() >>> 32));
        assertTrue(report.okInputs().size() > 100, "hardly any input was answered OK: " + report.summaryLine());

        String replayed = ArenaEndToEndTest.MainSummary.run("--replay", recording.toString(), "--threads", "1",
                "--quiet");
        assertEquals(live.summaryLine().replaceAll(".* hash=", ""), replayed.replaceAll(".* hash=", ""),
                "the replay ended with another hash");
        System.out.println("HostileSoakTest: " + live.summaryLine() + "; took " + (System.nanoTime() - started) / 1_000_000
                + " ms with the replay; live heap peak " + (peakLive.get() >> 20) + " MiB");
    }

    private static long tickOf(String state) {
        assertTrue(state != null && state.startsWith("STATE "), "no STATE push: " + state);
        return Long.parseLong(state.split(" ")[1]);
    }

    /** (client << 32 | request) of every input in the journal. */
    private static Set<Long> journaledInputs(Path journal) throws Exception {
        Set<Long> out = new HashSet<>();
        try (JournalReader r = JournalReader.open(journal)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                InputBatch in = t.inputs();
                for (int i = 0; i < in.size(); i++) {
                    out.add(in.payloadLong(i, 0) << 32 | in.payloadLong(i, 8));
                }
            }
        }
        return out;
    }

    /** Samples, until interrupted, the largest heap live after a collection (the pools' collection usage). */
    private static void sampleLiveHeap(AtomicLong peak) {
        while (!Thread.currentThread().isInterrupted()) {
            long sum = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                    sum += pool.getCollectionUsage().getUsed();
                }
            }
            peak.accumulateAndGet(sum, Math::max);
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static long liveHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
