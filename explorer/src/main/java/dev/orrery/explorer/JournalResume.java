package dev.orrery.explorer;

import dev.orrery.engine.CorruptJournalException;
import dev.orrery.engine.journal.JournalMark;
import dev.orrery.engine.journal.JournalReader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Opens a journal to go on from where a reader of it stopped, or to read it from its start:
 * the one rule {@link JournalEnd} (the live end of a recording) and {@link RecordedInputs}
 * (a replay's inputs) share for keeping up with a journal that grows. With a
 * {@link JournalMark} it resumes there ({@link JournalReader#resumeAllowingCut}), so the
 * records before are not read again; without one, or when the file no longer holds what
 * the mark was taken after (it was replaced, truncated or rewritten), it opens the journal
 * from its start ({@link JournalReader#openAllowingCut}). Both read a journal that a crash
 * cut up to its last complete tick.
 *
 * <p><b>Threading:</b> stateless; any thread. The reader returned belongs to the caller,
 * one thread at a time, as every {@link JournalReader} does.
 */
final class JournalResume {
    private JournalResume() {
    }

    /**
     * A reader of the journal and whether it goes on from the mark ({@code resumed}) or
     * reads from the journal's start. A resumed reader may still refuse a record it reads on:
     * the one at the mark as not following the records before it, or the end record as counting
     * other records than those before it, when another file holds the same bytes just before the
     * mark (all this checks). Only a read from the start tells that from damage, so both callers
     * read from the start when a resumed reader refuses anything.
     */
    record Opened(JournalReader reader, boolean resumed) {
    }

    /**
     * Opens {@code journal} to read on from {@code mark}, or from its start when
     * {@code mark} is null or the file no longer holds what it was taken after.
     *
     * @throws IOException when the journal cannot be read from its start either (missing,
     *     unreadable, or a {@link CorruptJournalException}: not a journal, or damaged in a
     *     way a crash does not explain)
     */
    static Opened open(Path journal, JournalMark mark) throws IOException {
        if (mark != null) {
            try {
                return new Opened(JournalReader.resumeAllowingCut(journal, mark), true);
            } catch (CorruptJournalException replaced) { // not the journal the mark was taken in
                // read it from its start, below
            }
        }
        return new Opened(JournalReader.openAllowingCut(journal), false);
    }
}
