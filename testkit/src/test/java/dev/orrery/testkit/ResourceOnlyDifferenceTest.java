package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.testkit.Market.Bug;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two versions of {@link Market} that differ only in the order of two declared writers of the
 * bank (a resource with a codec): the world first differs a tick later, after 'trade', the first
 * system that carries the bank into the world. The hashes after each system cover the world
 * only, so the system named is 'trade'; the reports say that the difference may come from a
 * resource written earlier and name the bank.
 */
class ResourceOnlyDifferenceTest {
    @TempDir
    static Path dir;
    static Path taxFirst;
    static Path interestFirst;

    @BeforeAll
    static void record() {
        taxFirst = dir.resolve("tax-first");
        interestFirst = dir.resolve("interest-first");
        GoldenRecording.record(Market.factory(Bug.NONE), InputScript.NONE, 20, taxFirst);
        GoldenRecording.record(Market.factory(Bug.INTEREST_BEFORE_TAX), InputScript.NONE, 20, interestFirst);
    }

    @Test
    void shouldNameTheResourceThatDiffersWhenAGoldenReplayDiffers() {
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(taxFirst, Market.factory(Bug.INTEREST_BEFORE_TAX)));
        String m = f.getMessage();
        assertEquals("trade", f.system(), m);
        assertTrue(m.contains("resource 'bank': its codec writes"), m);
        assertTrue(m.contains("the system named may only be the first to carry into the world a resource that an "
                + "earlier system wrote"), m);
    }

    @Test
    void shouldNameTheResourceThatDiffersWhenTwoRecordingsDiffer() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = CompareRecordings.run(new String[] {"--game", MarketGame.class.getName(), taxFirst.toString(),
            interestFirst.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, o);
        assertTrue(o.contains("system: first difference after system 'trade'"), o);
        assertTrue(o.contains("resource 'bank': its codec writes"), o);
        assertTrue(o.contains("the system named may only be the first to carry into the world a resource that an "
                + "earlier system wrote"), o);

        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        CompareRecordings.run(new String[] {taxFirst.toString(), interestFirst.toString()},
                new PrintStream(plain, true, StandardCharsets.UTF_8), System.err);
        String p = plain.toString(StandardCharsets.UTF_8);
        assertTrue(p.contains("the system named may only be the first to carry into the world a resource that an "
                + "earlier system wrote") && p.contains("give --game to see both values"), p);
    }

    /**
     * Where the worlds differ, the report without the game listed no resource, only asked for
     * {@code --game}; the end snapshots' resources are compared by the bytes each codec wrote
     * there too, as where the worlds agree, and the note still asks for the game for the values.
     */
    @Test
    void shouldListTheResourceThatDiffersByItsBytesWithoutTheGameWhereTheWorldsDiffer() {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        int status = CompareRecordings.run(new String[] {taxFirst.toString(), interestFirst.toString()},
                new PrintStream(plain, true, StandardCharsets.UTF_8), System.err);
        String p = plain.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, p);
        assertTrue(p.contains("state: first differs at tick"), p);
        assertTrue(p.contains("resources: at the end (tick 19), the reference is the first recording:"), p);
        assertTrue(p.contains("  resource 'bank': its codec writes "), p);
        assertTrue(p.contains("give --game to see both values"), p);
        assertFalse(p.contains("give --game to list the resources"), p);
        assertFalse(p.contains(" here)"), p); // no values without the game: '(1 in the reference, 2 here)'
    }
}
