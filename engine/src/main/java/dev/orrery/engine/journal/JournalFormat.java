package dev.orrery.engine.journal;

/** Constants of the journal's byte layout, shared by the writer and the reader. */
final class JournalFormat {
    /** "ORRYJRNL" in ASCII. */
    static final long MAGIC = 0x4F52_5259_4A52_4E4CL;
    static final int VERSION = 1;
    static final int HEADER_BYTES = 16;

    /** Body = kind (1) + tick (8) + kind data. */
    static final int BODY_PREFIX = 1 + 8;
    static final int INPUT_FIXED = BODY_PREFIX + 4 + 4 + 4;
    static final int TICK_END_BODY = BODY_PREFIX + 4;
    static final int TICK_HASH_BODY = BODY_PREFIX + 8;
    static final int END_BODY = BODY_PREFIX + 8;
    static final int MAX_PAYLOAD = 65536;
    static final int MAX_BODY = INPUT_FIXED + MAX_PAYLOAD;
    /** Length field and checksum around each body. */
    static final int FRAME = 4 + 4;

    private JournalFormat() {
    }
}
