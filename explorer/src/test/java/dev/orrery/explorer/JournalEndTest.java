package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Durability;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JournalEnd} on a journal that grows as a live recording's does: the same answer as a
 * read of the whole file after every append, down to a record half written, and at the cost of
 * the appended bytes only; a journal that shrank, or was rewritten in place (the same file, as
 * long or longer), is read again from its start, so the answer is the new file's end.
 */
class JournalEndTest {
    @TempDir
    Path dir;

    /** A closed journal of {@code ticks} ticks with 0 to 2 inputs each, every other one hashed. */
    private byte[] journal(int ticks) throws IOException {
        return journal(0, ticks);
    }

    /** {@link #journal(int)} from tick {@code from} on. */
    private byte[] journal(int from, int ticks) throws IOException {
        Path file = dir.resolve("source-" + from + "-" + ticks + ".journal");
        try (JournalWriter w = JournalWriter.create(file, FailurePolicy.SKIP_TICK, Durability.NONE)) {
            for (int t = from; t < from + ticks; t++) {
                for (int i = 0; i < t % 3; i++) {
                    w.recordInput(t, i, 7, 1, new byte[] {(byte) t, (byte) i, 9}, 0, 3);
                }
                w.recordTickEnd(t, t % 3);
                if (t % 5 == 4) {
                    w.recordTickSkipped(t, "steer", 0);
                }
                if (t % 2 == 0) {
                    w.recordTickHash(t, 31L * t);
                }
            }
        }
        return Files.readAllBytes(file);
    }

    private Path folder() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("recording"));
        return folder;
    }

    private static void append(Path file, byte[] bytes, int from, int to) throws IOException {
        Files.write(file, Arrays.copyOfRange(bytes, from, to), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** What a read of the whole file says: last complete tick, and the ending's words. */
    private static String whole(Path file) throws IOException {
        try (JournalReader r = JournalReader.openAllowingCut(file)) {
            while (r.nextRecord()) {
                // to the end or the cut
            }
            return r.lastTickEnded() + " / " + RecordedInputs.ending(r.closedCleanly(), r.cut());
        }
    }

    @Test
    void shouldAnswerAsAWholeReadAfterEveryAppendDownToARecordHalfWritten() throws IOException {
        byte[] full = journal(40);
        Path folder = folder();
        Path file = folder.resolve(RunRecorder.JOURNAL);
        JournalEnd end = new JournalEnd(folder);
        int written = 0;
        int step = 0;
        while (written < full.length) {
            int next = Math.min(full.length, written + 1 + step++ % 13); // 1 to 13 bytes: inside records too
            append(file, full, written, next);
            written = next;
            Long last = end.last();
            assertEquals(whole(file), last + " / " + end.ending(), "after " + written + " of " + full.length
                    + " bytes");
        }
        assertTrue(end.ending().contains("closed there"), end.ending());
        assertEquals(39L, end.last());
    }

    @Test
    void shouldReadOnlyTheBytesAppendedSinceTheLastRead() throws IOException {
        byte[] full = journal(3000);
        byte[] grown = Arrays.copyOf(full, full.length - 21); // no end record: live
        Path folder = folder();
        Path file = folder.resolve(RunRecorder.JOURNAL);
        int first = grown.length - 2000;
        append(file, grown, 0, first);
        JournalEnd end = new JournalEnd(folder);
        long before = end.last();
        long start = end.bytesRead();
        assertEquals(first, start, "the first read reads the whole file");
        int written = first;
        while (written < grown.length) {
            int next = Math.min(grown.length, written + 37); // about a tick, in pieces that cut records
            append(file, grown, written, next);
            long bytes = end.bytesRead();
            Long last = end.last();
            assertEquals(whole(file), last + " / " + end.ending(), "after " + next + " bytes");
            // the header, the checksum before the boundary, and from the boundary: less than a record
            // left over from before, plus what was appended
            long read = end.bytesRead() - bytes;
            assertTrue(read <= 20 + 4 + 64 + (next - written), "read " + read + " bytes for " + (next - written)
                    + " appended to a file of " + next);
            written = next;
        }
        assertTrue(end.last() > before);
        long unchanged = end.bytesRead();
        end.last();
        assertEquals(unchanged, end.bytesRead(), "a file that did not change is not read");
    }

    @Test
    void shouldReadAJournalThatShrankOrWasReplacedFromItsStart() throws IOException {
        byte[] full = journal(200);
        Path folder = folder();
        Path file = folder.resolve(RunRecorder.JOURNAL);
        append(file, full, 0, full.length - 21 - 5); // live, its last record half written
        JournalEnd end = new JournalEnd(folder);
        assertEquals(whole(file), end.last() + " / " + end.ending());
        // cut back to a third, in place (a recording started again in the same folder, say)
        byte[] shorter = Arrays.copyOf(full, full.length / 3);
        Files.write(file, shorter);
        long bytes = end.bytesRead();
        assertEquals(whole(file), end.last() + " / " + end.ending(), "shrank: read again from its start");
        assertEquals(shorter.length, end.bytesRead() - bytes, "the whole of the shorter file");
        // the same size again, then longer, with other records before the boundary: rewritten in place
        byte[] other = journal(1000, 300);
        Files.write(file, Arrays.copyOf(other, full.length - 10));
        assertEquals(whole(file), end.last() + " / " + end.ending(), "rewritten: read again from its start");
        Path replacement = dir.resolve("replacement.journal");
        Files.write(replacement, Arrays.copyOf(full, full.length - 10));
        Files.move(replacement, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertEquals(whole(file), end.last() + " / " + end.ending(), "replaced: read again from its start");
        append(file, full, full.length - 10, full.length);
        assertEquals(199L, end.last());
        assertTrue(end.ending().contains("closed there"), end.ending());
        long closed = end.bytesRead();
        end.last();
        assertEquals(closed, end.bytesRead(), "a closed journal is not read again");
    }

    /**
     * A journal of ticks 0 to {@code ticks - 1} under {@code SKIP_TICK}: tick 0 holds {@code tick0}
     * inputs whose records take 58 bytes together (one of a 29-byte payload, or two empty ones),
     * the other ticks none, so both shapes put the same records at the same offsets from tick 1
     * on; closed when {@code closed}.
     */
    private byte[] shaped(String name, int tick0, int ticks, boolean closed) throws IOException {
        Path file = dir.resolve(name + ".journal");
        try (JournalWriter w = JournalWriter.create(file, FailurePolicy.SKIP_TICK, Durability.NONE)) {
            for (int i = 0; i < tick0; i++) {
                int payload = tick0 == 1 ? 29 : 0;
                w.recordInput(0, i, 7, 1, new byte[payload], 0, payload);
            }
            w.recordTickEnd(0, tick0);
            for (int t = 1; t < ticks; t++) {
                w.recordTickEnd(t, 0);
            }
        }
        byte[] bytes = Files.readAllBytes(file);
        return closed ? bytes : Arrays.copyOf(bytes, bytes.length - 25); // live: no end record (25 bytes) yet
    }

    /**
     * Another recording copied over a live one in place, alike from its 2nd record on, so the
     * header and the record before where the last read stopped are the same bytes (what a resume
     * checks), but with one record more before it: the closed copy's end record counts one more
     * than the records before it as the first file had them. Read on from there, its end record is
     * refused; the answer must be the copy's end, not "cannot be read" for as long as it stays.
     */
    @Test
    void shouldGiveTheEndOfAJournalRewrittenInPlaceThatHoldsTheSameRecordWhereTheLastReadStopped()
            throws IOException {
        Path folder = folder();
        Path file = folder.resolve(RunRecorder.JOURNAL);
        Files.write(file, shaped("first", 1, 10, false)); // a live recording, ticks 0 to 9 so far
        JournalEnd end = new JournalEnd(folder);
        assertEquals(9L, end.last());
        byte[] copy = shaped("second", 2, 20, true); // the same program, tick 0's command sent as two
        Files.write(file, copy); // in place: the same file, longer
        assertEquals("19 / the recording was closed there", whole(file));
        assertEquals(whole(file), end.last() + " / " + end.ending(), "rewritten in place, longer");
        assertEquals(whole(file), end.last() + " / " + end.ending(), "asked again");
    }

    /**
     * A live journal overwritten in place by a closed one of exactly its length: the size and the
     * file key are as they were, and the journal does not grow again, so only its modification
     * time says it changed. (Set a second on here: a file system's clock may not have moved
     * between the two writes.)
     */
    @Test
    void shouldGiveTheEndOfAJournalRewrittenInPlaceToTheSameLength() throws IOException {
        byte[] closed = journal(1000, 60);
        byte[] live = Arrays.copyOf(journal(200), closed.length); // another run, live: no end record yet
        Path folder = folder();
        Path file = folder.resolve(RunRecorder.JOURNAL);
        Files.write(file, live);
        JournalEnd end = new JournalEnd(folder);
        assertEquals(whole(file), end.last() + " / " + end.ending());
        FileTime before = Files.getLastModifiedTime(file);
        Files.write(file, closed);
        Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 1000));
        assertEquals("1059 / the recording was closed there", whole(file));
        assertEquals(whole(file), end.last() + " / " + end.ending(), "rewritten in place, the same length");
        long read = end.bytesRead();
        end.last();
        assertEquals(read, end.bytesRead(), "a closed journal is not read again");
    }

    /**
     * Rewritten shorter, then grown back past the length the first read saw: asked between the two
     * (it then goes on from the shorter file's end), and not (it sees only the longer file).
     */
    @Test
    void shouldFollowAJournalRewrittenShorterThenGrownPastItsOldLength() throws IOException {
        byte[] first = journal(300);
        byte[] second = journal(500, 400);
        Path folder = folder();
        Path file = folder.resolve(RunRecorder.JOURNAL);
        for (boolean askedBetween : new boolean[] {true, false}) {
            Files.write(file, Arrays.copyOf(first, first.length - 21 - 3)); // live, a record half written
            JournalEnd end = new JournalEnd(folder);
            assertEquals(whole(file), end.last() + " / " + end.ending());
            Files.write(file, Arrays.copyOf(second, first.length / 4));
            if (askedBetween) {
                assertEquals(whole(file), end.last() + " / " + end.ending(), "shorter");
            }
            append(file, second, first.length / 4, first.length + 100);
            assertEquals(whole(file), end.last() + " / " + end.ending(), "grown past the old length, asked between: "
                    + askedBetween);
            append(file, second, first.length + 100, second.length);
            assertEquals("899 / the recording was closed there", end.last() + " / " + end.ending());
        }
    }
}
