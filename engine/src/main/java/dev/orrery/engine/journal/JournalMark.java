package dev.orrery.engine.journal;

/**
 * A record boundary that a {@link JournalReader} reached, with what it had checked up to
 * there (the header, how many records precede it, the tick order, the record just before it),
 * so that {@link JournalReader#resumeAllowingCut} reads a journal that grew since then from
 * that point on, without reading the records before it again: how a reader keeps up with a
 * live recording at the cost of what was appended, not of the whole file. Taken with
 * {@link JournalReader#mark()}, or between ticks with {@link JournalReader#tickMark()}.
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
    /** Nothing of the ticks before {@link #offset} can follow it: a reader resumed here reads whole ticks. */
    final boolean betweenTicks;
    private final TickFraming framing;

    JournalMark(long offset, long records, int version, int headerChecksum, int lastRecordChecksum,
            TickFraming framing, boolean betweenTicks) {
        this.offset = offset;
        this.records = records;
        this.version = version;
        this.headerChecksum = headerChecksum;
        this.lastRecordChecksum = lastRecordChecksum;
        this.framing = framing.copy();
        this.betweenTicks = betweenTicks;
    }

    /** The byte offset of the boundary: where the records read before the mark end. */
    public long offset() {
        return offset;
    }

    /**
     * The last tick whose end lies before the mark, or {@link Long#MIN_VALUE} before any; a reader
     * resumed at a {@link JournalReader#tickMark() tick mark} reads the ticks after it.
     */
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
                + framing.lastEndedText() + (betweenTicks ? ", between ticks" : "") + "]";
    }
}
