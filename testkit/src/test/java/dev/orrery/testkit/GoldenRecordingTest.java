package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.RunRecorder;
import dev.orrery.testkit.Garden.Mistake;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A golden recording replays while the game is unchanged and names the system when a rule changed. */
class GoldenRecordingTest {
    @TempDir
    Path dir;

    @Test
    void shouldReplayAnUnchangedGameAndNameTheSystemOfAChangedRule() {
        Path golden = dir.resolve("golden");
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 30, golden);
        assertTrue(Files.isRegularFile(golden.resolve(SystemHashes.FILE)));
        assertTrue(Files.isRegularFile(golden.resolve(GoldenRecording.END)));

        GoldenRecording.assertReplays(golden, Garden.factory(Mistake.NONE));

        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(golden, Garden.factory(Mistake.CHANGED_RULE)));
        assertEquals(0, f.tick(), f.getMessage());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("first difference after system 'mistake' at tick 0"), f.getMessage());
        assertTrue(f.getMessage().contains("differences at the end of the recording, tick 29"), f.getMessage());
        assertTrue(f.getMessage().contains("Wind.gust"), f.getMessage());
        assertTrue(f.getMessage().contains("record it again"), f.getMessage());
    }

    @Test
    void shouldNameTheSystemWhoseCommandsChangedNotTheFirstSystemOfTheNextTick() {
        // 'mistake' now spawns a Seed: the world after each system agrees with the recording, and the
        // difference appears when its commands are applied at the end of tick 0
        Path golden = dir.resolve("golden");
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 5, golden);
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(golden, Garden.factory(Mistake.STATIC_COUNTER_SPAWN)));
        assertEquals(0, f.tick(), f.getMessage());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("first difference when the commands of system 'mistake' were applied (the "
                + "sync point at the end of tick 0;"), f.getMessage());
        assertTrue(f.getMessage().contains("hashed after each system and after each sync point, against the hashes "
                + "recorded"), f.getMessage());

        // a recording from an older kit (ORRSYSH1, no hash after a sync point) still names it
        Path old = OldSystemHashes.copy(golden, dir.resolve("golden-v1"));
        DeterminismFailure fromOld = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(old, Garden.factory(Mistake.STATIC_COUNTER_SPAWN)));
        assertEquals(0, fromOld.tick(), fromOld.getMessage());
        assertEquals(Garden.MISTAKE, fromOld.system(), fromOld.getMessage());
        assertTrue(fromOld.getMessage().contains("first difference when the commands of system 'mistake' were applied at "
                + "the end of tick 0"), fromOld.getMessage());
    }

    @Test
    void shouldNameTheSystemWhoseRecordedCommandsAreGoneNotTheSystemAfterThem() {
        // recorded by a version whose 'mistake' spawns a Seed applied before 'season', replayed by the version
        // before it: the replay has no sync point there, the recording has its hash, and names 'mistake'
        Path golden = dir.resolve("golden");
        GoldenRecording.record(Garden.factory(Mistake.STATIC_COUNTER_SPAWN_MID_TICK), Garden.GARDENER, 5, golden);
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(golden, Garden.factory(Mistake.NONE)));
        assertEquals(0, f.tick(), f.getMessage());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("first difference when the commands of system 'mistake' were applied (the "
                + "sync point before system 'season' at tick 0;"), f.getMessage());
        assertFalse(f.getMessage().contains("first difference after system 'season'"), f.getMessage());
    }

    @Test
    void shouldNameTheFactoryAndTheFixWhenItReturnsNullAsDeterminismCheckDoes() {
        // one refusal for the kit's entry points: the message lacked the fix before, and started otherwise
        for (boolean record : new boolean[] {true, false}) {
            String entry = record ? "GoldenRecording.record" : "GoldenRecording.assertReplays";
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
                if (record) {
                    GoldenRecording.record((w, p) -> null, InputScript.NONE, 3, dir.resolve("null-factory"));
                } else {
                    GoldenRecording.assertReplays(dir.resolve("null-factory"), (w, p) -> null);
                }
            });
            assertTrue(e.getMessage().startsWith("SimulationFactory.create(1, " + record + ") returned null to " + entry)
                    && e.getMessage().contains("Simulation.builder(world)"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseToRecordOverARecording() {
        Path golden = dir.resolve("golden");
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 3, golden);
        // refused as RunRecorder.start refuses such a folder, as a FileAlreadyExistsException naming the file
        // (an IllegalArgumentException before), carried in the kit's UncheckedIOException
        UncheckedIOException e = assertThrows(UncheckedIOException.class,
                () -> GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 3, golden));
        assertTrue(e.getMessage().contains("already holds a recording"), e.getMessage());
        assertEquals(golden.resolve(RunRecorder.JOURNAL).toString(),
                assertInstanceOf(FileAlreadyExistsException.class, e.getCause()).getFile());
    }

    @Test
    void shouldFailNamingTheSystemsWhenAGameWithARenamedSystemReplaysIt() {
        // a renamed system would run without its last-run tick and reader positions: the engine refuses the
        // recording's snapshot; the kit reports it as the game changing, with the fix a golden recording has
        Path golden = dir.resolve("golden");
        GoldenRecording.record(counter("count"), InputScript.NONE, 5, golden);
        GoldenRecording.assertReplays(golden, counter("count"));
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(golden, counter("tally")));
        assertTrue(f.getMessage().contains("'count'") && f.getMessage().contains("'tally'"), f.getMessage());
        assertTrue(f.getMessage().contains("record it again"), f.getMessage());
        assertTrue(f.getCause() instanceof dev.orrery.ecs.SnapshotException, String.valueOf(f.getCause()));
    }

    @Test
    void shouldNameTheFolderToDeleteInTheFixOfBothFailures() {
        // the fix said "delete the folder" and named the recording by its last path element only: a game with a
        // few recordings (golden/orchard, golden/vineyard ...) had to guess which folder, and from where
        Path golden = dir.resolve("recordings").resolve("golden");
        GoldenRecording.record(counter("count"), InputScript.NONE, 5, golden);
        DeterminismFailure renamed = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(golden, counter("tally")));
        assertTrue(renamed.getMessage().contains("delete the folder " + golden + ", record it again"),
                renamed.getMessage());
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 5, dir.resolve("garden"));
        DeterminismFailure changed = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(dir.resolve("garden"), Garden.factory(Mistake.CHANGED_RULE)));
        assertTrue(changed.getMessage().contains("delete the folder " + dir.resolve("garden") + ", record it again"),
                changed.getMessage());
    }

    /** A game of one system, named {@code name}, that counts up a component. */
    static SimulationFactory counter(String name) {
        return (workers, populate) -> {
            dev.orrery.ecs.World world = new dev.orrery.ecs.World();
            var n = world.component(Count.class);
            var v = n.field("n");
            if (populate) {
                world.spawn(new Count(0));
            }
            return dev.orrery.engine.Simulation.builder(world).workers(workers).hashEvery(1)
                    .systems(s -> s.system(name).query(world.query().with(n).build()).writes(n).forEachChunk(job -> {
                        int[] c = job.chunk().writeInts(v);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            c[i]++;
                        }
                    }))
                    .build();
        };
    }

    record Count(int n) {
    }
}
