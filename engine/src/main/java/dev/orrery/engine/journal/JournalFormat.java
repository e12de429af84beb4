package dev.orrery.engine.journal;

/** Constants of the journal's byte layout, shared by the writer and the reader. */
final class JournalFormat {
    /** "ORRYJRNL" in ASCII. */
    static final long MAGIC = 0x4F52_5259_4A52_4E4CL;
    /** Version 2 added the header's flags and the {@code TICK_SKIPPED} record; version 1 still reads. */
    static final int VERSION = 2;
    static final int VERSION_1 = 1;
    /** Magic and version: what every version's header starts with. */
    static final int HEADER_PREFIX = 12;
    static final int HEADER_BYTES_V1 = 16;
    /** Magic, version, flags, CRC32C of the 16 bytes before it. */
    static final int HEADER_BYTES = 20;
    /** Header flag: the run was recorded under {@code FailurePolicy.SKIP_TICK}. */
    static final int FLAG_SKIP_TICK = 1;

    /** Body = kind (1) + tick (8) + kind data. */
    static final int BODY_PREFIX = 1 + 8;
    static final int INPUT_FIXED = BODY_PREFIX + 4 + 4 + 4;
    static final int TICK_END_BODY = BODY_PREFIX + 4;
    static final int TICK_HASH_BODY = BODY_PREFIX + 8;
    static final int END_BODY = BODY_PREFIX + 8;
    /** Then the system's name in UTF-8, at most {@link #MAX_SYSTEM_NAME} bytes. */
    static final int TICK_SKIPPED_FIXED = BODY_PREFIX + 4;
    static final int MAX_SYSTEM_NAME = 1024;
    static final int MAX_PAYLOAD = 65536;
    static final int MAX_BODY = INPUT_FIXED + MAX_PAYLOAD;
    /** Length field and checksum around each body. */
    static final int FRAME = 4 + 4;

    private JournalFormat() {
    }
}
