package dev.orrery.explorer;

import static dev.orrery.explorer.Client.enc;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Travelling back: a recorded run replayed by the explorer's timeline shows an entity and a
 * query as they were after an earlier tick, forward and back again, diffs them between two
 * ticks, checks the recorded hashes, and refuses a tick the recording does not hold; closed,
 * it leaves no replay or journal reader open, even with travels queued.
 */
class TimelineTest {
    record Counter(int value) {
    }

    record Old(int since) {
    }

    @TempDir
    Path dir;

    /** Every tick each counter grows by one; a counter that reaches 50 gets Old. */
    static Simulation build(World world, boolean populate) {
        return build(world, populate, 10);
    }

    static Simulation build(World world, boolean populate, int hashEvery) {
        return build(world, populate, hashEvery, () -> { });
    }

    /** As {@link #build(World, boolean, int)}, calling {@code eachTick} in each tick (it changes no state). */
    static Simulation build(World world, boolean populate, int hashEvery, Runnable eachTick) {
        Component<Counter> counter = world.component(Counter.class);
        Component<Old> old = world.component(Old.class);
        if (populate) {
            for (int i = 0; i < 20; i++) {
                world.spawn(new Counter(i * 5));
            }
        }
        Field value = counter.field("value");
        Query all = world.query().with(counter).build();
        return Simulation.builder(world).seed(3).workers(1).hashEvery(hashEvery).systems(s -> s
                .system("count").exclusive(w -> {
                    eachTick.run();
                    List<Long> aged = new ArrayList<>();
                    all.forEach((chunk, row) -> {
                        long e = chunk.entity(row);
                        int v = w.getInt(e, value) + 1;
                        w.setInt(e, value, v);
                        if (v >= 50 && !w.has(e, old)) {
                            aged.add(e);
                        }
                    });
                    aged.forEach(e -> w.add(e, old, new Old(v(w, e, value))));
                })).build();
    }

    private static int v(World w, long e, Field value) {
        return w.getInt(e, value);
    }

    @Test
    void shouldShowTheWorldAsItWasAndDiffTwoTicks() throws Exception {
        World world = new World();
        Simulation sim = build(world, true);
        long first = Fixture.firstEntity(world); // its counter starts at 0
        RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder());
        sim.run(120, 0, null);
        recorder.close();
        Timeline timeline = Timeline.ofRecording(dir, () -> build(new World(), false));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(timeline))) {
            Client c = new Client(explorer);
            String info = c.get("/api/timeline").body();
            assertTrue(info.contains("\"available\":true") && info.contains("\"first\":-1,"), info);

            assertTrue(entity(c, 9, first).contains("{\"name\":\"value\",\"type\":\"INT\",\"value\":\"10\","
                    + "\"editable\":false,\"readOnly\":\"this is tick 9, the past"), entity(c, 9, first));
            assertTrue(entity(c, 99, first).contains("\"value\":\"100\""), "forward");
            assertTrue(entity(c, 4, first).contains("\"value\":\"5\""), "and back, from a snapshot");
            assertTrue(entity(c, -1, first).contains("\"value\":\"0\""), "the recording's start");

            String diff = c.get("/api/past/diff?from=10&to=20&id=" + first).body();
            assertTrue(diff.contains("\"changes\":[{\"field\":\"Counter.value\",\"from\":\"11\",\"to\":\"21\"}]"),
                    diff);

            // counters start at 0, 5, ... 95: after tick 40 those from 10 up (41 + 5i >= 50: i >= 2) are Old
            assertEquals(18, c.pastQueryCount(40, "Old"));
            assertEquals(20, c.pastQueryCount(60, "Old"));
            assertEquals(10, c.pastQueryCount(2, "Old, Counter"));
            assertEquals(0, c.pastQueryCount(-1, "Old"), "nothing is Old at the recording's start");
            String queryDiff = c.get("/api/past/diff?from=2&to=40&q=" + enc("Old")).body();
            assertTrue(queryDiff.contains("\"countFrom\":10,\"countTo\":18,\"addedCount\":8,"), queryDiff);

            HttpResponse<String> future = c.get("/api/past/entity?tick=500&id=" + first);
            assertEquals(404, future.statusCode());
            assertTrue(future.body().contains("not in the recording: it holds ticks up to 119, and the recording was closed there"), future.body());
            assertEquals(400, c.get("/api/past/query?tick=5&q=" + enc("Nope")).statusCode());

            String after = c.get("/api/timeline").body();
            assertTrue(after.contains("\"divergedAt\":-1") && !after.contains("\"hashesMatched\":0,"),
                    "the replay matched the recorded hashes: " + after);
        } finally {
            sim.close();
        }
    }

    /**
     * The replay thread is a pool thread that ends after it idled (30 s in use; 1 ms here), and
     * the next travel runs on a new one: the replayed simulation, bound to the old thread by its
     * first tick, refused the new thread's tick ('ticked from thread orrery-explorer-past but its
     * tick thread is orrery-explorer-past'), and the travel answered that the replay failed where
     * the recorded run went on, a divergence the page then kept showing. The new thread takes the
     * simulation over (bindTickThread) and the travel goes on.
     */
    @Test
    void shouldTravelOnAfterTheIdleReplayThreadWasReplacedWithoutADivergence() throws Exception {
        World world = new World();
        Simulation sim = build(world, true);
        long first = Fixture.firstEntity(world);
        RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder());
        sim.run(120, 0, null);
        recorder.close();
        sim.close();
        AtomicReference<Thread> replayThread = new AtomicReference<>(); // the system runs on the tick thread
        Timeline timeline = Timeline.ofRecording(dir, () -> build(new World(), false, 10,
                () -> replayThread.set(Thread.currentThread())));
        try (PastWorlds past = new PastWorlds(timeline, 1)) {
            assertTrue(past.entity(9, first).contains("\"value\":\"10\""), past.entity(9, first));
            Thread idle = replayThread.get();
            idle.join(TimeUnit.MINUTES.toMillis(1)); // the idle replay thread ends
            assertFalse(idle.isAlive(), "the replay thread never ended");
            String later = past.entity(99, first); // replayed on a new thread, from where the old one stopped
            assertTrue(replayThread.get() != idle, "the travel ran on a new replay thread");
            assertTrue(later.contains("\"value\":\"100\""), later);
            String info = past.info(119);
            assertTrue(info.contains("\"divergedAt\":-1") && !info.contains("\"divergence\""), info);
        }
    }

    @Test
    void shouldCheckEveryRecordedHashWhenTheReplayingBlueprintHashesOtherwise() throws Exception {
        World world = new World();
        Simulation sim = build(world, true, 10);
        long first = Fixture.firstEntity(world); // its counter starts at 0
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(100, 0, null);
        }
        // built with hashEvery 0: it hands the timeline no hash, and the recorded ones used to go unchecked
        Timeline timeline = Timeline.ofRecording(dir, () -> build(new World(), false, 0));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(timeline))) {
            Client c = new Client(explorer);
            assertTrue(entity(c, 99, first).contains("\"value\":\"100\""));
            String after = c.get("/api/timeline").body();
            assertTrue(after.contains("\"hashesMatched\":10,") && after.contains("\"divergedAt\":-1"),
                    "the ten recorded hashes (ticks 0, 10, ..., 90) were checked: " + after);
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldRefuseATickPastTheRecordingWithoutReplayingToItsEnd() throws Exception {
        World world = new World();
        Simulation sim = build(world, true);
        long first = Fixture.firstEntity(world);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(120, 0, null);
        }
        Timeline timeline = Timeline.ofRecording(dir, () -> build(new World(), false));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(timeline))) {
            Client c = new Client(explorer);
            HttpResponse<String> future = c.get("/api/past/entity?tick=99999&id=" + first);
            assertEquals(404, future.statusCode());
            assertTrue(future.body().contains("tick 99999 is not in the recording: it holds ticks up to 119, and the "
                    + "recording was closed there"), future.body());
            // the journal says where the recording ends: no replay to its end first (a long live
            // recording once kept the timeline busy for minutes, chasing the run, before the 404)
            String info = c.get("/api/timeline").body();
            assertTrue(info.contains("\"last\":119,\"at\":-1,"), "the replay did not move: " + info);
            assertTrue(entity(c, 119, first).contains("\"value\":\"120\""), "the last recorded tick is shown");
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldStopTheReplayWhenTheExplorerClosesMidTravel() throws Exception {
        World world = new World();
        Simulation sim = build(world, true);
        long first = Fixture.firstEntity(world);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(600, 0, null);
        }
        AtomicInteger replayed = new AtomicInteger();
        Timeline slow = Timeline.ofRecording(dir, () -> build(new World(), false, 10, () -> {
            replayed.incrementAndGet();
            LockSupport.parkNanos(20_000_000L); // 600 ticks: at least 12 s to travel to the last one
        }));
        Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(slow));
        try {
            Client c = new Client(explorer);
            Thread asker = new Thread(() -> {
                try {
                    c.get("/api/past/entity?tick=599&id=" + first);
                } catch (Exception closed) {
                    // the explorer closed under it: what it answers is not this test's point
                }
            });
            asker.setDaemon(true);
            asker.start();
            long until = System.nanoTime() + 30_000_000_000L;
            while (replayed.get() < 5 && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertTrue(replayed.get() >= 5, "the travel began");
            long start = System.nanoTime();
            explorer.close(); // what a stopped demo does before its summary: it once waited 5 s, then left the replay running
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            int atClose = replayed.get();
            Thread.sleep(500);
            assertEquals(atClose, replayed.get(), "the replay stopped with the explorer");
            assertTrue(tookMillis < 5_000, "close waited " + tookMillis + " ms for a replay that was going on");
        } finally {
            explorer.close();
            sim.close();
        }
    }

    @Test
    void shouldCloseTheReplayWhenTheTimelineClosesWithItsQueueFull() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isDirectory(Path.of("/proc/self/fd")),
                "reads open files through /proc");
        World world = new World();
        Simulation sim = build(world, true);
        long first = Fixture.firstEntity(world);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(600, 0, null);
        } finally {
            sim.close();
        }
        AtomicInteger replayed = new AtomicInteger();
        Timeline slow = Timeline.ofRecording(dir, () -> build(new World(), false, 10, () -> {
            replayed.incrementAndGet();
            LockSupport.parkNanos(20_000_000L); // 600 ticks: at least 12 s to travel to the last one
        }));
        PastWorlds past = new PastWorlds(slow, 30_000);
        List<Thread> askers = new ArrayList<>();
        AtomicReference<String> busy = new AtomicReference<>();
        // one travel replays, eight wait in the replay thread's queue, and the next is turned away
        for (int i = 0; i < 20 && busy.get() == null; i++) {
            long tick = 599 - i;
            Thread asker = new Thread(() -> {
                try {
                    past.entity(tick, first);
                } catch (SafePoint.Unavailable e) {
                    if (e.getMessage().contains("busy")) {
                        busy.set(e.getMessage());
                    }
                } catch (RuntimeException closing) {
                    // refused once the timeline closes: what it answers is not this test's point
                }
            });
            asker.setDaemon(true);
            asker.start();
            askers.add(asker);
            long until = System.nanoTime() + 10_000_000_000L;
            while (replayed.get() == 0 && System.nanoTime() < until) { // the first travel began
                Thread.sleep(5);
            }
            Thread.sleep(50); // pacing only: the asker's travel is queued (or turned away) meanwhile
        }
        // the last askers may not have reached the queue yet on a loaded machine: wait for them (the first travel
        // replays for at least 12 s, so the queue stays full meanwhile)
        long full = System.nanoTime() + 30_000_000_000L;
        while (busy.get() == null && askers.stream().anyMatch(Thread::isAlive) && System.nanoTime() < full) {
            Thread.sleep(10);
        }
        assertTrue(busy.get() != null, "the queue filled up");
        assertTrue(openJournals() > 0, "the replay reads the journal");
        past.close();
        long until = System.nanoTime() + 30_000_000_000L;
        while (openJournals() > 0 && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertEquals(0, openJournals(), "the replay and its journal reader were left open by a close that found the "
                + "queue full");
        for (Thread t : askers) {
            t.join(30_000);
        }
    }

    /** Files open in this process under the recording folder. */
    private long openJournals() throws java.io.IOException {
        try (java.util.stream.Stream<Path> fds = java.nio.file.Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    return java.nio.file.Files.readSymbolicLink(fd).startsWith(dir);
                } catch (java.io.IOException | UnsupportedOperationException gone) {
                    return false; // closed meanwhile, or the listing's own handle
                }
            }).count();
        }
    }

    private static String entity(Client c, long tick, long id) throws Exception {
        HttpResponse<String> r = c.get("/api/past/entity?tick=" + tick + "&id=" + id);
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}
