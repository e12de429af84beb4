package dev.orrery.engine.journal;

/**
 * A record boundary that a {@link JournalReader} reached, with what it had checked up to
 * there (the header, how many records precede it, the tick order, the record just before it),
 * so that {@link JournalReader#resumeAllowingCut} reads a journal that grew since then from
 * that point on, without reading the records before it again: how a reader keeps up with a
 * live recording at the cost of what was appended, not of the whole file. Taken with
 * {@link JournalReader#mark()}.
 *
 * <p><b>Threading:</b> immutable; any thread.
 */
public final class JournalMark {
    final long offset;
    final long records;
    final int version;
    final int headerChecksum;
    /** The checksum of the record just before {@link #offset}; unused when {@link #records} is 0. */
    final int lastRecordChecksum;
    private final TickFraming framing;

    JournalMark(long offset, long records, int version, int headerChecksum, int lastRecordChecksum,
            TickFraming framing) {
        this.offset = offset;
        this.records = records;
        this.version = version;
        this.headerChecksum = headerChecksum;
        this.lastRecordChecksum = lastRecordChecksum;
        this.framing = framing.copy();
    }

    /** The byte offset of the boundary: where the records read before the mark end. */
    public long offset() {
        return offset;
    }

    /** The last tick whose end lies before the mark, or {@link Long#MIN_VALUE} before any. */
    public long lastTickEnded() {
        return framing.lastEnded();
    }

    /** A copy of the tick order at the mark, for a reader resuming there (the mark stays as it is). */
    TickFraming framing() {
        return framing.copy();
    }

    @Override
    public String toString() {
        return "JournalMark[offset " + offset + ", " + records + " records, last tick ended "
                + framing.lastEndedText() + "]";
    }
}
