package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.testkit.Market.Bug;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
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

/**
 * What CompareRecordings says of the resources when the end snapshots cannot be compared.
 * (1) An end snapshot cut short or overwritten: the report said 'resources: not compared at the
 * end (snapshot is truncated ...)' without naming the file, advised 'give --game to list the
 * resources that differ' where the worlds differ (no game reads a damaged file), and with
 * --game said the end snapshots 'could not be restored into the game', as if the game were at
 * fault. (2) Recordings that end on different ticks, or one without an end snapshot (a plain
 * RunRecorder folder), had their resources compared nowhere and the report said nothing of it
 * where the worlds agree (exit 0 as for recordings that agree in full), and advised --game where
 * they differ, which cannot help. The recordings hold the resources at their end only, so
 * there is no last common tick to compare them at: the report now says plainly that they were
 * not compared, and why.
 */
class EndSnapshotNotComparedTest {
    @TempDir
    static Path dir;
    /** Worlds that agree on every tick, a score resource that differs (ResourceOrderTest's game). */
    static Path onePoint;
    static Path twoPoints;
    static Path twoPointsShort;
    /** Worlds that differ from tick 1 after 'trade', the bank resource first (ResourceOnlyDifferenceTest's). */
    static Path taxFirst;
    static Path interestFirst;

    @BeforeAll
    static void record() {
        onePoint = dir.resolve("one-point");
        twoPoints = dir.resolve("two-points");
        twoPointsShort = dir.resolve("two-points-short");
        GoldenRecording.record(ResourceOrderTest.game(1, false), InputScript.NONE, 5, onePoint);
        GoldenRecording.record(ResourceOrderTest.game(2, false), InputScript.NONE, 5, twoPoints);
        GoldenRecording.record(ResourceOrderTest.game(2, false), InputScript.NONE, 3, twoPointsShort);
        taxFirst = dir.resolve("tax-first");
        interestFirst = dir.resolve("interest-first");
        GoldenRecording.record(Market.factory(Bug.NONE), InputScript.NONE, 20, taxFirst);
        GoldenRecording.record(Market.factory(Bug.INTEREST_BEFORE_TAX), InputScript.NONE, 20, interestFirst);
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

    /** A copy of the recording in {@code from}, named {@code name}. */
    private static Path copy(Path from, String name) throws IOException {
        Path to = dir.resolve(name);
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }

    /** A copy of {@code from} whose end snapshot is cut to half its length; returns the copy. */
    private static Path cutEnd(Path from, String name) throws IOException {
        Path to = copy(from, name);
        try (FileChannel c = FileChannel.open(to.resolve(GoldenRecording.END), StandardOpenOption.WRITE)) {
            c.truncate(c.size() / 2);
        }
        return to;
    }

    /** What the snapshot reader says of the end snapshot in {@code recording}. */
    private static String readerSays(Path recording) throws IOException {
        byte[] bytes = Files.readAllBytes(recording.resolve(GoldenRecording.END));
        return assertThrows(SnapshotException.class, () -> EngineInternals.snapshotResources(bytes)).getMessage();
    }

    private static String unreadable(Path recording) throws IOException {
        return "the end snapshot " + recording.resolve(GoldenRecording.END) + " could not be read ("
                + readerSays(recording) + ")";
    }

    @Test
    void aDamagedEndSnapshotIsNamedWithWhyAndTheFixWhereTheWorldsAgree() throws IOException {
        Path damaged = cutEnd(twoPoints, "two-points-damaged");
        for (String[] args : new String[][] {{onePoint.toString(), damaged.toString()},
                {"--game", ResourceOrderTest.OnePoint.class.getName(), onePoint.toString(), damaged.toString()}}) {
            Outcome o = run(args);
            String what = String.join(" ", args) + "\n" + o.out() + o.err();
            assertEquals(0, o.status(), "the ticks both hold agree: " + what);
            assertTrue(o.out().contains("resources: not compared: " + unreadable(damaged)
                    + "; record the run again, or take the file back from where the recording is kept\n"), what);
            assertFalse(o.out().contains("--game"), what);
        }
    }

    @Test
    void aDamagedEndSnapshotIsNotAnswerableByGivingTheGameWhereTheWorldsDiffer() throws IOException {
        Path damaged = cutEnd(interestFirst, "interest-first-damaged");
        Outcome o = run(taxFirst.toString(), damaged.toString());
        String what = o.out() + o.err();
        assertEquals(1, o.status(), what);
        assertTrue(o.out().contains("system: first difference after system 'trade'"), what);
        assertTrue(o.out().contains("resources: not compared: " + unreadable(damaged)), what);
        assertFalse(o.out().contains("give --game"), what);

        // with the game, the file is named as damaged, not the game blamed for refusing it
        Outcome game = run("--game", MarketGame.class.getName(), taxFirst.toString(), damaged.toString());
        String g = game.out() + game.err();
        assertEquals(1, game.status(), g);
        assertTrue(game.out().contains("entities and resources: not compared: " + unreadable(damaged)
                + "; record the run again, or take the file back from where the recording is kept\n"), g);
        assertFalse(game.out().contains("could not be restored into the game"), g);
    }

    @Test
    void anEndSnapshotTheGameRefusesIsNamed() {
        // readable files, the wrong game: the restore's refusal names the file and asks whether it is the game
        Outcome o = run("--game", ResourceOrderTest.OnePoint.class.getName(), taxFirst.toString(),
                interestFirst.toString());
        assertEquals(1, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("entities and resources: not compared: the end snapshot "
                + taxFirst.resolve(GoldenRecording.END) + " did not restore into the --game class ("), o.out());
        assertTrue(o.out().contains("); is it the game that made the recording?\n"), o.out());
    }

    @Test
    void recordingsThatEndOnDifferentTicksSayTheResourcesWereNotCompared() {
        for (String[] args : new String[][] {{onePoint.toString(), twoPointsShort.toString()},
                {"--game", ResourceOrderTest.OnePoint.class.getName(), onePoint.toString(), twoPointsShort.toString()}}) {
            Outcome o = run(args);
            String what = String.join(" ", args) + "\n" + o.out() + o.err();
            assertEquals(0, o.status(), "the ticks both hold agree: " + what);
            assertTrue(o.out().contains("state: the same hash on every tick both hold (3 hashed ticks)"), what);
            assertTrue(o.out().contains("resources: not compared: the recordings end on different ticks (4 against 2) "
                    + "and hold their resources at their end only (" + GoldenRecording.END + "); the state hashes cover "
                    + "the world, not the resources: record both runs for the same number of ticks to compare them\n"),
                    what);
        }
    }

    @Test
    void aRecordingWithoutAnEndSnapshotSaysTheResourcesWereNotCompared() throws IOException {
        Path plain = copy(twoPoints, "two-points-no-end");
        Files.delete(plain.resolve(GoldenRecording.END)); // as a plain RunRecorder folder holds it
        String none = "resources: not compared: " + plain + " holds no " + GoldenRecording.END + " (RunRecorder writes "
                + "none; GoldenRecording.record does); the state hashes cover the world, not the resources\n";
        Outcome o = run(onePoint.toString(), plain.toString());
        assertEquals(0, o.status(), o.out() + o.err());
        assertTrue(o.out().contains(none), o.out());

        // where the worlds differ, --game cannot list what no file holds: the report no longer asks for it
        Path plainMarket = copy(interestFirst, "interest-first-no-end");
        Files.delete(plainMarket.resolve(GoldenRecording.END));
        Outcome differ = run(taxFirst.toString(), plainMarket.toString());
        assertEquals(1, differ.status(), differ.out() + differ.err());
        assertTrue(differ.out().contains("resources: not compared: " + plainMarket + " holds no " + GoldenRecording.END),
                differ.out());
        assertFalse(differ.out().contains("give --game"), differ.out());
        Outcome differGame = run("--game", MarketGame.class.getName(), taxFirst.toString(), plainMarket.toString());
        assertEquals(1, differGame.status(), differGame.out() + differGame.err());
        assertTrue(differGame.out().contains("entities and resources: not compared: " + plainMarket + " holds no "
                + GoldenRecording.END + " (RunRecorder writes none; GoldenRecording.record does)"), differGame.out());

        Outcome both = run(plain.toString(), plain.toString());
        assertTrue(both.out().contains("resources: not compared: neither recording holds an " + GoldenRecording.END
                + " (RunRecorder writes none; GoldenRecording.record does); the state hashes cover the world, not the "
                + "resources\n"), both.out());
    }
}
