package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.ReferenceCodec;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.Durability;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.Resources;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline over recordings a newcomer makes that {@link TimelineTest} does not: one
 * whose run skipped ticks, one started from a running game, one cut by a crash, and one
 * with reference, sparse and named components and relations, exclusive or not; and
 * timelines whose simulation cannot replay the recording.
 */
class TimelineRecordingsTest {
    record Counter(int value) {
    }

    record Buff(int level) {
    }

    /** A reference component, snapshotted through a codec and hashed through its hashCode. */
    static final class Brain {
        int thoughts;

        Brain(int thoughts) {
            this.thoughts = thoughts;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Brain b && b.thoughts == thoughts;
        }

        @Override
        public int hashCode() {
            return thoughts;
        }

        @Override
        public String toString() {
            return "Brain(" + thoughts + ")";
        }
    }

    @TempDir
    Path dir;

    /**
     * Every tick each counter grows by one; where the first counter is then 3 modulo
     * {@code throwAt} (0: never) the system throws after its writes, a skipped tick under
     * SKIP_TICK.
     */
    static Simulation skipping(World world, boolean populate, int throwAt) {
        Component<Counter> counter = world.component(Counter.class);
        if (populate) {
            for (int i = 0; i < 5; i++) {
                world.spawn(new Counter(i * 10));
            }
        }
        Field value = counter.field("value");
        Query all = world.query().with(counter).build();
        return Simulation.builder(world).seed(3).workers(1).hashEvery(1).onSystemFailure(FailurePolicy.SKIP_TICK)
                .systems(s -> s.system("count").exclusive(w -> {
                    int[] firstValue = {-1};
                    all.forEach((chunk, row) -> {
                        long e = chunk.entity(row);
                        int v = w.getInt(e, value) + 1;
                        w.setInt(e, value, v);
                        if (firstValue[0] < 0) {
                            firstValue[0] = v;
                        }
                    });
                    if (throwAt > 0 && firstValue[0] % throwAt == 3) {
                        throw new IllegalStateException("flaky at " + firstValue[0]);
                    }
                })).build();
    }

    /**
     * "seeder" spawns a counter a tick and "reader" reads them, past the sync point before
     * "reader" that applies the spawn; an onAdd hook there throws on tick {@code failAt} (-1:
     * never), a tick skipped under SKIP_TICK for the sync point, not for a system.
     */
    static Simulation hooked(World world, long failAt) {
        Component<Counter> counter = world.component(Counter.class);
        SimulationBuilder b = Simulation.builder(world).seed(3).workers(1).hashEvery(1)
                .onSystemFailure(FailurePolicy.SKIP_TICK);
        Resources res = b.resources();
        world.observe(counter).onAdd((w, e, commands) -> {
            if (res.value(Simulation.CLOCK).tick() == failAt) {
                throw new IllegalStateException("the hook refuses at tick " + failAt);
            }
        });
        return b.systems(s -> s
                .system("seeder").spawns(counter).forEachRange(() -> 1,
                        (job, from, to) -> job.commands().add(job.commands().spawn(), counter, new Counter(1)))
                .system("reader").query(world.query().with(counter).build()).reads(counter).forEachChunk(job -> { }))
                .build();
    }

    @Test
    void shouldNameASyncPointThatSkippedATickAsTheSyncPointNotAsASystem() throws Exception {
        World world = new World();
        Simulation sim = hooked(world, 2);
        sim.failureListener((t, f, firstForSystem) -> { });
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(6, 0, null);
        }
        assertEquals(1, sim.skippedTicks(), "the recorded run skipped tick 2");
        long first = Fixture.firstEntity(world);
        Timeline never = Timeline.ofRecording(dir, () -> hooked(new World(), -1));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(never))) {
            Client c = new Client(explorer);
            c.getOk("/api/past/entity?tick=5&id=" + first);
            String info = c.getOk("/api/timeline");
            // was: "(system 'sync point before system 'reader'' threw)"
            assertTrue(info.contains("\"divergence\":\"the recorded run skipped tick 2 (the sync point before system "
                    + "'reader' failed) and the replay ran it"), info);
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldTravelToAndAcrossSkippedTicksAndSayWhenTheReplaySkipsOtherwise() throws Exception {
        World world = new World();
        Simulation sim = skipping(world, true, 7); // skips ticks 2, 9, 16, 23, 30, 37
        sim.failureListener((t, f, firstForSystem) -> { });
        long first = Fixture.firstEntity(world);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(40, 0, null);
        }
        assertEquals(6, sim.skippedTicks(), "the recorded run skipped ticks");
        Timeline same = Timeline.ofRecording(dir, () -> skipping(new World(), false, 7));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(same))) {
            Client c = new Client(explorer);
            assertTrue(c.getOk("/api/past/entity?tick=2&id=" + first).contains("\"value\":\"3\""), "the skipped tick");
            assertTrue(c.getOk("/api/past/entity?tick=30&id=" + first).contains("\"value\":\"31\""), "across them");
            assertTrue(c.getOk("/api/past/entity?tick=9&id=" + first).contains("\"value\":\"10\""), "back");
            String info = c.getOk("/api/timeline");
            assertTrue(info.contains("\"hashesMatched\":31,\"divergedAt\":-1"), "all hashes and skips match: " + info);
        }
        // a replay that runs the ticks the recording skipped: its writes are those of the skipped
        // tick, so every hash matches and only the skip tells them apart (RunReplayer throws)
        Timeline never = Timeline.ofRecording(dir, () -> skipping(new World(), false, 0));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(never))) {
            Client c = new Client(explorer);
            c.getOk("/api/past/entity?tick=30&id=" + first);
            String info = c.getOk("/api/timeline");
            assertTrue(info.contains("\"divergedAt\":2,"), "tick 2 was skipped in the recording, run in the replay: "
                    + info);
            assertTrue(info.contains("\"divergence\":\"the recorded run skipped tick 2 (system 'count' threw) and "
                    + "the replay ran it"), info);
        }
        // and one that skips ticks the recording ran: 2 (as recorded), then 7
        Timeline more = Timeline.ofRecording(dir, () -> skipping(new World(), false, 5));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(more))) {
            Client c = new Client(explorer);
            c.getOk("/api/past/entity?tick=30&id=" + first);
            String info = c.getOk("/api/timeline");
            assertTrue(info.contains("\"divergedAt\":7,") && info.contains("\"divergence\":\"the replay skipped tick 7 "
                    + "(system 'count' threw) and the recorded run did not"), info);
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldRefuseTicksBeforeARecordingStartedMidRunAndPastItsEndNamingTheSpan() throws Exception {
        World world = new World();
        Simulation sim = skipping(world, true, 0);
        long first = Fixture.firstEntity(world);
        sim.run(50, 0, null); // a running game: the recording starts after tick 49
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(30, 0, null);
        }
        Timeline timeline = Timeline.ofRecording(dir, () -> skipping(new World(), false, 0));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(timeline))) {
            Client c = new Client(explorer);
            assertTrue(c.getOk("/api/timeline").contains("\"first\":49,"));
            assertTrue(c.getOk("/api/past/entity?tick=49&id=" + first).contains("\"value\":\"50\""), "its start");
            assertTrue(c.getOk("/api/past/entity?tick=79&id=" + first).contains("\"value\":\"80\""), "its last");
            for (String path : new String[] {"/api/past/entity?tick=10&id=" + first, "/api/past/entity?tick=-5&id="
                    + first, "/api/past/diff?from=10&to=60&id=" + first, "/api/past/query?tick=48&q=Counter"}) {
                HttpResponse<String> before = c.get(path);
                assertEquals(404, before.statusCode(), path + ": " + before.body());
                assertTrue(before.body().contains(" is before the recording, which starts after tick 49"),
                        before.body());
            }
            HttpResponse<String> after = c.get("/api/past/entity?tick=80&id=" + first);
            assertEquals(404, after.statusCode(), after.body());
            assertTrue(after.body().contains("it holds ticks up to 79"), after.body());
            // tick + 1 wrapped to the most negative long: no snapshot before it, and a 500
            HttpResponse<String> last = c.get("/api/past/entity?tick=" + Long.MAX_VALUE + "&id=" + first);
            assertEquals(404, last.statusCode(), last.body());
            assertTrue(last.body().contains("tick " + Long.MAX_VALUE + " is not in the recording"), last.body());
            HttpResponse<String> diff = c.get("/api/past/diff?from=50&to=" + Long.MAX_VALUE + "&id=" + first);
            assertEquals(404, diff.statusCode(), diff.body());
            assertTrue(c.getOk("/api/past/entity?tick=60&id=" + first).contains("\"value\":\"61\""),
                    "and it still travels");
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldSayWhetherARecordingEndsClosedOrWithoutItsEndRecordAsACrashLeavesIt() throws Exception {
        World world = new World();
        Simulation sim = skipping(world, true, 0);
        long first = Fixture.firstEntity(world);
        Path live = dir.resolve("live");
        Path crashed = dir.resolve("crashed");
        Files.createDirectories(crashed);
        try (RunRecorder recorder = RunRecorder.start(sim, live, InputPipeline.builder(), Durability.EVERY_TICK)) {
            sim.run(20, 0, null);
            // what a kill -9 leaves: the files as they are, without the end record
            Files.copy(live.resolve(RunRecorder.SNAPSHOT), crashed.resolve(RunRecorder.SNAPSHOT));
            Files.copy(live.resolve(RunRecorder.JOURNAL), crashed.resolve(RunRecorder.JOURNAL));
        }
        Timeline cut = Timeline.ofRecording(crashed, () -> skipping(new World(), false, 0));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(cut))) {
            Client c = new Client(explorer);
            sim.run(10, 0, null); // the live game goes on to tick 29: the slider's end is the recording's
            String span = c.getOk("/api/timeline");
            assertTrue(span.contains("\"first\":-1,\"last\":18,") || span.contains("\"first\":-1,\"last\":19,"),
                    "its last complete tick, not the live game's 29: " + span);
            // EVERY_TICK: tick 18 was forced before tick 19 began; 19 may be the tick in progress
            assertTrue(c.getOk("/api/past/entity?tick=18&id=" + first).contains("\"value\":\"19\""), "tick 18");
            HttpResponse<String> past = c.get("/api/past/entity?tick=25&id=" + first);
            assertEquals(404, past.statusCode(), past.body());
            assertTrue(past.body().contains("tick 25 is not in the recording: it holds ticks up to 1"), past.body());
            assertTrue(past.body().contains(", and it has no end record: a live recording grows as the run goes, while one cut by a crash ends there (journal "),
                    past.body());
            assertTrue(past.body().contains("without a clean close"), past.body());
            String info = c.getOk("/api/timeline");
            assertTrue(info.contains("\"ending\":\"it has no end record"), info);
        }
        Timeline closed = Timeline.ofRecording(live, () -> skipping(new World(), false, 0));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(closed))) {
            Client c = new Client(explorer);
            HttpResponse<String> past = c.get("/api/past/entity?tick=25&id=" + first);
            assertEquals(404, past.statusCode(), past.body());
            assertTrue(past.body().contains("tick 25 is not in the recording: it holds ticks up to 19, and the "
                    + "recording was closed there\""), "not '(yet)': a closed recording does not grow: " + past.body());
            String info = c.getOk("/api/timeline");
            assertTrue(info.contains("\"ending\":\"the recording was closed there\""), info);
            sim.run(5, 0, null);
            assertTrue(c.getOk("/api/timeline").contains("\"first\":-1,\"last\":19,"), "closed at 19, the game at 34");
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldEndTheSpanWhereALiveRecordingIsWrittenSoFar() throws Exception {
        World world = new World();
        Simulation sim = skipping(world, true, 0);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder(), Durability.EVERY_TICK)) {
            sim.run(10, 0, null);
            Timeline live = Timeline.ofRecording(dir, () -> skipping(new World(), false, 0));
            try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(live))) {
                Client c = new Client(explorer);
                String before = c.getOk("/api/timeline"); // EVERY_TICK: 8 forced before 9 began, 9 may be in progress
                assertTrue(before.contains("\"last\":8,") || before.contains("\"last\":9,"), before);
                sim.run(10, 0, null);
                String after = c.getOk("/api/timeline");
                assertTrue(after.contains("\"last\":18,") || after.contains("\"last\":19,"), "it grew: " + after);
            }
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldShowTheNewestTickOfALiveRecordingAsItGrowsTickByTick() throws Exception {
        World world = new World();
        Simulation sim = skipping(world, true, 0);
        long first = Fixture.firstEntity(world);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder(), Durability.EVERY_TICK)) {
            sim.run(5, 0, null);
            Timeline live = Timeline.ofRecording(dir, () -> skipping(new World(), false, 0));
            try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(live))) {
                Client c = new Client(explorer);
                for (int i = 0; i < 25; i++) { // the replay goes on from where it found the journal's end each time
                    sim.run(1, 0, null);
                    String info = c.getOk("/api/timeline");
                    String last = info.replaceAll("(?s).*\"last\":(-?\\d+),.*", "$1");
                    String past = c.getOk("/api/past/entity?tick=" + last + "&id=" + first);
                    assertTrue(past.contains("\"value\":\"" + (Long.parseLong(last) + 1) + "\""), last + ": " + past);
                }
                String info = c.getOk("/api/timeline");
                assertTrue(info.contains("\"divergedAt\":-1") && !info.contains("\"hashesMatched\":0,"), info);
            }
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldDropTheEndingOnceALiveRecordingGrewPastIt() throws Exception {
        World world = new World();
        Simulation sim = skipping(world, true, 0);
        long first = Fixture.firstEntity(world);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder(), Durability.EVERY_TICK)) {
            sim.run(10, 0, null);
            Timeline live = Timeline.ofRecording(dir, () -> skipping(new World(), false, 0));
            try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(live))) {
                Client c = new Client(explorer);
                assertEquals(404, c.get("/api/past/entity?tick=15&id=" + first).statusCode());
                assertTrue(c.getOk("/api/timeline").contains("\"ending\":\"it has no end record"), "ends for now");
                sim.run(10, 0, null);
                String after = c.getOk("/api/timeline");
                // it said the journal ended at tick 8 or 9 beside "last":18: stale while the replay stood still
                assertTrue((after.contains("\"last\":18,") || after.contains("\"last\":19,"))
                        && !after.contains("\"ending\""), "no ending the journal has grown past: " + after);
                assertEquals(200, c.get("/api/past/entity?tick=15&id=" + first).statusCode(), "tick 15 now");
            }
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldSayClosedOnceALiveRecordingWritesItsEndRecordAfterATravelFoundItLive() throws Exception {
        World world = new World();
        Simulation sim = skipping(world, true, 0);
        long first = Fixture.firstEntity(world);
        Path closed = dir.resolve("closed");
        try (RunRecorder recorder = RunRecorder.start(sim, closed, InputPipeline.builder())) {
            sim.run(20, 0, null);
        }
        byte[] journal = Files.readAllBytes(closed.resolve(RunRecorder.JOURNAL));
        long endRecord;
        try (dev.orrery.engine.journal.JournalReader r = dev.orrery.engine.journal.JournalReader.open(
                closed.resolve(RunRecorder.JOURNAL))) {
            while (r.nextRecord()) {
                // to the end record
            }
            endRecord = r.recordOffset();
        }
        // the same recording while it was live: every tick written, the end record not yet
        Path live = Files.createDirectories(dir.resolve("live"));
        Files.copy(closed.resolve(RunRecorder.SNAPSHOT), live.resolve(RunRecorder.SNAPSHOT));
        Files.write(live.resolve(RunRecorder.JOURNAL), java.util.Arrays.copyOf(journal, (int) endRecord));
        Timeline timeline = Timeline.ofRecording(live, () -> skipping(new World(), false, 0));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(timeline))) {
            Client c = new Client(explorer);
            HttpResponse<String> past = c.get("/api/past/entity?tick=25&id=" + first);
            assertEquals(404, past.statusCode(), past.body());
            assertTrue(past.body().contains("it holds ticks up to 19, and it has no end record"), past.body());
            // the run closes its recording: the end record, no tick after 19
            Files.write(live.resolve(RunRecorder.JOURNAL), java.util.Arrays.copyOfRange(journal, (int) endRecord,
                    journal.length), java.nio.file.StandardOpenOption.APPEND);
            String info = c.getOk("/api/timeline");
            // it said "last":19 beside "it has no end record: a live recording grows": the words of the travel
            assertTrue(info.contains("\"last\":19,") && info.contains("\"ending\":\"the recording was closed there\""),
                    "closed at 19 now: " + info);
        } finally {
            sim.close();
        }
    }

    @Test
    void shouldAnswer409NamingTheFixWhenTheTimelinesSimulationCannotReplayTheRecording() throws Exception {
        World world = new World();
        Simulation sim = skipping(world, true, 0);
        sim.onSystemFailure(FailurePolicy.STOP);
        long first = Fixture.firstEntity(world);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(30, 0, null);
        }
        Timeline unlike = Timeline.ofRecording(dir, () -> Simulation.builder(new World()).seed(3).build());
        Timeline broken = Timeline.ofRecording(dir, () -> {
            throw new IllegalStateException("no config file");
        });
        for (Timeline t : new Timeline[] {unlike, broken}) {
            try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(t))) {
                Client c = new Client(explorer);
                String info = c.getOk("/api/timeline");
                assertTrue(info.contains("\"problem\":\"") && !info.contains("\"first\"") && !info.contains("\"last\""),
                        "no span (it said \"first\":-2) beside why the replay cannot start: " + info);
                for (int i = 0; i < 2; i++) { // and again: it was answered 500 each time
                    HttpResponse<String> r = c.get("/api/past/entity?tick=5&id=" + first);
                    assertEquals(409, r.statusCode(), r.body());
                    // 'unlike' has neither the recorded systems nor its components: the systems are checked first
                    assertTrue(r.body().contains(t == unlike ? "cannot be replayed: snapshot section 'orrery.systems'"
                            : "the Timeline's supplier failed building a simulation to replay in: "
                                    + "java.lang.IllegalStateException: no config file"), r.body());
                }
            }
        }
        // a replay whose system throws at tick 2 where the recorded run (under STOP) went on
        Timeline failing = Timeline.ofRecording(dir, () -> skipping(new World(), false, 7));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(failing))) {
            Client c = new Client(explorer);
            for (int i = 0; i < 2; i++) { // the second time it said 404 'it holds ticks up to 1'
                HttpResponse<String> r = c.get("/api/past/entity?tick=5&id=" + first);
                assertEquals(409, r.statusCode(), r.body());
                assertTrue(r.body().contains("the timeline cannot show tick 5: the replay's tick 2 failed where the "
                        + "recorded run went on: system 'count' failed"), r.body());
                assertTrue(r.body().contains("the Timeline's supplier must build the simulation as the recorded one"),
                        r.body());
            }
            assertTrue(c.getOk("/api/past/entity?tick=1&id=" + first).contains("\"value\":\"2\""), "before it");
            String info = c.getOk("/api/timeline");
            assertTrue(info.contains("\"divergedAt\":2,") && info.contains("\"divergence\":\"the replay's tick 2 "
                    + "failed where the recorded run went on"), info);
        } finally {
            sim.close();
        }
    }

    /**
     * Entity 0 counts ticks with a reference Brain; at count 5 it gets a sparse Buff, a named
     * Score, ChildOf entity 1 and Likes (not exclusive) entity 2; at 8 it Likes entity 3 too
     * and moves under entity 2; at 10 it loses the Buff.
     */
    static Simulation features(World world, boolean populate, long[] ids) {
        Component<Counter> counter = world.component(Counter.class);
        Component<Counter> score = world.component(Counter.class, "Score");
        Component<Buff> buff = world.component(Buff.class, Storage.SPARSE);
        Component<Brain> brain = world.referenceComponent(Brain.class);
        Relation childOf = world.relations().childOf();
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        if (populate) {
            for (int i = 0; i < 4; i++) {
                ids[i] = world.spawn(new Counter(i * 100));
            }
            world.add(ids[0], brain, new Brain(0));
        }
        Field value = counter.field("value");
        return Simulation.builder(world).seed(3).workers(1).hashEvery(5)
                .referenceCodec(Brain.class, new ReferenceCodec<Brain>() {
                    @Override
                    public void write(Brain b, DataOutput out) throws IOException {
                        out.writeInt(b.thoughts);
                    }

                    @Override
                    public Brain read(DataInput in) throws IOException {
                        return new Brain(in.readInt());
                    }
                })
                .systems(s -> s.system("life").exclusive(w -> {
                    long[] e = ids; // the same ids in the replay, restored from the recorded snapshot
                    int v = w.getInt(e[0], value) + 1;
                    w.setInt(e[0], value, v);
                    w.get(e[0], brain).thoughts = v * 2;
                    if (v == 5) {
                        w.add(e[0], buff, new Buff(1));
                        w.add(e[0], score, new Counter(7));
                        w.relations().add(e[0], childOf, e[1]);
                        w.relations().add(e[0], likes, e[2]);
                    }
                    if (v == 8) {
                        w.relations().add(e[0], likes, e[3]);
                        w.relations().add(e[0], childOf, e[2]);
                    }
                    if (v == 10) {
                        w.remove(e[0], buff);
                    }
                })).build();
    }

    @Test
    void shouldDiffReferenceSparseNamedComponentsAndEveryTargetOfARelation() throws Exception {
        World world = new World();
        long[] ids = new long[4];
        Simulation sim = features(world, true, ids);
        try (RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            sim.run(20, 0, null);
        }
        Timeline timeline = Timeline.ofRecording(dir, () -> features(new World(), false, ids));
        try (Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0).withTimeline(timeline))) {
            Client c = new Client(explorer);
            String made = c.getOk("/api/past/diff?from=1&to=6&id=" + ids[0]);
            assertTrue(made.contains("\"changes\":[{\"field\":\"Counter.value\",\"from\":\"2\",\"to\":\"7\"},"
                    + "{\"field\":\"Brain.value\",\"from\":\"Brain(4)\",\"to\":\"Brain(14)\"},"
                    + "{\"field\":\"Score.value\",\"from\":null,\"to\":\"7\"},"
                    + "{\"field\":\"Buff.level\",\"from\":null,\"to\":\"1\"},"
                    + "{\"field\":\"ChildOf.target\",\"from\":null,\"to\":\"" + ids[1] + "\"},"
                    + "{\"field\":\"Likes.targets\",\"from\":null,\"to\":\"" + ids[2] + "\"}]"), made);
            String moved = c.getOk("/api/past/diff?from=6&to=9&id=" + ids[0]);
            assertTrue(moved.contains("{\"field\":\"ChildOf.target\",\"from\":\"" + ids[1] + "\",\"to\":\""
                    + ids[2] + "\"}"), moved);
            // a second Likes target leaves the marker's field (the first target) as it was
            assertTrue(moved.contains("{\"field\":\"Likes.targets\",\"from\":\"" + ids[2] + "\",\"to\":\""
                    + ids[2] + ", " + ids[3] + "\"}"), moved);
            assertTrue(moved.contains("{\"field\":\"Buff.level\",\"from\":\"1\",\"to\":null}"), moved);
            String past = c.getOk("/api/past/entity?tick=9&id=" + ids[0]);
            String likes = "\"targets\":2,\"text\":\"2 targets: " + ids[2] + ", " + ids[3] + " (the target field "
                    + "holds the first; every pair is under relation Likes)\"";
            assertTrue(past.contains(likes), past);
            assertTrue(Views.entity(world, ids[0], EditRules.frozen("-")).contains(likes), "the live view too");
            String page = c.getOk("/api/past/query?tick=9&q=" + URLEncoder.encode("Likes(" + ids[3] + ")",
                    StandardCharsets.UTF_8));
            assertTrue(page.contains("\"values\":[[{\"v\":\"" + ids[2] + " (+1 more target)\",\"ref\":" + ids[2]
                    + "}]]"), "Likes(3) matched, its first target shown: " + page);
            assertTrue(c.getOk("/api/timeline").contains("\"divergedAt\":-1"));
        } finally {
            sim.close();
        }
    }

}
