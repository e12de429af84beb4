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
    /** Byte offset of the header or record that could not be read. */
    private final long offset;
    /** Index (from 0) of the record that could not be read, or -1 for the header. */
    private final long recordIndex;

    /**
     * The journal {@code file} cannot be trusted from {@code offset} on. The journal reader
     * throws it; the message is built from the arguments in this order.
     *
     * @param file        the journal file, named in the message (not serialized)
     * @param offset      the byte offset of the header or record that could not be read
     * @param recordIndex the index (from 0) of that record, or -1 (or less) for the file header
     * @param problem     what is wrong there, without a final period ("the record is cut short")
     * @param advice      the sentence that says what to do, ending the message
     */
    public CorruptJournalException(Path file, long offset, long recordIndex, String problem, String advice) {
        super("journal " + file + " is unreadable at byte offset " + offset
                + (recordIndex < 0 ? " (file header)" : " (record #" + recordIndex + ")") + ": " + problem + ". "
                + advice);
        this.file = file;
        this.offset = offset;
        this.recordIndex = recordIndex;
    }

    /**
     * The journal file.
     *
     * @return the file, or {@code null} once the exception has been deserialized (the field is
     *     transient; the message still names it)
     */
    public Path file() {
        return file;
    }

    /**
     * Byte offset of the header or record that could not be read.
     *
     * @return the byte offset from the file's start, 0 or more
     */
    public long offset() {
        return offset;
    }

    /**
     * Index (from 0) of the record that could not be read, or -1 for the header.
     *
     * @return the record's index, 0 or more, or a negative value for the header
     */
    public long recordIndex() {
        return recordIndex;
    }
}
