package dev.orrery.engine.journal;

import static dev.orrery.engine.journal.JournalFormat.END_BODY;
import static dev.orrery.engine.journal.JournalFormat.FRAME;
import static dev.orrery.engine.journal.JournalFormat.HEADER_BYTES;
import static dev.orrery.engine.journal.JournalFormat.INPUT_FIXED;
import static dev.orrery.engine.journal.JournalFormat.MAGIC;
import static dev.orrery.engine.journal.JournalFormat.MAX_BODY;
import static dev.orrery.engine.journal.JournalFormat.MAX_PAYLOAD;
import static dev.orrery.engine.journal.JournalFormat.TICK_END_BODY;
import static dev.orrery.engine.journal.JournalFormat.TICK_HASH_BODY;
import static dev.orrery.engine.journal.JournalFormat.VERSION;

import dev.orrery.engine.input.InputRecorder;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Writes an input journal: an append-only file of checksummed records.
 *
 * <p><b>Layout</b> (all integers big-endian). A 16-byte header: the magic {@code ORRYJRNL},
 * the format version ({@code int}, now 1) and the CRC32C of those 12 bytes. Then records,
 * each {@code int length | body (length bytes) | int CRC32C(length field and body)}, where
 * the body is {@code byte kind | long tick} followed by:
 * <ul>
 *   <li>{@code INPUT}: {@code int sequence | int client | int type | payload bytes};
 *   <li>{@code TICK_END}: {@code int inputCount};
 *   <li>{@code TICK_HASH}: {@code long stateHash};
 *   <li>{@code END}: {@code long recordCount} (records before it); the tick is the last
 *       tick ended.
 * </ul>
 * Each tick is written as its inputs (sequences 0, 1, ...), its {@code TICK_END}, and at
 * most one {@code TICK_HASH}; ticks increase. {@link #close()} writes {@code END}, so a
 * reader can tell a finished journal from one cut short at a record boundary.
 *
 * <p>Records are buffered and written out on {@link #flush()} (the pipeline flushes after
 * each batch of ticks); {@link #sync()} also forces them to the device.
 *
 * <p><b>Threading:</b> one thread at a time (an {@link dev.orrery.engine.input.InputPipeline}
 * calls it from its journal thread only); not safe for concurrent use.
 */
public final class JournalWriter implements InputRecorder, Closeable {
    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(Math.max(1 << 16, MAX_BODY + FRAME));
    private final CRC32C crc = new CRC32C();
    private final TickFraming framing = new TickFraming();
    private long records;
    private boolean closed;

    private JournalWriter(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /**
     * Creates a new journal at {@code path} and writes its header.
     *
     * @throws FileAlreadyExistsException if a file is there already (a recording is never
     *     overwritten)
     */
    public static JournalWriter create(Path path) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(path.toString(), null,
                    "a file already exists there; record the journal to a new path or delete the old file");
        }
        JournalWriter w = new JournalWriter(path, ch);
        w.buffer.putLong(MAGIC).putInt(VERSION);
        w.crc.reset();
        w.crc.update(w.buffer.array(), 0, 12);
        w.buffer.putInt((int) w.crc.getValue());
        assert w.buffer.position() == HEADER_BYTES;
        return w;
    }

    /** The journal file. */
    public Path path() {
        return path;
    }

    /** Records written so far (the header and the end record not counted). */
    public long recordCount() {
        return records;
    }

    @Override
    public void recordInput(long tick, int sequence, int client, int type, byte[] payload, int offset, int length)
            throws IOException {
        checkOpen();
        if (length > MAX_PAYLOAD) {
            throw new IllegalArgumentException("input payload of " + length + " bytes (tick " + tick + ", client "
                    + client + ") exceeds the journal's limit of " + MAX_PAYLOAD + " bytes");
        }
        Objects.checkFromIndexSize(offset, length, payload.length);
        refuse(framing.input(tick, sequence));
        int start = begin(INPUT_FIXED + length, JournalRecordKind.INPUT, tick);
        buffer.putInt(sequence).putInt(client).putInt(type).put(payload, offset, length);
        end(start);
    }

    @Override
    public void recordTickEnd(long tick, int inputCount) throws IOException {
        checkOpen();
        refuse(framing.tickEnd(tick, inputCount));
        int start = begin(TICK_END_BODY, JournalRecordKind.TICK_END, tick);
        buffer.putInt(inputCount);
        end(start);
    }

    @Override
    public void recordTickHash(long tick, long stateHash) throws IOException {
        checkOpen();
        refuse(framing.tickHash(tick));
        int start = begin(TICK_HASH_BODY, JournalRecordKind.TICK_HASH, tick);
        buffer.putLong(stateHash);
        end(start);
    }

    /** Writes buffered records to the file (not necessarily to the device; see {@link #sync()}). */
    @Override
    public void flush() throws IOException {
        checkOpen();
        drain();
    }

    /** Writes buffered records and forces the file's content to the storage device. */
    public void sync() throws IOException {
        flush();
        channel.force(false);
    }

    /**
     * Writes the end-of-journal record, forces the file to the device and closes it.
     * Idempotent.
     *
     * @throws IllegalStateException if a tick has inputs but no tick end yet
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            String problem = framing.end();
            if (problem != null) {
                throw new IllegalStateException("journal " + path + ": closing, but " + problem
                        + "; end the tick first");
            }
            int start = begin(END_BODY, JournalRecordKind.END, framing.lastEnded());
            buffer.putLong(records - 1); // begin() already counted the end record itself
            end(start);
            drain();
            channel.force(true);
        } finally {
            closed = true;
            channel.close();
        }
    }

    /**
     * Releases the file without writing the end record, so readers refuse the journal as
     * cut short instead of replaying an incomplete run. Records already written out stay.
     * Idempotent; does nothing after {@link #close()}.
     */
    @Override
    public void abandon() throws IOException {
        if (!closed) {
            closed = true;
            channel.close();
        }
    }

    @Override
    public String toString() {
        return "journal " + path;
    }

    private int begin(int bodyLength, JournalRecordKind kind, long tick) throws IOException {
        if (buffer.remaining() < bodyLength + FRAME) {
            drain();
        }
        int start = buffer.position();
        buffer.putInt(bodyLength).put((byte) kind.code()).putLong(tick);
        records++;
        return start;
    }

    private void end(int start) {
        crc.reset();
        crc.update(buffer.array(), start, buffer.position() - start);
        buffer.putInt((int) crc.getValue());
    }

    private void drain() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    /** Throws the framing's {@code problem}, if any, as a misuse naming this journal. */
    private void refuse(String problem) {
        if (problem != null) {
            throw new IllegalStateException("journal " + path + ": " + problem);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("journal " + path + " is closed; start a new recording");
        }
    }
}
