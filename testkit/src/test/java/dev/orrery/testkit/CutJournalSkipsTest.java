package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.JournalWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CompareRecordings' skips line against a journal cut short by a crash. A journal writes a tick's
 * skip note after its tick end, so a crash right after the tick end of the last tick loses the
 * note, and the tick reads as run: a replay lets that tick pass ({@code JournalInputSource}), but
 * CompareRecordings laid it as a difference ('skips: first differ at tick 3 (a: skipped it, system
 * 'alpha' threw; b: ran the tick)', exit 1, "the same inputs skipped ticks for different systems")
 * for two runs that did the same. Earlier ticks of a cut journal, and a note the cut journal does
 * hold, are still compared. The line also names a sync point's failure as one, not as a system
 * that threw.
 */
class CutJournalSkipsTest {
    private static final long LAST = 3;

    /**
     * A folder holding only a journal of ticks 0 to {@link #LAST} under SKIP_TICK, each with the
     * same hash, tick {@code skipped} skipped for {@code system}; {@code cut}: the crash came right
     * after the last tick's end (its note and hash lost, no end record).
     */
    private static Path recording(Path dir, long skipped, String system, boolean cut) throws IOException {
        Files.createDirectories(dir);
        JournalWriter w = JournalWriter.create(dir.resolve(RunRecorder.JOURNAL), FailurePolicy.SKIP_TICK,
                dev.orrery.engine.Durability.NONE);
        for (long t = 0; t <= LAST; t++) {
            w.recordTickEnd(t, 0);
            if (cut && t == LAST) {
                break;
            }
            if (t == skipped) {
                w.recordTickSkipped(t, system, 0);
            }
            w.recordTickHash(t, 0x1234L + t);
        }
        if (cut) {
            w.flush();
            w.abandon();
        } else {
            w.close();
        }
        return dir;
    }

    private static String[] run(Path a, Path b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int status = CompareRecordings.run(new String[] {a.toString(), b.toString()}, print, print);
        return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void theLastTickOfACutJournalWhoseNoteTheCrashMayHaveLostIsNotADifference(@TempDir Path dir) throws IOException {
        Path whole = recording(dir.resolve("whole"), LAST, "alpha", false);
        Path cut = recording(dir.resolve("cut"), LAST, "alpha", true);
        for (String[] r : new String[][] {run(whole, cut), run(cut, whole)}) {
            assertEquals("0", r[0], r[1]);
            assertTrue(r[1].contains("skips: the same systems skipped the same ticks"), r[1]);
            assertTrue(r[1].contains("tick " + LAST + ", the last of a journal cut short, is not compared"), r[1]);
        }
    }

    @Test
    void aCutJournalsEarlierTicksAndTheNotesItHoldsAreStillCompared(@TempDir Path dir) throws IOException {
        Path whole = recording(dir.resolve("whole"), 1, "alpha", false);
        Path cut = recording(dir.resolve("cut"), 2, "alpha", true);
        String[] r = run(whole, cut);
        assertEquals("1", r[0], r[1]);
        assertTrue(r[1].contains("skips: first differ at tick 1 (a: skipped it, system 'alpha' threw; b: ran the "
                + "tick)"), r[1]);

        Path other = recording(dir.resolve("other"), LAST, "beta", false);
        Path cutAfterNote = dir.resolve("cut-after-note");
        Files.createDirectories(cutAfterNote);
        JournalWriter w = JournalWriter.create(cutAfterNote.resolve(RunRecorder.JOURNAL), FailurePolicy.SKIP_TICK,
                dev.orrery.engine.Durability.NONE);
        for (long t = 0; t <= LAST; t++) {
            w.recordTickEnd(t, 0);
            if (t == LAST) {
                w.recordTickSkipped(t, "alpha", 0); // the crash came after the note, before the hash
                break;
            }
            w.recordTickHash(t, 0x1234L + t);
        }
        w.flush();
        w.abandon();
        r = run(other, cutAfterNote);
        assertEquals("1", r[0], r[1]);
        assertTrue(r[1].contains("skips: first differ at tick 3 (a: skipped it, system 'beta' threw; b: skipped it, "
                + "system 'alpha' threw)"), r[1]);
    }

    /**
     * A tick skipped because a sync point failed (its playback or an observer hook threw): the
     * journal keeps the sync point's own name, which names no system, and the skips line read
     * "system 'sync point ending phase Update' threw".
     */
    @Test
    void aSyncPointsFailureIsNotCalledASystemThatThrew(@TempDir Path dir) throws IOException {
        Path a = recording(dir.resolve("a"), 2, "sync point ending phase Update", false);
        Path b = recording(dir.resolve("b"), 2, "alpha", false);
        String[] r = run(a, b);
        assertEquals("1", r[0], r[1]);
        assertTrue(r[1].contains("skips: first differ at tick 2 (a: skipped it, the sync point ending phase Update "
                + "failed; b: skipped it, system 'alpha' threw)"), r[1]);
    }
}
