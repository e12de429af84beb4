package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.RunRecorder;
import dev.orrery.testkit.Garden.Mistake;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two recordings compared from the command line: tick, system, components, entities and fields. */
class CompareRecordingsTest {
    @TempDir
    static Path dir;
    static Path plain;
    static Path again;
    static Path changed;
    static Path spawned;
    static Path midTick;
    static Path midTickAgain;
    // the same recordings as an older kit wrote them (ORRSYSH1: no hash after a sync point)
    static Path plainV1;
    static Path spawnedV1;
    static Path midTickV1;
    static Path midTickAgainV1;

    @BeforeAll
    static void record() {
        plain = dir.resolve("plain");
        again = dir.resolve("again");
        changed = dir.resolve("changed");
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 20, plain);
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 20, again);
        GoldenRecording.record(Garden.factory(Mistake.CHANGED_RULE), Garden.GARDENER, 20, changed);
        spawned = dir.resolve("spawned");
        GoldenRecording.record(Garden.factory(Mistake.STATIC_COUNTER_SPAWN), Garden.GARDENER, 20, spawned);
        midTick = dir.resolve("mid-tick");
        midTickAgain = dir.resolve("mid-tick-again");
        GoldenRecording.record(Garden.factory(Mistake.STATIC_COUNTER_SPAWN_MID_TICK), Garden.GARDENER, 20, midTick);
        GoldenRecording.record(Garden.factory(Mistake.STATIC_COUNTER_SPAWN_MID_TICK), Garden.GARDENER, 20, midTickAgain);
        plainV1 = OldSystemHashes.copy(plain, dir.resolve("plain-v1"));
        spawnedV1 = OldSystemHashes.copy(spawned, dir.resolve("spawned-v1"));
        midTickV1 = OldSystemHashes.copy(midTick, dir.resolve("mid-tick-v1"));
        midTickAgainV1 = OldSystemHashes.copy(midTickAgain, dir.resolve("mid-tick-again-v1"));
    }

    private record Outcome(int status, String out, String err) {
    }

    private static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = CompareRecordings.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldFindTwoRecordingsOfTheSameGameEqual() {
        Outcome o = run(plain.toString(), again.toString());
        assertEquals(0, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("state: the same hash on every tick both hold (20 hashed ticks)"), o.out());
        assertTrue(o.out().contains("  a: " + plain + ": 20 ticks (to tick 19), 20 with a state hash\n"), o.out());
    }

    @Test
    void shouldNameTheTickSystemComponentEntityAndField() {
        Outcome o = run("--game", GardenGame.class.getName(), plain.toString(), changed.toString());
        assertEquals(1, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("inputs: the same on every tick both hold"), o.out());
        assertTrue(o.out().contains("state: first differs at tick 0"), o.out());
        assertTrue(o.out().contains("system: first difference after system 'mistake'"), o.out());
        assertTrue(o.out().contains("components: [Wind] differ"), o.out());
        assertTrue(o.out().contains("Wind.gust"), o.out());
        assertTrue(o.out().contains("cause: the same inputs gave different states"), o.out());
    }

    @Test
    void shouldNameTheSystemWhoseCommandsDifferNotTheNextOne() {
        // 'mistake' spawns a Seed in one recording only: the world after each system agrees, and the
        // difference shows once its commands are applied at the end of tick 0; recordings from an older kit
        // hold no hash after a sync point, so the re-run with --game tells whose commands those were
        Outcome o = run("--game", GardenGame.CounterSpawn.class.getName(), plainV1.toString(), spawnedV1.toString());
        assertEquals(1, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("state: first differs at tick 0"), o.out());
        assertTrue(o.out().contains("system: first difference when the commands of system 'mistake' were applied (the "
                + "sync point at the end of tick 0;"), o.out());
        assertTrue(o.out().contains("or an observer hook (world.observe) those commands fired"), o.out());
        assertTrue(o.out().contains("re-run with --game on one worker"), o.out());
        assertTrue(o.out().contains("components: [Seed] differ"), o.out());

        // without the game, the tool says what old recordings can tell and how to learn more
        Outcome plainly = run(plainV1.toString(), spawnedV1.toString());
        assertEquals(1, plainly.status(), plainly.out() + plainly.err());
        assertTrue(plainly.out().contains("system: every system left the same world"), plainly.out());
        assertTrue(plainly.out().contains("--game"), plainly.out());
    }

    @Test
    void shouldNotBlameTheSystemAfterASyncPointForTheCommandsItApplied() {
        // recordings from an older kit (no hash after a sync point): the Seed 'mistake' spawns (its value
        // from a static counter, so each run's differs) is applied at a sync point before 'season': the
        // recordings first differ after 'season', which did nothing wrong
        Outcome o = run("--game", GardenGame.CounterSpawnMidTick.class.getName(), midTickV1.toString(),
                midTickAgainV1.toString());
        assertEquals(1, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("system: first difference when the commands of system 'mistake' were applied (the "
                + "sync point before system 'season' at tick 0;"), o.out());
        assertFalse(o.out().contains("first difference after system 'season'"), o.out());

        // against a recording of the game before it spawned (two versions of the game)
        Outcome versions = run("--game", GardenGame.CounterSpawnMidTick.class.getName(), plainV1.toString(),
                midTickV1.toString());
        assertEquals(1, versions.status(), versions.out() + versions.err());
        assertTrue(versions.out().contains("system: first difference when the commands of system 'mistake' were applied "
                + "(the sync point before system 'season' at tick 0;"), versions.out());

        // given the version before the spawn, the re-run has no sync point there to see: it says so
        Outcome older = run("--game", GardenGame.class.getName(), plainV1.toString(), midTickV1.toString());
        assertTrue(older.out().contains("system: first difference after system 'season' at tick 0 (the first recording "
                + "re-run with --game"), older.out());
        assertTrue(older.out().contains("a sync point only the second's version of the game had is not seen"),
                older.out());

        // without the game, old recordings alone cannot tell the two apart, and the tool says so
        Outcome plainly = run(midTickV1.toString(), midTickAgainV1.toString());
        assertTrue(plainly.out().contains("system: first difference after system 'season', or in commands applied at "
                + "a sync point before it"), plainly.out());
    }

    @Test
    void shouldNameTheSystemWhoseCommandsDifferFromTheRecordedSyncPoints() {
        // the recordings hold the world's hash after each sync point too: given the version of the game
        // before the spawn (which has no sync point there to re-run), or no game at all, the system whose
        // commands differ is named, not 'season' after them
        String midTickSync = "system: first difference when the commands of system 'mistake' were applied (the sync "
                + "point before system 'season' at tick 0;";
        for (String[] args : new String[][] {{"--game", GardenGame.class.getName(), plain.toString(), midTick.toString()},
                {plain.toString(), midTick.toString()}, {midTick.toString(), plain.toString()},
                {midTick.toString(), midTickAgain.toString()}}) {
            Outcome o = run(args);
            assertEquals(1, o.status(), o.out() + o.err());
            assertTrue(o.out().contains(midTickSync), String.join(" ", args) + "\n" + o.out());
            assertFalse(o.out().contains("first difference after system 'season'"), o.out());
            assertFalse(o.out().contains("or in commands applied at a sync point before it"), o.out());
            assertTrue(o.out().contains("after each sync point"), o.out());
        }
        // commands applied at the end of the tick, without the game
        Outcome atEnd = run(plain.toString(), spawned.toString());
        assertEquals(1, atEnd.status(), atEnd.out() + atEnd.err());
        assertTrue(atEnd.out().contains("system: first difference when the commands of system 'mistake' were applied "
                + "(the sync point at the end of tick 0;"), atEnd.out());
        assertFalse(atEnd.out().contains("every system left the same world"), atEnd.out());

        // an old recording against a new one: only the hashes after each system are compared, as before
        Outcome mixed = run(midTickV1.toString(), midTickAgain.toString());
        assertTrue(mixed.out().contains("system: first difference after system 'season', or in commands applied at "
                + "a sync point before it"), mixed.out());
    }

    @Test
    void shouldPrintExpectedErrorsAsOneLine() {
        for (String[] args : new String[][] {{plain.toString()}, {"--game"}, {"--fast", "a", "b"},
                {plain.toString(), dir.resolve("missing").toString()},
                {"--game", "no.such.Game", plain.toString(), again.toString()},
                {"--game", String.class.getName(), plain.toString(), again.toString()}}) {
            Outcome o = run(args);
            assertEquals(2, o.status(), String.join(" ", args));
            assertTrue(o.err().startsWith("compare-recordings: "), o.err());
            assertEquals(1, o.err().strip().lines().count(), "one line: " + o.err());
            assertFalse(o.err().contains("Exception"), o.err());
        }
    }

    @Test
    void shouldNameTheArgumentsOrTheFolderThatAreWrong() throws Exception {
        // Before, one folder or three gave the bare usage line, and a missing folder or a file "holds no inputs.journal".
        String usage = "usage: CompareRecordings [--game CLASS] <recording-folder-a> <recording-folder-b>";
        assertEquals("compare-recordings: give two recording folders, not none; " + usage, run().err().strip());
        assertEquals("compare-recordings: give two recording folders, not 1 ('" + plain + "'); " + usage,
                run(plain.toString()).err().strip());
        assertEquals("compare-recordings: give two recording folders, not 3 ('" + plain + "' '" + again + "' 'x'); " + usage,
                run(plain.toString(), again.toString(), "x").err().strip());
        Path missing = dir.resolve("missing");
        Outcome none = run(plain.toString(), missing.toString());
        assertEquals(2, none.status());
        assertEquals("compare-recordings: no folder " + missing + "; give a folder RunRecorder wrote", none.err().strip());
        // a relative folder (as the book's shell block gives run-a run-b) says where it was looked for
        Outcome relative = run(plain.toString(), "run-b");
        assertEquals(2, relative.status());
        assertEquals("compare-recordings: no folder run-b (looked for at " + Path.of("run-b").toAbsolutePath() + "); give "
                + "a folder RunRecorder wrote", relative.err().strip());
        Path file = again.resolve(RunRecorder.JOURNAL);
        assertEquals("compare-recordings: " + file + " is a file, not a folder; give a folder RunRecorder wrote",
                run(file.toString(), again.toString()).err().strip());
    }

    @Test
    void shouldSayWhenARecordingIsCutShort() throws Exception {
        Path cut = dir.resolve("cut");
        Files.createDirectories(cut);
        try (Stream<Path> files = Files.list(again)) {
            for (Path f : files.toList()) {
                Files.copy(f, cut.resolve(f.getFileName()));
            }
        }
        Path journal = cut.resolve(RunRecorder.JOURNAL);
        Path columns = cut.resolve(RunRecorder.COLUMNS);
        try (FileChannel j = FileChannel.open(journal, StandardOpenOption.WRITE);
             FileChannel c = FileChannel.open(columns, StandardOpenOption.WRITE)) {
            j.truncate(j.size() / 2); // a crash half-way through the run
            c.truncate(c.size() / 2 - 3); // and inside a record of the column log
        }
        Outcome o = run(plain.toString(), cut.toString());
        assertEquals(0, o.status(), "the ticks both hold agree: " + o.out() + o.err());
        assertTrue(o.out().contains("note: the recordings hold different numbers of ticks (20 against "), o.out());
        assertTrue(o.out().contains("the journal is cut short (journal "), o.out());
        assertTrue(o.out().contains(RunRecorder.COLUMNS + " ends part-way through a record"), o.out());
        assertFalse(o.out().contains("  a: " + plain + ": 20 ticks (to tick 19), 20 with a state hash;"),
                "the whole recording is not called cut: " + o.out());
    }

    @Test
    void shouldPrintItsHelpAndExitZero() {
        for (String flag : new String[] {"--help", "-h"}) {
            Outcome o = run(flag);
            assertEquals(0, o.status(), o.err());
            assertTrue(o.out().startsWith("Usage: CompareRecordings [--game CLASS]"), o.out());
            assertTrue(o.out().contains("Exit status: 0"), o.out());
            assertEquals("", o.err());
        }
    }

    @Test
    void shouldSayWhenTheRecordingsSystemsAreNamedOtherwiseThoughTheStatesAgree() {
        // a system renamed between two versions of a game: the states agree, so the exit status is 0, but a golden
        // recording of one is refused by the other (its snapshot carries each system's state by name), and the
        // comparison said nothing of it
        Path count = dir.resolve("renamed-count");
        Path tally = dir.resolve("renamed-tally");
        GoldenRecording.record(GoldenRecordingTest.counter("count"), InputScript.NONE, 5, count);
        GoldenRecording.record(GoldenRecordingTest.counter("tally"), InputScript.NONE, 5, tally);
        Outcome o = run(count.toString(), tally.toString());
        assertEquals(0, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("state: the same hash on every tick both hold (5 hashed ticks)"), o.out());
        assertTrue(o.out().contains("systems: a has [count] that b has not, b has [tally] that a has not"), o.out());
        assertTrue(o.out().contains("a recording replays only into a game with its own systems"), o.out());

        Outcome same = run(plain.toString(), again.toString());
        assertFalse(same.out().contains("systems:"), same.out());
    }
}
