package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.testkit.Garden.Mistake;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
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

    @BeforeAll
    static void record() {
        plain = dir.resolve("plain");
        again = dir.resolve("again");
        changed = dir.resolve("changed");
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 20, plain);
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 20, again);
        GoldenRecording.record(Garden.factory(Mistake.CHANGED_RULE), Garden.GARDENER, 20, changed);
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
        assertTrue(o.out().contains("state: the same hash on every tick both hold (20)"), o.out());
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
}
