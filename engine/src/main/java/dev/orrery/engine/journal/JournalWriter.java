package dev.orrery.engine.journal;

import static dev.orrery.engine.journal.JournalFormat.END_BODY;
import static dev.orrery.engine.journal.JournalFormat.FLAG_SKIP_TICK;
import static dev.orrery.engine.journal.JournalFormat.FRAME;
import static dev.orrery.engine.journal.JournalFormat.HEADER_BYTES;
import static dev.orrery.engine.journal.JournalFormat.INPUT_FIXED;
import static dev.orrery.engine.journal.JournalFormat.MAGIC;
import static dev.orrery.engine.journal.JournalFormat.MAX_BODY;
import static dev.orrery.engine.journal.JournalFormat.MAX_PAYLOAD;
import static dev.orrery.engine.journal.JournalFormat.MAX_SYSTEM_NAME;
import static dev.orrery.engine.journal.JournalFormat.TICK_END_BODY;
import static dev.orrery.engine.journal.JournalFormat.TICK_HASH_BODY;
import static dev.orrery.engine.journal.JournalFormat.TICK_SKIPPED_FIXED;
import static dev.orrery.engine.journal.JournalFormat.VERSION;

import dev.orrery.engine.Durability;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputRecorder;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Writes an input journal: an append-only file of checksummed records.
 *
 * <p><b>Layout</b> (all integers big-endian). A 20-byte header: the magic {@code ORRYJRNL},
 * the format version ({@code int}, now 2), flags ({@code int}; bit 0: the run was recorded
 * under {@link FailurePolicy#SKIP_TICK}) and the CRC32C of those 16 bytes (version 1, still
 * read, had no flags: 16 bytes, CRC32C of 12). Then records,
 * each {@code int length | body (length bytes) | int CRC32C(length field and body)}, where
 * the body is {@code byte kind | long tick} followed by:
 * <ul>
 *   <li>{@code INPUT}: {@code int sequence | int client | int type | payload bytes};
 *   <li>{@code TICK_END}: {@code int inputCount};
 *   <li>{@code TICK_SKIPPED}: {@code int chunkOrdinal | system name (UTF-8)}: the tick was
 *       skipped because that system threw;
 *   <li>{@code TICK_HASH}: {@code long stateHash};
 *   <li>{@code END}: {@code long recordCount} (records before it); the tick is the last
 *       tick ended.
 * </ul>
 * Each tick is written as its inputs (sequences 0, 1, ...), its {@code TICK_END}, at most
 * one {@code TICK_SKIPPED} and at most one {@code TICK_HASH}; ticks increase. {@link #close()} writes {@code END}, so a
 * reader can tell a finished journal from one cut short at a record boundary.
 *
 * <p>Records are buffered and written out on {@link #flush()} (the pipeline flushes after
 * each batch of ticks), which also forces them to the device as the writer's
 * {@link Durability} says; {@link #sync()} always forces. The header is written out (and,
 * unless the durability is {@code NONE}, forced) by {@link #create}, so a journal cut by a
 * crash always starts with one.
 *
 * <p><b>Threading:</b> one thread at a time (an {@link dev.orrery.engine.InputPipeline}
 * calls it from its journal thread only); not safe for concurrent use.
 */
public final class JournalWriter implements InputRecorder, Closeable {
    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocate(Math.max(1 << 16, MAX_BODY + FRAME));
    private final CRC32C crc = new CRC32C();
    private final TickFraming framing = new TickFraming();
    private final Durability durability;
    private long records;
    private boolean closed;
    /** Bytes written to the file since the last force. */
    private boolean unforced;
    private long lastForce = System.nanoTime();

    private JournalWriter(Path path, FileChannel channel, Durability durability) {
        this.path = path;
        this.channel = channel;
        this.durability = durability;
    }

    /**
     * Creates a new journal at {@code path} for a run under {@link FailurePolicy#STOP} that
     * is forced to the device only on close ({@link Durability#NONE}).
     *
     * @throws FileAlreadyExistsException if a file is there already (a recording is never
     *     overwritten)
     */
    public static JournalWriter create(Path path) throws IOException {
        return create(path, FailurePolicy.STOP, Durability.NONE);
    }

    /**
     * Creates a new journal at {@code path} and writes its header, which notes
     * {@code policy}, the failure policy of the run it records; forces as {@code durability}
     * says.
     *
     * @throws FileAlreadyExistsException if a file is there already (a recording is never
     *     overwritten)
     */
    public static JournalWriter create(Path path, FailurePolicy policy, Durability durability) throws IOException {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(durability, "durability");
        FileChannel ch;
        try {
            ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(path.toString(), null,
                    "a file already exists there; record the journal to a new path or delete the old file");
        }
        JournalWriter w = new JournalWriter(path, ch, durability);
        w.buffer.putLong(MAGIC).putInt(VERSION).putInt(policy == FailurePolicy.SKIP_TICK ? FLAG_SKIP_TICK : 0);
        w.crc.reset();
        w.crc.update(w.buffer.array(), 0, HEADER_BYTES - 4);
        w.buffer.putInt((int) w.crc.getValue());
        assert w.buffer.position() == HEADER_BYTES;
        try {
            w.drain();
            if (durability.mode() != Durability.Mode.NONE) {
                w.force();
            }
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
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

    /** Notes that {@code tick} (ended just before) was skipped because {@code system} threw on chunk {@code chunk}. */
    @Override
    public void recordTickSkipped(long tick, String system, int chunk) throws IOException {
        checkOpen();
        refuse(framing.tickSkipped(tick));
        byte[] name = system.getBytes(StandardCharsets.UTF_8);
        int length = Math.min(name.length, MAX_SYSTEM_NAME);
        int start = begin(TICK_SKIPPED_FIXED + length, JournalRecordKind.TICK_SKIPPED, tick);
        buffer.putInt(chunk).put(name, 0, length);
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

    /**
     * Writes buffered records to the file, and forces them to the device when the
     * {@link Durability} says so: always for {@code TICK}, once its interval has passed for
     * {@code INTERVAL}, never for {@code NONE}.
     */
    @Override
    public void flush() throws IOException {
        checkOpen();
        drain();
        switch (durability.mode()) {
            case TICK -> force();
            case INTERVAL -> {
                if (System.nanoTime() - lastForce >= durability.intervalNanos()) {
                    force();
                }
            }
            case NONE -> { }
        }
    }

    /** Whether every {@link #flush()} forces: the pipeline then waits for each tick's records. */
    @Override
    public boolean durableEachFlush() {
        return durability.mode() == Durability.Mode.TICK;
    }

    /** The durability this writer was created with. */
    public Durability durability() {
        return durability;
    }

    /** Writes buffered records and forces the file's content to the storage device. */
    public void sync() throws IOException {
        checkOpen();
        drain();
        force();
    }

    private void force() throws IOException {
        if (unforced) {
            channel.force(false);
            unforced = false;
        }
        lastForce = System.nanoTime();
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
        unforced |= buffer.hasRemaining();
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
