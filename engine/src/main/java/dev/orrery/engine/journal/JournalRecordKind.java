package dev.orrery.engine.journal;

/** The kinds of record in an input journal, with their codes in the file. */
public enum JournalRecordKind {
    /** One stamped input: tick, sequence in the tick, client, type, payload. */
    INPUT(1),
    /** The end of a tick and how many inputs it consumed. */
    TICK_END(2),
    /** The 64-bit state hash after a tick, for replay to check. */
    TICK_HASH(3),
    /** The end of the journal, written on a clean close, with the count of records before it. */
    END(4),
    /** A tick skipped under {@code FailurePolicy.SKIP_TICK}: the chunk ordinal and the system that threw (version 2). */
    TICK_SKIPPED(5);

    private final int code;

    JournalRecordKind(int code) {
        this.code = code;
    }

    /** The byte that marks this kind in the file. */
    public int code() {
        return code;
    }

    /** The kind with {@code code}, or {@code null} if none has it. */
    static JournalRecordKind ofCode(int code) {
        return switch (code) {
            case 1 -> INPUT;
            case 2 -> TICK_END;
            case 3 -> TICK_HASH;
            case 4 -> END;
            case 5 -> TICK_SKIPPED;
            default -> null;
        };
    }
}
