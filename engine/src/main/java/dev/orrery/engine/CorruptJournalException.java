package dev.orrery.engine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A journal file that cannot be trusted from some point on: cut short, damaged, not a
 * journal, or of an unknown version. The message names the file, the byte offset and the
 * record; nothing read past that point is handed out.
 */
public final class CorruptJournalException extends IOException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;
    private final long recordIndex;

    public CorruptJournalException(Path file, long offset, long recordIndex, String problem, String advice) {
        super("journal " + file + " is unreadable at byte offset " + offset
                + (recordIndex < 0 ? " (file header)" : " (record #" + recordIndex + ")") + ": " + problem + ". "
                + advice);
        this.file = file;
        this.offset = offset;
        this.recordIndex = recordIndex;
    }

    /** The journal file. */
    public Path file() {
        return file;
    }

    /** Byte offset of the header or record that could not be read. */
    public long offset() {
        return offset;
    }

    /** Index (from 0) of the record that could not be read, or -1 for the header. */
    public long recordIndex() {
        return recordIndex;
    }
}
