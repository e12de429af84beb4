package dev.orrery.engine.journal;

import static dev.orrery.engine.journal.JournalFormat.BODY_PREFIX;
import static dev.orrery.engine.journal.JournalFormat.END_BODY;
import static dev.orrery.engine.journal.JournalFormat.FLAG_SKIP_TICK;
import static dev.orrery.engine.journal.JournalFormat.FRAME;
import static dev.orrery.engine.journal.JournalFormat.HEADER_BYTES;
import static dev.orrery.engine.journal.JournalFormat.HEADER_BYTES_V1;
import static dev.orrery.engine.journal.JournalFormat.HEADER_PREFIX;
import static dev.orrery.engine.journal.JournalFormat.INPUT_FIXED;
import static dev.orrery.engine.journal.JournalFormat.MAGIC;
import static dev.orrery.engine.journal.JournalFormat.MAX_BODY;
import static dev.orrery.engine.journal.JournalFormat.TICK_END_BODY;
import static dev.orrery.engine.journal.JournalFormat.TICK_HASH_BODY;
import static dev.orrery.engine.journal.JournalFormat.TICK_SKIPPED_FIXED;
import static dev.orrery.engine.journal.JournalFormat.VERSION;
import static dev.orrery.engine.journal.JournalFormat.VERSION_1;

import dev.orrery.engine.CorruptJournalException;
import dev.orrery.engine.FailurePolicy;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.zip.CRC32C;

// Over 500 lines on purpose, about 780: the header, the records, the rule that tells a damaged
// length from a crash cut, and resuming at a JournalMark all read and set the same stream
// position, buffer, record count, tick order and previous record's checksum; the accessors of the
// current record are one line each. Splitting the cut-or-damage rule or the resume out would hand
// a second class the reader's buffer and offsets.
/**
 * Reads an input journal written by {@link JournalWriter}, record by record
 * ({@link #nextRecord()}) or tick by tick ({@link #nextTick(JournalTick)}).
 *
 * <p>Every record's checksum, length, kind and place in the tick order is checked before
 * anything from it is handed out. A file that is cut short (anywhere, including exactly
 * between two records: a finished journal ends with an end record), damaged, not a
 * journal, or of an unknown version makes the reader throw a
 * {@link CorruptJournalException} naming the file, the byte offset and the record. Ticks
 * returned before that point are intact; a caller that must not act on a partial journal
 * reads it through once first.
 *
 * <p><b>A live journal.</b> A reader that reached the end of a journal still being written
 * (or a cut) takes a {@link #mark()} there; once the file has grown,
 * {@link #resumeAllowingCut(Path, JournalMark)} checks the header and the record before the
 * mark again and reads on from the mark, so keeping up costs what was appended, not the whole
 * file ({@link #bytesRead()} counts what a reader read).
 *
 * <p><b>A journal cut by a crash.</b> {@link #openAllowingCut(Path)} reads a journal whose
 * recording did not close, up to its last complete tick: where the file ends (at a record
 * boundary, inside a record, or inside the header), or where only zero bytes follow (a file
 * system that extended the file but lost its data), or at a last record that fails its
 * checksum with nothing but zeros after it (a torn write), {@link #nextTick} returns
 * {@code false} instead of throwing, {@link #closedCleanly()} is {@code false} and
 * {@link #cut()} says where and why. A tick counts as complete once its {@code TICK_END} is
 * read; a cut inside its inputs drops the tick. Damage anywhere else (a bad checksum with
 * data after it, a record out of order, an unknown kind) is still a
 * {@link CorruptJournalException}: that is not what a crash leaves. So is a length field
 * that runs past the end of the file while the bytes after it start a record of another
 * length or hold a complete, checksummed record: a crash tears only the last record, so
 * those bytes can only be the records that follow a damaged length (a journal that was
 * closed cleanly ends with its end record, which is such a record). Record bodies are at
 * most 65557 bytes (an input with the largest payload, 65536 bytes); a longer length field is refused before
 * anything is allocated for it.
 *
 * <pre>{@code
 * try (JournalReader reader = JournalReader.open(path)) {
 *     JournalTick t = new JournalTick();
 *     while (reader.nextTick(t)) {
 *         feed(t.tick(), t.inputs());
 *         if (t.hasHash()) check(t.tick(), t.stateHash());
 *     }
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> one thread at a time; not safe for concurrent use.
 */
public final class JournalReader implements Closeable {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final String DAMAGED = "The file was damaged or cut short after it was written (a crash "
            + "before the recording closed cuts it short); nothing past this point can be replayed. Restore the "
            + "journal from a copy or record the run again";

    private final Path path;
    private final SeekableByteChannel channel;
    private final Counting counted;
    /** {@link #counted} while the header is read, then a buffer over it from where the records start. */
    private InputStream in;
    private final CRC32C crc = new CRC32C();
    private final byte[] lengthBytes = new byte[4];
    private byte[] record = new byte[256];
    private long offset;
    private long index;

    private JournalRecordKind kind;
    private long recordOffset;
    private long tick;
    private int bodyLength;

    private TickFraming framing = new TickFraming();
    private int headerChecksum;
    private int lastRecordChecksum;
    /** Where the last tick begun begins ({@link #tickMark()}): its offset, -1 for none yet. */
    private long tickStart = -1;
    private long tickStartRecords;
    private int tickStartChecksum;
    private final TickFraming tickStartFraming = new TickFraming();
    private final boolean allowCut;
    private boolean ended;
    private boolean pushedBack;
    /** Set by {@link #close()}: the buffer may still hold records read ahead, which are not handed out. */
    private boolean closed;
    /** The number of the first record read after a resume (out of order there: a replaced file), else -1. */
    private long resumedAt = -1;
    /** A record was refused as damaged: where the reader stands is no boundary to mark. */
    private boolean failed;
    private int version;
    private FailurePolicy policy = FailurePolicy.STOP;
    private String cut;

    private JournalReader(Path path, SeekableByteChannel channel, boolean allowCut) {
        this.path = path;
        this.channel = channel;
        this.counted = new Counting(Channels.newInputStream(channel));
        this.in = counted;
        this.allowCut = allowCut;
    }

    /**
     * Opens the journal at {@code path} and checks its header.
     *
     * @throws CorruptJournalException if the file is not a journal of a version this
     *     reader knows, or its header is damaged
     */
    public static JournalReader open(Path path) throws IOException {
        return open(path, false);
    }

    /**
     * Opens the journal at {@code path} to read it up to its last complete tick, as a crash
     * left it (see the class comment); a header cut short reads as a journal with no ticks.
     *
     * @throws CorruptJournalException if the file is not a journal of a known version, or is
     *     damaged in a way a crash does not explain
     */
    public static JournalReader openAllowingCut(Path path) throws IOException {
        return open(path, true);
    }

    private static JournalReader open(Path path, boolean allowCut) throws IOException {
        return open(path, allowCut, null);
    }

    /**
     * Opens the journal at {@code path} as {@link #openAllowingCut} does, checks that it still
     * holds what {@code mark} was taken after (the same header, at least as many bytes, the
     * same record just before the mark), and reads on from the mark: the records before it
     * are not read again, and {@link #lastTickEnded()}, {@link #cut()} and the tick order go
     * on from what they were there. A mark taken inside a tick's inputs resumes record by
     * record only ({@link #nextTick} refuses the rest of that tick).
     *
     * @throws CorruptJournalException if the file no longer holds what the mark was taken
     *     after (it was replaced, truncated or rewritten): read it from its start with
     *     {@link #openAllowingCut}; the first {@link #nextRecord}/{@link #nextTick} refuses the
     *     same way a record at the mark that cannot follow the records before it (at a
     *     {@link #tickMark()}: the tick before's skip note or hash)
     */
    public static JournalReader resumeAllowingCut(Path path, JournalMark mark) throws IOException {
        return open(path, true, Objects.requireNonNull(mark, "mark"));
    }

    private static JournalReader open(Path path, boolean allowCut, JournalMark mark) throws IOException {
        SeekableByteChannel channel = Files.newByteChannel(path);
        JournalReader r = new JournalReader(path, channel, allowCut);
        try {
            r.readHeader();
            if (mark != null) {
                r.resumeAt(mark);
            }
            r.in = new BufferedInputStream(r.counted, 1 << 16);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return r;
    }

    private void resumeAt(JournalMark mark) throws IOException {
        String changed = null;
        long size = channel.size();
        if (cut != null || version != mark.version || headerChecksum != mark.headerChecksum) {
            changed = "its header is not the one the mark was taken after";
        } else if (size < mark.offset) {
            changed = "the file is " + size + " bytes long, shorter than the mark";
        } else if (mark.records > 0) {
            ByteBuffer b = ByteBuffer.allocate(4);
            channel.position(mark.offset - 4);
            while (b.hasRemaining() && channel.read(b) > 0) {
                // the checksum of the record before the mark
            }
            counted.count += b.position();
            if (b.hasRemaining() || b.getInt(0) != mark.lastRecordChecksum) {
                changed = "the record before the mark is not the one the mark was taken after";
            }
        }
        if (changed != null) {
            throw new CorruptJournalException(path, mark.offset, mark.records, changed + " (" + mark
                    + "): the file was replaced, truncated or rewritten", "Read it from its start with "
                    + "JournalReader.openAllowingCut");
        }
        channel.position(mark.offset);
        offset = mark.offset;
        index = mark.records;
        lastRecordChecksum = mark.lastRecordChecksum; // for a mark taken again before a record is read
        framing = mark.framing();
        if (mark.betweenTicks) { // a tick mark taken again before a tick begins stands here
            framing.lastTickOver(); // the tick before's skip note or hash here: not the file the mark was taken in
            startTickAt(mark.offset, mark.records, mark.lastRecordChecksum);
        }
        resumedAt = mark.records;
    }

    private void readHeader() throws IOException {
        byte[] h = new byte[HEADER_BYTES];
        int n = in.readNBytes(h, 0, HEADER_PREFIX);
        long magic = n >= 8 ? (long) LONG.get(h, 0) : 0;
        if (n < HEADER_PREFIX && allowCut && startsLikeAHeader(h, n)) {
            cutAt(0, "the file ends inside its header, " + n + " bytes long");
            return;
        }
        if (n < HEADER_PREFIX) {
            throw corrupt(0, -1, "the file is " + n + " bytes long, shorter than the journal header");
        }
        if (magic != MAGIC) {
            throw new CorruptJournalException(path, 0, -1, "it does not start with the journal magic ORRYJRNL "
                    + "(found 0x" + Long.toHexString(magic) + ")", "Check that the path names an Orrery input journal");
        }
        version = (int) INT.get(h, 8);
        if (version != VERSION && version != VERSION_1) {
            // its header length is unknown, so this is said before any checksum
            throw new CorruptJournalException(path, 0, -1, "format version " + version
                    + " is not supported (this reader knows versions " + VERSION_1 + " and " + VERSION + ")",
                    "Read it with the Orrery release that recorded it");
        }
        int size = version == VERSION_1 ? HEADER_BYTES_V1 : HEADER_BYTES;
        int more = in.readNBytes(h, HEADER_PREFIX, size - HEADER_PREFIX);
        if (more < size - HEADER_PREFIX) {
            if (allowCut) {
                cutAt(0, "the file ends inside its header, " + (n + more) + " bytes long");
                return;
            }
            throw corrupt(0, -1, "the file is " + (n + more) + " bytes long, shorter than the " + size
                    + "-byte journal header");
        }
        crc.reset();
        crc.update(h, 0, size - 4);
        int stored = (int) INT.get(h, size - 4);
        headerChecksum = stored;
        if (stored != (int) crc.getValue()) {
            throw corrupt(0, -1, "header checksum mismatch (stored 0x" + Integer.toHexString(stored)
                    + ", computed 0x" + Integer.toHexString((int) crc.getValue()) + ")");
        }
        if (version == VERSION && ((int) INT.get(h, 12) & FLAG_SKIP_TICK) != 0) {
            policy = FailurePolicy.SKIP_TICK;
        }
        offset = size;
    }

    private static boolean startsLikeAHeader(byte[] h, int n) {
        for (int i = 0; i < Math.min(n, 8); i++) {
            if (h[i] != (byte) (MAGIC >>> (56 - 8 * i))) {
                return false;
            }
        }
        return true;
    }

    /** The failure policy the run was recorded under (version 1 journals: {@code STOP}). */
    public FailurePolicy failurePolicy() {
        return policy;
    }

    /** The format version of the file (1 or 2). */
    public int version() {
        return version;
    }

    /**
     * Whether the end-of-journal record has been read: the recording was closed cleanly.
     * False before the end, and at a cut ({@link #cut()}).
     */
    public boolean closedCleanly() {
        return ended && cut == null;
    }

    /**
     * Where and why a journal opened with {@link #openAllowingCut} ends without a clean
     * close (byte offset, last complete tick), once the reader has reached that point; null
     * otherwise.
     */
    public String cut() {
        return cut;
    }

    /** The last tick whose end was read, or {@link Long#MIN_VALUE} before any. */
    public long lastTickEnded() {
        return framing.lastEnded();
    }

    /** The journal file. */
    public Path path() {
        return path;
    }

    /**
     * Bytes this reader has read from the file so far: the header, and the records from the
     * start or, resumed, from the mark on (the read-ahead buffer counted as read).
     */
    public long bytesRead() {
        return counted.count;
    }

    /**
     * The boundary where the records read so far end, to {@link #resumeAllowingCut resume}
     * from once the file has grown: after the last complete record, also when the reader
     * stopped at a cut ({@link #cut()}), which is where a live journal ends for now.
     *
     * @throws IllegalStateException when the reader read its end record (a closed journal
     *     does not grow), when the file ended inside its header, or while {@link #nextTick}
     *     holds a record it read ahead (mark after {@link #nextRecord} or after
     *     {@code nextTick} returned {@code false}), or after {@link #close()}
     */
    public JournalMark mark() {
        requireOpen();
        String why = failed ? "was refused as damaged: no boundary to resume from"
                : closedCleanly() ? "was closed cleanly: it does not grow, so there is nothing to resume"
                : version == 0 ? "ends inside its header: open it again once the header is written"
                : pushedBack ? "has a record nextTick read ahead: mark after nextRecord, or after nextTick returned"
                        + " false" : null;
        if (why != null) {
            throw new IllegalStateException("journal " + path + " " + why);
        }
        return new JournalMark(offset, index, version, headerChecksum, lastRecordChecksum, framing,
                framing.betweenTicks());
    }

    /**
     * The last boundary between ticks this reader passed, to {@link #resumeAllowingCut resume}
     * reading tick by tick from once the file has grown: where the records read so far end when
     * nothing more of their ticks can follow (after a tick's hash), otherwise where the last tick
     * begun begins, so that a resumed {@link #nextTick} reads that tick again, whole, with the
     * skip note or hash written after this reader stopped. Unlike {@link #mark()}, it may be
     * taken while {@code nextTick} holds a record it read ahead.
     *
     * @throws IllegalStateException when the reader read its end record, when the file ended
     *     inside its header, after a refusal of damage, when it was resumed inside a tick and
     *     no tick has begun since, or after {@link #close()}
     */
    public JournalMark tickMark() {
        requireOpen();
        String why = failed ? "was refused as damaged: no boundary to resume from"
                : closedCleanly() ? "was closed cleanly: it does not grow, so there is nothing to resume"
                : version == 0 ? "ends inside its header: open it again once the header is written" : null;
        if (why != null) {
            throw new IllegalStateException("journal " + path + " " + why);
        }
        if (!pushedBack && framing.betweenTicks()) {
            return new JournalMark(offset, index, version, headerChecksum, lastRecordChecksum, framing, true);
        }
        if (tickStart < 0) {
            throw new IllegalStateException("journal " + path + " was resumed inside a tick and no tick has begun "
                    + "since: resume it from a tickMark, or read it from its start");
        }
        return new JournalMark(tickStart, tickStartRecords, version, headerChecksum, tickStartChecksum,
                tickStartFraming, true);
    }

    /** Notes that a tick begins at {@code at}, after {@code records} records, the last checksummed {@code checksum}. */
    private void startTickAt(long at, long records, int checksum) {
        tickStart = at;
        tickStartRecords = records;
        tickStartChecksum = checksum;
        tickStartFraming.set(framing);
    }

    /**
     * Reads the next record and checks it.
     *
     * @return {@code true} with the record's fields available through the accessors;
     *     {@code false} once the end-of-journal record has been read (and no bytes follow it)
     * @throws CorruptJournalException if the record is cut short, damaged or out of order
     * @throws IllegalStateException after {@link #close()}
     */
    public boolean nextRecord() throws IOException {
        requireOpen();
        if (pushedBack) {
            pushedBack = false;
            return !ended;
        }
        if (ended) {
            return false;
        }
        if (!readRecord()) {
            return false; // a cut, reading with openAllowingCut
        }
        if (kind == JournalRecordKind.END) {
            ended = true;
            return false;
        }
        return true;
    }

    /**
     * Reads the next tick: its inputs, its end, and the state hash recorded after it if
     * there is one.
     *
     * @return {@code false} at the end of the journal
     * @throws CorruptJournalException if the journal is cut short or damaged before the
     *     tick is complete
     */
    public boolean nextTick(JournalTick into) throws IOException {
        if (!nextRecord()) {
            return false;
        }
        boolean insideTick = switch (kind) {
            case INPUT -> sequence() != 0;
            case TICK_END -> inputCount() != 0;
            case TICK_SKIPPED, TICK_HASH -> true; // what follows a tick's end, which nextTick reads with it
            case END -> false;
        };
        if (insideTick) {
            throw new IllegalStateException("journal " + path + " was resumed (or read by nextRecord) inside tick "
                    + tick + ": read the rest of that tick with nextRecord, or resume from a mark taken between "
                    + "ticks (after a tick's hash, or before the next tick's first record)");
        }
        into.reset(tick);
        while (kind == JournalRecordKind.INPUT) {
            into.inputs().add(client(), type(), record, INPUT_FIXED, payloadLength());
            if (!nextRecord()) {
                if (cut != null) {
                    return false; // the tick's end was lost: it is not complete
                }
                // readRecord refuses an END after unterminated inputs, so this cannot happen
                throw corrupt(recordOffset, index - 1, "tick " + into.tick() + " has inputs but no tick end");
            }
        }
        if (kind != JournalRecordKind.TICK_END) {
            throw corrupt(recordOffset, index - 1, "a " + kind + " record where tick " + into.tick()
                    + " should begin");
        }
        if (!nextRecord()) {
            pushedBack = true; // the END record or a cut: report it on the next call
            return true;
        }
        if (kind == JournalRecordKind.TICK_SKIPPED) {
            into.skipped(skippedSystem(), skippedChunk());
            if (!nextRecord()) {
                pushedBack = true;
                return true;
            }
        }
        if (kind == JournalRecordKind.TICK_HASH) {
            into.hash(stateHash());
        } else {
            pushedBack = true;
        }
        return true;
    }

    /** Reads and checks one record; returns false at a cut (only when cuts are allowed). */
    private boolean readRecord() throws IOException {
        recordOffset = offset;
        long rec = index;
        int n = in.readNBytes(lengthBytes, 0, 4);
        if (n == 0) {
            if (allowCut) {
                return cutAt(recordOffset, "the file ends after a complete record");
            }
            throw corrupt(recordOffset, rec, "the file ends without an end-of-journal record (last tick ended: "
                    + framing.lastEndedText() + ")");
        }
        if (n < 4) {
            if (allowCut) {
                return cutAt(recordOffset, "the file ends inside a record's length field");
            }
            throw corrupt(recordOffset, rec, "the file ends inside the record's length field");
        }
        int length = (int) INT.get(lengthBytes, 0);
        if (length < BODY_PREFIX || length > MAX_BODY) {
            if (allowCut && length == 0 && onlyZerosFollow()) {
                return cutAt(recordOffset, "only zero bytes follow (written space whose data was lost)");
            }
            throw corrupt(recordOffset, rec, "record length " + length + " is outside " + BODY_PREFIX + ".."
                    + MAX_BODY);
        }
        if (record.length < length + 4) {
            record = Arrays.copyOf(record, Math.max(length + 4, record.length * 2));
        }
        n = in.readNBytes(record, 0, length + 4);
        if (n < length + 4) {
            // Either a crash cut the file inside its last record, or the length field is damaged and
            // runs past the records that follow; the bytes that are there tell the two apart.
            String damaged = damagedLength(length, n);
            if (allowCut && damaged == null) {
                return cutAt(recordOffset, "the file ends " + (n + 4) + " bytes into a record of " + (length + 8)
                        + " bytes");
            }
            throw corrupt(recordOffset, rec, damaged != null ? damaged : "the file ends " + (n + 4)
                    + " bytes into a record of " + (length + 8) + " bytes");
        }
        crc.reset();
        crc.update(lengthBytes, 0, 4);
        crc.update(record, 0, length);
        int stored = (int) INT.get(record, length);
        if (stored != (int) crc.getValue()) {
            if (allowCut && onlyZerosFollow()) {
                return cutAt(recordOffset, "the last record is torn (its checksum fails and nothing follows it)");
            }
            throw corrupt(recordOffset, rec, "checksum mismatch (stored 0x" + Integer.toHexString(stored)
                    + ", computed 0x" + Integer.toHexString((int) crc.getValue()) + ")");
        }
        JournalRecordKind k = JournalRecordKind.ofCode(record[0]);
        if (k == null || k == JournalRecordKind.TICK_SKIPPED && version == VERSION_1) {
            throw corrupt(recordOffset, rec, "unknown record kind " + record[0]);
        }
        int expected = switch (k) {
            case INPUT -> INPUT_FIXED;
            case TICK_END -> TICK_END_BODY;
            case TICK_HASH -> TICK_HASH_BODY;
            case END -> END_BODY;
            case TICK_SKIPPED -> TICK_SKIPPED_FIXED;
        };
        boolean variable = k == JournalRecordKind.INPUT || k == JournalRecordKind.TICK_SKIPPED;
        if (variable ? length < expected : length != expected) {
            throw corrupt(recordOffset, rec, k + " record of " + length + " body bytes, expected "
                    + (variable ? "at least " : "") + expected);
        }
        if ((k == JournalRecordKind.INPUT || k == JournalRecordKind.TICK_END) && framing.noOpenInputs()) {
            startTickAt(recordOffset, rec, lastRecordChecksum); // a tick's first record (checkOrder checks it is)
        }
        kind = k;
        lastRecordChecksum = stored;
        bodyLength = length;
        tick = (long) LONG.get(record, 1);
        offset += length + 8;
        index++;
        checkOrder(rec);
        return true;
    }

    /**
     * Why a record whose {@code length} runs past the end of the file cannot be the last record
     * a crash tore, or {@code null} if it can be: the {@code n} bytes after its length field
     * (all the file still holds, in {@link #record}) start with a kind whose body has another
     * length, or hold a complete, checksummed record, which only the records written after this
     * one can be (a crash leaves nothing after the record it tore). Error path only.
     */
    private String damagedLength(int length, int n) {
        if (n == 0) {
            return null;
        }
        int expected = bodyLength(record[0]);
        if (expected == 0) {
            return "record length " + length + " runs past the end of the file and its kind byte " + record[0]
                    + " is unknown: the record is damaged";
        }
        if (expected > 0 && expected != length) {
            return "the length field says " + length + " body bytes, but a " + JournalRecordKind.ofCode(record[0])
                    + " record has " + expected + ": the length field is damaged";
        }
        for (int p = 1; p + FRAME + BODY_PREFIX <= n; p++) {
            int len = (int) INT.get(record, p);
            if (len < BODY_PREFIX || len > MAX_BODY || p + FRAME + len > n) {
                continue;
            }
            int fixed = bodyLength(record[p + 4]);
            if (fixed == 0 || fixed > 0 && fixed != len) {
                continue;
            }
            crc.reset();
            crc.update(record, p, 4 + len);
            if ((int) INT.get(record, p + 4 + len) == (int) crc.getValue()) {
                return "the length field says " + length + " body bytes, past the end of the file, but a complete "
                        + "record follows at byte offset " + (recordOffset + 4 + p) + ": the length field is damaged";
            }
        }
        return null;
    }

    /**
     * The body length a record of kind {@code code} must have; -1 for a kind of variable length,
     * 0 for no kind of this journal's version.
     */
    private int bodyLength(byte code) {
        JournalRecordKind k = JournalRecordKind.ofCode(code);
        if (k == null || k == JournalRecordKind.TICK_SKIPPED && version == VERSION_1) {
            return 0;
        }
        return switch (k) {
            case INPUT, TICK_SKIPPED -> -1;
            case TICK_END -> TICK_END_BODY;
            case TICK_HASH -> TICK_HASH_BODY;
            case END -> END_BODY;
        };
    }

    /** Whether the rest of the file holds only zero bytes (reads it; error path only). */
    private boolean onlyZerosFollow() throws IOException {
        int b;
        while ((b = in.read()) != -1) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** Ends reading at a cut at {@code at}: no more records are handed out. */
    private boolean cutAt(long at, String why) {
        ended = true;
        cut = "journal " + path + " ends at byte offset " + at + " without a clean close (" + why
                + "); last complete tick: " + framing.lastEndedText();
        return false;
    }

    private void checkOrder(long rec) throws IOException {
        String problem = switch (kind) {
            case INPUT -> framing.input(tick, sequence());
            case TICK_END -> framing.tickEnd(tick, inputCount());
            case TICK_HASH -> framing.tickHash(tick);
            case TICK_SKIPPED -> framing.tickSkipped(tick);
            case END -> framing.end();
        };
        if (problem != null && rec == resumedAt) {
            failed = true;
            throw new CorruptJournalException(path, recordOffset, rec, "the record at the mark it was resumed from does "
                    + "not go on from the records before the mark (" + problem + "): the file was replaced or "
                    + "rewritten since the mark was taken", "Read it from its start with JournalReader.openAllowingCut");
        }
        if (problem != null) {
            throw corrupt(recordOffset, rec, problem);
        }
        if (kind == JournalRecordKind.END) {
            long count = (long) LONG.get(record, BODY_PREFIX);
            if (count != rec) {
                throw corrupt(recordOffset, rec, "end record counts " + count + " records but " + rec
                        + " precede it");
            }
            if (in.read() != -1) {
                throw corrupt(offset, index, "bytes follow the end-of-journal record");
            }
        }
    }

    /** The kind of the current record. */
    public JournalRecordKind kind() {
        return kind;
    }

    /** The tick of the current record. */
    public long tick() {
        return tick;
    }

    /** Byte offset of the current record in the file. */
    public long recordOffset() {
        return recordOffset;
    }

    /** Sequence within its tick of the current {@code INPUT} record. */
    public int sequence() {
        requireKind(JournalRecordKind.INPUT);
        return (int) INT.get(record, BODY_PREFIX);
    }

    /** Client of the current {@code INPUT} record. */
    public int client() {
        requireKind(JournalRecordKind.INPUT);
        return (int) INT.get(record, BODY_PREFIX + 4);
    }

    /** Command type of the current {@code INPUT} record. */
    public int type() {
        requireKind(JournalRecordKind.INPUT);
        return (int) INT.get(record, BODY_PREFIX + 8);
    }

    /** Payload length of the current {@code INPUT} record. */
    public int payloadLength() {
        requireKind(JournalRecordKind.INPUT);
        return bodyLength - INPUT_FIXED;
    }

    /** Copies the current {@code INPUT} record's payload into {@code dst}; returns its length. */
    public int copyPayload(byte[] dst, int dstOffset) {
        int len = payloadLength();
        System.arraycopy(record, INPUT_FIXED, dst, dstOffset, len);
        return len;
    }

    /** Input count of the current {@code TICK_END} record. */
    public int inputCount() {
        requireKind(JournalRecordKind.TICK_END);
        return (int) INT.get(record, BODY_PREFIX);
    }

    /** System name of the current {@code TICK_SKIPPED} record. */
    public String skippedSystem() {
        requireKind(JournalRecordKind.TICK_SKIPPED);
        return new String(record, TICK_SKIPPED_FIXED, bodyLength - TICK_SKIPPED_FIXED, StandardCharsets.UTF_8);
    }

    /** Chunk ordinal of the current {@code TICK_SKIPPED} record (-1: not known). */
    public int skippedChunk() {
        requireKind(JournalRecordKind.TICK_SKIPPED);
        return (int) INT.get(record, BODY_PREFIX);
    }

    /** State hash of the current {@code TICK_HASH} record. */
    public long stateHash() {
        requireKind(JournalRecordKind.TICK_HASH);
        return (long) LONG.get(record, BODY_PREFIX);
    }

    /** Releases the file. Idempotent; reading on, or taking a mark, is refused after it. */
    @Override
    public void close() throws IOException {
        closed = true;
        channel.close();
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("journal " + path + " is closed; open it again (JournalReader.open, or "
                    + "resumeAllowingCut from a mark taken before close) to read on");
        }
    }

    private void requireKind(JournalRecordKind k) {
        if (kind != k) {
            throw new IllegalStateException("the current record of journal " + path + " is " + kind + ", not " + k);
        }
    }

    private CorruptJournalException corrupt(long at, long rec, String problem) {
        failed = true; // every refusal of the file is made here
        return new CorruptJournalException(path, at, rec, problem, DAMAGED);
    }

    /** Counts the bytes read from the file (for {@link #bytesRead()}). */
    private static final class Counting extends FilterInputStream {
        long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }
}
