package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Durability;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.Resources;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline over a recording whose files are replaced in place by another run's while it
 * follows them: it starts again from the new recording, and shows its worlds, never one built
 * from the old run's replay or snapshots and the new run's inputs, and no divergence that the
 * replacement made.
 */
class TimelineReplacedTest {
    record Counter(int value) {
    }

    @TempDir
    Path dir;

    /**
     * Twenty counters from {@code start}, {@code start + 5}, ...; each tick every counter grows by
     * the sum of the tick's inputs (each a 4-byte int); hashed every {@code hashEvery} ticks.
     */
    static Simulation program(World world, boolean populate, int start, int hashEvery) {
        Component<Counter> counter = world.component(Counter.class);
        if (populate) {
            for (int i = 0; i < 20; i++) {
                world.spawn(new Counter(start + i * 5));
            }
        }
        Field value = counter.field("value");
        Query all = world.query().with(counter).build();
        SimulationBuilder builder = Simulation.builder(world).seed(3).workers(1).hashEvery(hashEvery);
        Resources res = builder.resources();
        return builder.systems(s -> s.system("add").exclusive(w -> {
            InputBatch in = res.get(Simulation.INPUTS);
            int add = 0;
            for (int i = 0; i < in.size(); i++) {
                add += in.payloadInt(i, 0);
            }
            int by = add;
            all.forEach((chunk, row) -> {
                long e = chunk.entity(row);
                w.setInt(e, value, w.getInt(e, value) + by);
            });
        })).build();
    }

    /**
     * Runs {@code ticks} ticks of {@code sim}, each with one input of {@code step}, and notes
     * entity {@code id}'s counter after each tick in {@code values}.
     */
    private static void run(Simulation sim, RunRecorder rec, int ticks, int step, long id, Map<Long, Integer> values) {
        Field value = sim.world().columns().get(0).field("value");
        byte[] payload = ByteBuffer.allocate(4).putInt(step).array();
        for (int i = 0; i < ticks; i++) {
            assertTrue(rec.inputs().tryPublish(1, 1, payload, 0, 4));
            sim.run(1, 0, null);
            values.put(sim.currentTick() - 1, sim.world().getInt(id, value));
        }
    }

    /**
     * The case a resume cannot see: the same program recorded again with other input values of
     * the same sizes, its journal written over the live one in place (the same file, the same
     * length, the same record count, the same record where the replay's reader stopped: a tick
     * end, tick 9 being unhashed). The replay went on from the old run's world at tick 9 with
     * the new run's inputs: tick 19 showed neither run's counter, and the new run's hash at tick
     * 10 was a divergence telling the user to build the simulation otherwise.
     */
    @Test
    void shouldStartAgainFromAJournalRewrittenInPlaceByAnotherRunOfTheSameSizes() throws Exception {
        World world = new World();
        Simulation a = program(world, true, 0, 5);
        long first = Fixture.firstEntity(world);
        Path live = dir.resolve("live");
        Map<Long, Integer> aValues = new HashMap<>();
        RunRecorder rec = RunRecorder.start(a, live, InputPipeline.builder(), Durability.EVERY_TICK);
        Timeline timeline = Timeline.ofRecording(live, () -> program(new World(), false, 0, 5));
        try (Explorer explorer = Explorer.attach(a, ExplorerOptions.loopback(0).withTimeline(timeline))) {
            Client c = new Client(explorer);
            for (int i = 0; i < 10; i++) { // followed tick by tick as it grows: appends are no replacement
                run(a, rec, 1, 1, first, aValues);
                long newest = a.currentTick() - 1;
                String info = c.getOk("/api/timeline");
                assertFalse(info.contains("\"replaced\""), info);
                assertTrue(info.contains("\"replacedChecks\":\"sampled, not read whole: "), "how it looks: " + info);
                if (info.contains("\"last\":" + newest + ",")) {
                    assertValue(c, newest, first, aValues.get(newest));
                }
            }
            awaitLast(c, 9); // EVERY_TICK: a tick is forced before the next begins, the last one may still be on its way
            assertValue(c, 9, first, aValues.get(9L)); // the replay stands at the journal's live end, after tick 9
            run(a, rec, 10, 1, first, aValues);
            rec.close();

            // the same program recorded again from the same start, each input 2 where it was 1
            World otherWorld = new World();
            Simulation b = program(otherWorld, true, 0, 5);
            Map<Long, Integer> bValues = new HashMap<>();
            Path other = dir.resolve("other");
            try (RunRecorder recB = RunRecorder.start(b, other, InputPipeline.builder(), Durability.EVERY_TICK)) {
                run(b, recB, 20, 2, Fixture.firstEntity(otherWorld), bValues);
            }
            b.close();
            byte[] journal = Files.readAllBytes(other.resolve(RunRecorder.JOURNAL));
            Path liveJournal = live.resolve(RunRecorder.JOURNAL);
            assertEquals(Files.size(liveJournal), journal.length, "the same sizes");
            assertNotEquals(aValues.get(19L), bValues.get(19L));
            writeInPlace(liveJournal, journal);

            assertValue(c, 19, first, bValues.get(19L)); // on from tick 9: the old run's world with the new inputs
            String info = c.getOk("/api/timeline");
            assertTrue(info.contains("\"divergedAt\":-1") && !info.contains("\"hashesMatched\":0,"),
                    "the new recording's hashes match the new recording: " + info);
            assertTrue(info.contains("\"replaced\":\"the recording in " + live + " was replaced at "), info);
            assertTrue(info.contains("(inputs.journal was rewritten: its first bytes differ)"), info);
            assertTrue(info.contains("; the timeline starts again from the new one"), info);
            assertTrue(info.contains("\"first\":-1,\"last\":19,"), info);
            for (long t : new long[] {4, 12, -1, 19}) {
                assertValue(c, t, first, t < 0 ? 0 : bValues.get(t));
            }
            assertTrue(c.getOk("/api/timeline").contains("\"divergedAt\":-1"));
        } finally {
            a.close();
        }
    }

    /**
     * Another run's start.snapshot copied over the recording's (its journal, unhashed, holds the
     * same bytes): a travel back restored the old start the timeline kept in memory, and showed
     * the old run's world.
     */
    @Test
    void shouldStartAgainFromAStartSnapshotReplacedByAnotherRuns() throws Exception {
        World world = new World();
        Simulation a = program(world, true, 0, 0);
        long first = Fixture.firstEntity(world);
        Map<Long, Integer> aValues = new HashMap<>();
        Path recording = dir.resolve("recording");
        try (RunRecorder rec = RunRecorder.start(a, recording, InputPipeline.builder())) {
            run(a, rec, 20, 1, first, aValues);
        }
        World otherWorld = new World();
        Simulation b = program(otherWorld, true, 1000, 0);
        Map<Long, Integer> bValues = new HashMap<>();
        Path other = dir.resolve("other");
        try (RunRecorder recB = RunRecorder.start(b, other, InputPipeline.builder())) {
            run(b, recB, 20, 1, Fixture.firstEntity(otherWorld), bValues);
        }
        b.close();
        assertArrayEquals(Files.readAllBytes(other.resolve(RunRecorder.JOURNAL)),
                Files.readAllBytes(recording.resolve(RunRecorder.JOURNAL)), "the same inputs, no hashes");
        Timeline timeline = Timeline.ofRecording(recording, () -> program(new World(), false, 0, 0));
        try (Explorer explorer = Explorer.attach(a, ExplorerOptions.loopback(0).withTimeline(timeline))) {
            Client c = new Client(explorer);
            assertValue(c, 15, first, aValues.get(15L));
            assertValue(c, 3, first, aValues.get(3L));
            Files.copy(other.resolve(RunRecorder.SNAPSHOT), recording.resolve(RunRecorder.SNAPSHOT),
                    StandardCopyOption.REPLACE_EXISTING);
            assertValue(c, 2, first, bValues.get(2L)); // back: the old start, kept in memory, and the inputs
            assertValue(c, 17, first, bValues.get(17L));
            assertValue(c, -1, first, 1000);
            String info = c.getOk("/api/timeline");
            assertTrue(info.contains("\"replaced\":\"the recording in " + recording + " was replaced at ")
                    && info.contains("start.snapshot"), info);
        } finally {
            a.close();
        }
    }

    /** Writes {@code bytes} over {@code file} in place (the same file), until its modification time moved. */
    private static void writeInPlace(Path file, byte[] bytes) throws IOException, InterruptedException {
        FileTime before = Files.getLastModifiedTime(file);
        Files.write(file, bytes); // truncates and writes the same file: its key stays
        while (Files.getLastModifiedTime(file).equals(before)) { // within one step of the file system's clock
            Thread.sleep(10);
            Files.write(file, bytes);
        }
    }

    /** Waits (30 s at most) until the timeline's span reaches tick {@code tick}. */
    private static void awaitLast(Client c, long tick) throws Exception {
        long until = System.nanoTime() + 30_000_000_000L;
        String info = c.getOk("/api/timeline");
        while (Long.parseLong(info.replaceAll("(?s).*\"last\":(-?\\d+),.*", "$1")) < tick) {
            assertTrue(System.nanoTime() < until, "the journal did not reach tick " + tick + ": " + info);
            Thread.sleep(10);
            info = c.getOk("/api/timeline");
        }
    }

    private static void assertValue(Client c, long tick, long id, int expected) throws Exception {
        String past = c.getOk("/api/past/entity?tick=" + tick + "&id=" + id);
        assertTrue(past.contains("\"name\":\"value\",\"type\":\"INT\",\"value\":\"" + expected + "\""),
                "after tick " + tick + " the counter is " + expected + ": " + past);
    }

}
