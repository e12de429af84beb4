package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.RunRecorder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RecordingWatch} on a recording's files as a live run and a user treat them: appends are
 * the same recording, at a cost of a few kilobytes read per change and nothing while unchanged;
 * another file, a shorter one, one rewritten in place (the same length, or longer with other
 * bytes at its start or before where the last check stopped) and a start.snapshot written again
 * are another recording, and stay so until the next baseline.
 */
class RecordingWatchTest {
    private static final int W = RecordingWatch.WINDOW;

    @TempDir
    Path dir;

    private final byte[] bytes = new byte[40 * W];

    private Path journal() {
        return dir.resolve(RunRecorder.JOURNAL);
    }

    private RecordingWatch start(int length) throws IOException {
        new Random(7).nextBytes(bytes);
        Files.write(dir.resolve(RunRecorder.SNAPSHOT), new byte[] {1, 2, 3});
        Files.write(journal(), Arrays.copyOf(bytes, length));
        RecordingWatch watch = new RecordingWatch(dir);
        watch.baseline();
        return watch;
    }

    private void append(int from, int to) throws IOException {
        Files.write(journal(), Arrays.copyOfRange(bytes, from, to), StandardOpenOption.APPEND);
    }

    @Test
    void shouldTakeAppendsAsTheSameRecordingReadingAFewKilobytesPerChangeAndNothingWhileUnchanged()
            throws IOException {
        RecordingWatch watch = start(20);
        long read = watch.bytesRead();
        assertNull(watch.replaced());
        assertEquals(read, watch.bytesRead(), "unchanged: attributes only");
        int length = 20;
        for (int step : new int[] {1, 100, 3 * W, 7, 10 * W, 1}) { // small and large appends
            append(length, length + step);
            length += step;
            long before = watch.bytesRead();
            assertNull(watch.replaced(), "appended " + step + " bytes");
            assertTrue(watch.bytesRead() - before <= 3L * W, "at most three windows: " + (watch.bytesRead() - before));
        }
        long before = watch.bytesRead();
        assertNull(watch.replaced());
        assertEquals(before, watch.bytesRead());
    }

    @Test
    void shouldSeeAJournalRewrittenInPlaceLongerWithOtherBytesAtItsStartOrBeforeWhereTheLastCheckStopped()
            throws IOException, InterruptedException {
        for (int at : new int[] {5, 10 * W - 3}) { // in the first window; in the one before the length checked
            RecordingWatch watch = start(10 * W);
            byte[] other = Arrays.copyOf(bytes, 12 * W);
            other[at]++;
            writeInPlace(other);
            String why = watch.replaced();
            assertTrue(why != null && why.startsWith(RunRecorder.JOURNAL + " was rewritten: "), at + ": " + why);
            append(12 * W, 13 * W);
            assertEquals(why, watch.replaced(), "it stays another recording until the next baseline");
            watch.baseline();
            assertNull(watch.replaced(), "the new one, as it is now");
        }
    }

    @Test
    void shouldSeeAJournalRewrittenInPlaceToTheSameLengthAnotherFileAShorterOneAndAStartSnapshotWrittenAgain()
            throws IOException, InterruptedException {
        RecordingWatch watch = start(5 * W);
        byte[] same = Arrays.copyOf(bytes, 5 * W);
        same[0]++;
        writeInPlace(same);
        assertTrue(watch.replaced().contains("its first bytes differ"), watch.replaced());

        watch = start(5 * W);
        Path copy = dir.resolve("copy");
        Files.write(copy, Arrays.copyOf(bytes, 6 * W));
        Object key = Files.readAttributes(journal(), java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        Files.move(copy, journal(), StandardCopyOption.REPLACE_EXISTING);
        Object now = Files.readAttributes(journal(), java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        if (key != null && !key.equals(now)) { // where the file system has keys (the same bytes otherwise)
            assertEquals(RunRecorder.JOURNAL + " is another file", watch.replaced());
        }

        watch = start(5 * W);
        Files.write(journal(), Arrays.copyOf(bytes, 4 * W));
        assertTrue(watch.replaced().startsWith(RunRecorder.JOURNAL + " is shorter"), watch.replaced());

        watch = start(5 * W);
        Files.delete(journal());
        assertEquals(RunRecorder.JOURNAL + " is gone", watch.replaced());

        watch = start(5 * W);
        Path snapshot = dir.resolve(RunRecorder.SNAPSHOT);
        Files.write(dir.resolve("other.snapshot"), new byte[] {1, 2, 3});
        Files.move(dir.resolve("other.snapshot"), snapshot, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(snapshot, FileTime.fromMillis(Files.getLastModifiedTime(snapshot).toMillis() + 5000));
        assertEquals(RunRecorder.SNAPSHOT + " was written again", watch.replaced(), "the same bytes, written again");
    }

    @Test
    void shouldSampleTheJournalOnlyAndSaySoInWhatTheTimelineAnswers() throws IOException, InterruptedException {
        // /api/timeline once said nothing of how the checks look, and the Timeline's Javadoc promised any replaced
        // recording would be noticed: a rewrite between the compared bytes is not, not even after later appends
        RecordingWatch watch = start(10 * W);
        byte[] other = Arrays.copyOf(bytes, 10 * W);
        other[5 * W]++; // past the first window, before the one ending at the checked length
        writeInPlace(other);
        assertNull(watch.replaced(), "the bytes between the windows are not read");
        Files.write(journal(), Arrays.copyOfRange(bytes, 10 * W, 11 * W), StandardOpenOption.APPEND);
        assertNull(watch.replaced(), "nor once it was appended to");
        assertTrue(watch.bytesRead() <= 2L * W + 3L * W + 3L * W, "windows only: " + watch.bytesRead());

        String said = RecordingWatch.CHECKS;
        assertTrue(said.startsWith("sampled, not read whole: "), said);
        for (String words : new String[] {"each travel", "each /api/timeline", "first " + W + " bytes",
            "the " + W + " bytes before its length at the last check", "nothing is checked between those",
            "goes unseen"}) {
            assertTrue(said.contains(words), words + ": " + said);
        }
    }

    /** Writes {@code content} over the journal in place (the same file), until its modification time moved. */
    private void writeInPlace(byte[] content) throws IOException, InterruptedException {
        FileTime before = Files.getLastModifiedTime(journal());
        Files.write(journal(), content);
        while (Files.getLastModifiedTime(journal()).equals(before)) { // within one step of the file system's clock
            Thread.sleep(10);
            Files.write(journal(), content);
        }
    }
}
