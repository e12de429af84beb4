package dev.orrery.explorer;

import dev.orrery.engine.CorruptJournalException;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.JournalMark;
import dev.orrery.engine.journal.JournalReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

/**
 * Where a recording's journal ends, read again only when the file grew and not once it was
 * closed: its last complete tick, and whether it was closed or how it was cut. A live
 * recording's end moves as the run writes it; each read goes on from the boundary after the
 * last complete record the one before reached ({@link JournalResume}), so a
 * client polling the timeline of a recording hours long costs the bytes written since its last
 * poll, not the whole journal. A record still being written is not taken (the reader stops
 * before it) and is read once complete. A journal that shrank, was replaced by another file,
 * or no longer holds the records before the boundary is read again from its start; so is one
 * rewritten in place whose records from the boundary on do not go on from those its last read
 * passed (a resume checks only the header and the record just before the boundary: another
 * recording may hold the same bytes there). A file whose length and key are as they were is
 * read again only when its modification time moved: a rewrite to the same length within one
 * step of the file system's clock is seen once the file changes again.
 *
 * <p><b>Threading:</b> any thread; the reads are serialized on this object.
 */
final class JournalEnd {
    private final Path journal;
    private long size = -1;
    private Object fileKey;
    private FileTime modified;
    private long last = Long.MIN_VALUE;
    private boolean closed;
    private String cut;
    /** Where the last read stopped, to go on from; null: read from the start. */
    private JournalMark mark;
    /** The last read failed at {@link #size}: answered null until the file changes. */
    private boolean failed;
    /** Bytes the reads took from the file, all together (what a test holds the reads to). */
    private long bytesRead;

    JournalEnd(Path folder) {
        this.journal = folder.resolve(RunRecorder.JOURNAL);
    }

    /** The journal's last complete tick ({@link Long#MIN_VALUE}: none yet), or null when it cannot be read. */
    synchronized Long last() {
        if (closed) {
            return last;
        }
        try {
            BasicFileAttributes file = Files.readAttributes(journal, BasicFileAttributes.class);
            long now = file.size();
            Object key = file.fileKey(); // null where the file system has none: then the size and the mark tell
            FileTime time = file.lastModifiedTime(); // a rewrite to the same length moves it
            if (now == size && Objects.equals(key, fileKey) && time.equals(modified)) {
                return failed ? null : last;
            }
            boolean sameFile = now >= size && Objects.equals(key, fileKey);
            size = now;
            fileKey = key;
            modified = time;
            failed = true; // until a read gets through
            read(sameFile ? mark : null);
            failed = false;
            return last;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Reads on from {@code from} (null: from the start) to the end of the journal or its cut;
     * from the start when the file no longer holds what {@code from} was taken after, or when
     * what it holds from there is refused: the records there may not go on from those before
     * {@code from} as the last read passed them (the tick order, the record count an end record
     * checks), which only a read from the start tells from damage (refused there too).
     */
    private void read(JournalMark from) throws IOException {
        JournalResume.Opened opened = JournalResume.open(journal, from);
        try {
            readToEnd(opened.reader());
        } catch (CorruptJournalException rewritten) {
            if (!opened.resumed()) {
                throw rewritten;
            }
            readToEnd(JournalReader.openAllowingCut(journal));
        }
    }

    /** Reads {@code opened} to its end record or cut, keeps what it found there, and closes it. */
    private void readToEnd(JournalReader opened) throws IOException {
        try (JournalReader reader = opened) {
            try {
                while (reader.nextRecord()) {
                    // to the end record, or the last complete tick of a live or cut journal
                }
            } finally {
                bytesRead += reader.bytesRead();
            }
            last = reader.lastTickEnded();
            closed = reader.closedCleanly();
            cut = reader.cut();
            mark = closed || reader.version() == 0 ? null : reader.mark(); // 0: the header is not all written yet
        }
    }

    /** How the journal ends as {@link #last} last read it, in the words of {@link RecordedInputs#ending}. */
    synchronized String ending() {
        return RecordedInputs.ending(closed, cut);
    }

    /**
     * Where the journal ends and in what words, from one read: {@link #last} and {@link #ending}
     * together, which two calls are not (another thread's call between them may read it again).
     */
    synchronized End end() {
        Long at = last();
        return new End(at, ending());
    }

    /**
     * The journal's last complete tick ({@code last}: {@link Long#MIN_VALUE} none yet, null when
     * it cannot be read) and how it ends there ({@code ending}), from one read.
     */
    record End(Long last, String ending) {
    }

    /** Bytes read from the journal so far, by every read together. */
    synchronized long bytesRead() {
        return bytesRead;
    }
}
