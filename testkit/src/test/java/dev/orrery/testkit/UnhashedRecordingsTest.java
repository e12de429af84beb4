package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings of a game built with {@code hashEvery(0)}: the journal holds no state hash, so
 * CompareRecordings compared no tick, yet said 'state: the same hash on every tick both hold (0
 * hashed ticks)' and exited 0 for two recordings whose worlds differ after every tick (a walker
 * that moves 1 a tick in one, 2 in the other). It now says that the states were not compared,
 * why and the fix, and exits 2 where nothing else told them apart. A golden recording of such a
 * game held no hash either, so its replay passed whatever the game now did:
 * GoldenRecording.record now refuses the game, naming hashEvery and the fix, and leaves no
 * recording behind.
 */
class UnhashedRecordingsTest {
    record Pos(float x) {}

    /** One walker that moves {@code step} a tick; the journal hashes every {@code hashEvery} ticks. */
    static SimulationFactory game(float step, int hashEvery) {
        return (workers, populate) -> {
            World world = new World();
            Component<Pos> pos = world.component(Pos.class);
            if (populate) {
                world.spawn(new Pos(0));
            }
            return Simulation.builder(world).workers(workers).seed(3).hashEvery(hashEvery).systems(s -> {
                s.system("walk").query(world.query().with(pos).build()).writes(pos).forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(pos.field("x"));
                    for (int i = 0; i < job.chunk().size(); i++) {
                        x[i] += step;
                    }
                });
            }).build();
        };
    }

    @TempDir
    static Path dir;
    static Path one;
    static Path two;
    static Path twoHashed;

    @BeforeAll
    static void record() {
        one = dir.resolve("one");
        two = dir.resolve("two");
        twoHashed = dir.resolve("two-hashed");
        recordPlainly(game(1, 0), one);
        recordPlainly(game(2, 0), two);
        GoldenRecording.record(game(2, 1), InputScript.NONE, 5, twoHashed);
    }

    /** Five ticks recorded with RunRecorder (GoldenRecording.record refuses a game that journals no hash). */
    private static void recordPlainly(SimulationFactory game, Path to) {
        try (Simulation sim = game.create(1, true); RunRecorder rec = RunRecorder.start(sim, to, InputPipeline.builder())) {
            for (int t = 0; t < 5; t++) {
                sim.tick();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String[] run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = CompareRecordings.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {String.valueOf(status), out.toString(StandardCharsets.UTF_8),
            err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void recordingsWithoutAStateHashAreNotCalledTheSame() {
        String[] o = run(one.toString(), two.toString());
        String what = o[1] + o[2];
        assertEquals("2", o[0], what);
        assertFalse(o[1].contains("the same hash on every tick"), what);
        String why = "no tick both hold has a state hash (0 of a's 5 ticks, 0 of b's 5): a game built with "
                + "hashEvery(0) journals none; build it with hashEvery(1), the default, and record again";
        assertTrue(o[1].contains("state: not compared: " + why + "\n"), what);
        assertEquals("compare-recordings: the recordings' states were not compared: " + why, o[2].strip(), what);

        // against a recording that holds hashes, the other still holds none on a tick both hold
        String[] mixed = run(twoHashed.toString(), one.toString());
        assertEquals("2", mixed[0], mixed[1] + mixed[2]);
        assertTrue(mixed[1].contains("state: not compared: no tick both hold has a state hash (5 of a's 5 ticks, 0 of "
                + "b's 5): a game built with hashEvery(0) journals none"), mixed[1]);
    }

    @Test
    void aGoldenRecordingOfAGameThatJournalsNoHashIsRefused() throws IOException {
        Path golden = dir.resolve("golden-unhashed");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GoldenRecording.record(game(1, 0), InputScript.NONE, 5, golden));
        assertEquals("GoldenRecording.record: the game journaled no state hash in 5 ticks (its simulation is built "
                + "with hashEvery(0)), so a replay of the recording would check nothing; build it with hashEvery(1), "
                + "the default, in the factory given to the kit. Nothing was recorded in " + golden, e.getMessage());
        try (var left = Files.list(golden)) {
            assertEquals(0, left.count(), "nothing left to refuse the next record");
        }
        GoldenRecording.record(game(1, 1), InputScript.NONE, 5, golden); // the fixed game records there
        GoldenRecording.assertReplays(golden, game(1, 1));
        assertThrows(DeterminismFailure.class, () -> GoldenRecording.assertReplays(golden, game(2, 1)));
    }
}
