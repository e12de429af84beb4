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
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JournalEnd} on a journal that grows as a live recording's does: the same answer as a
 * read of the whole file after every append, down to a record half written, and at the cost of
 * the appended bytes only; a journal that shrank is read again from its start.
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
}
