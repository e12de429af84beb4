package dev.orrery.ecs;

import java.io.DataInput;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UTFDataFormatException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * One section of a snapshot as it is read: a big-endian {@link DataInput} over exactly the
 * section's bytes that never reads past them, and whose every refusal names the section,
 * the byte offset and what was wrong. The snapshot's own readers read through one, and so
 * do codecs: the {@code DataInput} a {@link ReferenceCodec} (or an engine resource codec)
 * is handed is a {@code SnapshotInput}, so a codec that reads a count or a length can check
 * it against the bytes present ({@link #readCount}, {@link #remaining}) before it allocates.
 *
 * <p>Reading past the end of the section throws an {@link EOFException} whose message names
 * the section and the offset; a {@code boolean} that is neither 0 nor 1 and a malformed
 * string throw an {@link IOException} likewise; the checks of a reader's own
 * ({@link #refuse}, {@link #corrupt}) throw a {@link SnapshotException}. The snapshot readers
 * turn every one of these into one {@code SnapshotException}, thrown before anything is
 * placed in the target world.
 *
 * <p><b>Threading:</b> one thread, the one restoring the snapshot.
 */
public final class SnapshotInput implements DataInput {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final String CORRUPTED = "; the snapshot is corrupted (or was written by another version of "
            + "Orrery or of a codec): restore from a good copy or write it again";

    private final String section;
    private final byte[] bytes;
    private final int start;
    private final int end;
    /** The offset in the section of {@code bytes[start]}: 0, or where a {@link #slice} begins. */
    private final int origin;
    /** The file offset of the section's first byte, or -1 where not known. */
    private final long fileOffset;
    private int pos;
    private String part;
    /** The last exception this input threw from a read, so {@link #read} can tell it from a codec's own. */
    private IOException failure;

    private SnapshotInput(String section, byte[] bytes, int start, int end, int origin, long fileOffset) {
        this.section = section;
        this.bytes = bytes;
        this.start = start;
        this.end = end;
        this.origin = origin;
        this.fileOffset = fileOffset;
        this.pos = start;
    }

    /**
     * Reads all of {@code bytes} as the section named {@code section} (its offset in the file not known).
     *
     * @param section the section's name, as messages give it ("resources"); not null
     * @param bytes the section's bytes, read in place (not copied): do not change them while
     *     reading
     * @return an input at offset 0 of the section
     * @throws NullPointerException if {@code section} or {@code bytes} is null
     */
    public static SnapshotInput of(String section, byte[] bytes) {
        return new SnapshotInput(Objects.requireNonNull(section, "section"), bytes, 0, bytes.length, 0, -1);
    }

    /** Reads {@code bytes[from, to)}, which lie at {@code fileOffset} in the snapshot file. */
    static SnapshotInput of(String section, byte[] bytes, int from, int to, long fileOffset) {
        return new SnapshotInput(section, bytes, from, to, 0, fileOffset);
    }

    /**
     * Reads one value with {@code codec}, a user's, from here; every way it can fail (this
     * input running out, a malformed value, the codec's own exception) becomes one
     * {@link SnapshotException} naming the section, the offset and {@code what} was read.
     *
     * @param <T>   the type read
     * @param what  what the codec reads, for the message ("resource 'Score'")
     * @param codec the user's read method, handed this input
     * @return what {@code codec} read
     * @throws SnapshotException if the codec fails in any way, with the cause attached
     */
    public <T> T read(String what, Reader<T> codec) {
        int at = position();
        try {
            return codec.read(this);
        } catch (SnapshotException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            if (e == failure) {
                throw new SnapshotException(e.getMessage(), e); // names the section and the offset already
            }
            String why = e.toString();
            throw corruptAt(at, what + " could not be read by its codec (" + (why.length() > 200
                    ? why.substring(0, 200) + "..." : why) + ")");
        }
    }

    /**
     * What {@link #read} calls: a codec's read method ({@code ReferenceCodec::read}, an engine
     * resource codec's).
     *
     * @param <T> the type read
     */
    @FunctionalInterface
    public interface Reader<T> {
        /**
         * Reads one value from {@code in}.
         *
         * @param in the input to read from (the {@code SnapshotInput} itself)
         * @return the value read
         * @throws IOException if the bytes run out or are malformed
         */
        T read(DataInput in) throws IOException;
    }

    /**
     * The section's name, as messages give it.
     *
     * @return the name given to {@link #of}, or the enclosing section's for a {@link #slice}
     */
    public String section() {
        return section;
    }

    /**
     * The offset in the section of the next byte.
     *
     * @return the offset from the section's first byte, 0 to the section's length; a slice counts
     *     from its section's start, not its own
     */
    public int position() {
        return origin + pos - start;
    }

    /**
     * The bytes of the section not read yet.
     *
     * @return the bytes left before the end of this input (a slice's end for a slice), 0 or more
     */
    public int remaining() {
        return end - pos;
    }


    /**
     * Names the part of the section being read (a resource, an archetype), for messages;
     * {@code null} for none.
     *
     * @param what the part ("resource 'Score'"), or {@code null} to name none
     * @return this input, for chaining
     */
    public SnapshotInput part(String what) {
        this.part = what;
        return this;
    }

    /**
     * Reads a count ({@code int}) of items that take at least {@code minBytesEach} bytes each
     * and of which there may be at most {@code max}, and checks it before anything is
     * allocated for them.
     *
     * @param what         the items counted, for the message ("row", "resource")
     * @param minBytesEach the fewest bytes one item takes in the section (0 for items that may
     *     take none)
     * @param max          the most items there may be
     * @return the count, from 0 to {@code max}, and at most what the section's remaining bytes can hold
     * @throws EOFException if fewer than 4 bytes remain for the count itself
     * @throws SnapshotException if the count is negative, over {@code max}, or claims more
     *     bytes than the section has left
     */
    public int readCount(String what, int minBytesEach, long max) throws EOFException {
        int at = position();
        int n = readIntChecked();
        checkCount(at, n, what, minBytesEach, max);
        return n;
    }

    /** As {@link #readCount}, for a count {@code n} read from offset {@code at} of the section. */
    void checkCount(int at, long n, String what, int minBytesEach, long max) {
        if (n < 0) {
            throw corruptAt(at, what + " count " + n + " is negative");
        }
        if (n > max) {
            throw corruptAt(at, what + " count " + n + " is over the most there can be here, " + max);
        }
        if (n * Math.max(0, minBytesEach) > remaining()) {
            throw corruptAt(at, what + " count " + n + " needs at least " + n * minBytesEach + " bytes but "
                    + remaining() + " remain" + (part == null ? " in the section" : " of " + part));
        }
    }

    /**
     * A {@link SnapshotException} at the current offset: {@code problemAndFix} is the whole sentence after it.
     *
     * @param problemAndFix what is wrong and what to do about it, one sentence
     * @return the exception, for the caller to throw; its message starts with the section and
     *     offset
     */
    public SnapshotException refuse(String problemAndFix) {
        return refuseAt(position(), problemAndFix);
    }

    /**
     * A {@link SnapshotException} at offset {@code at} of the section: {@code problemAndFix} is the whole sentence after it.
     *
     * @param at the offset in the section the problem is at, as {@link #position()} gave it
     * @param problemAndFix what is wrong and what to do about it, one sentence
     * @return the exception, for the caller to throw; its message starts with the section and
     *     offset
     */
    public SnapshotException refuseAt(int at, String problemAndFix) {
        return new SnapshotException(oneLine(where(at) + ": " + problemAndFix));
    }

    /**
     * A {@link SnapshotException} at the current offset saying the snapshot is corrupted: {@code problem} and why.
     *
     * @param problem what is wrong with the bytes; the message adds that the snapshot is corrupted
     *     and to restore a good copy or write it again
     * @return the exception, for the caller to throw
     */
    public SnapshotException corrupt(String problem) {
        return corruptAt(position(), problem);
    }

    /**
     * A {@link SnapshotException} at offset {@code at} of the section saying the snapshot is corrupted.
     *
     * @param at the offset in the section the problem is at, as {@link #position()} gave it
     * @param problem what is wrong with the bytes; the message adds that the snapshot is corrupted
     *     and to restore a good copy or write it again
     * @return the exception, for the caller to throw
     */
    public SnapshotException corruptAt(int at, String problem) {
        return new SnapshotException(oneLine(where(at) + ": " + problem + CORRUPTED));
    }

    /**
     * Text read from a snapshot (a name), fit for a one-line message: in single quotes, cut to
     * 64 characters, with control characters shown as {@code ?}.
     *
     * @param text the text read, not null
     * @return {@code 'text'}, at most 64 characters of it followed by {@code ...} when longer
     */
    public static String quote(String text) {
        String t = text.length() > 64 ? text.substring(0, 64) + "..." : text;
        return "'" + oneLine(t) + "'";
    }

    /** {@code text} with every control or line-separating character shown as {@code ?}. */
    private static String oneLine(String text) {
        StringBuilder sb = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                if (sb == null) {
                    sb = new StringBuilder(text);
                }
                sb.setCharAt(i, '?');
            }
        }
        return sb == null ? text : sb.toString();
    }

    /**
     * Checks that the whole section was read.
     *
     * @throws SnapshotException naming how many bytes were left
     */
    public void requireEnd() {
        if (pos != end) {
            throw corrupt(remaining() + " bytes follow the end of what was written here");
        }
    }

    /**
     * The next {@code length} bytes as an input of their own, for one part of this section
     * ({@code part}, as {@link #part} names it) that must not read past them; offsets in its
     * messages are still this section's. This input skips the bytes.
     *
     * @param part what the bytes hold, for messages ("resource 'Score'")
     * @param length how many bytes, 0 or more
     * @return a new input over those bytes only, reporting this section's name and offsets
     * @throws EOFException if fewer than {@code length} bytes remain
     */
    public SnapshotInput slice(String part, int length) throws EOFException {
        need(length, "the " + length + " bytes of " + part);
        SnapshotInput s = new SnapshotInput(section, bytes, pos, pos + length, position(), fileOffset);
        s.part = part;
        pos += length;
        return s;
    }

    /** The next {@code length} bytes as the section named {@code name}, whose offsets start at 0; this input skips them. */
    SnapshotInput section(String name, int length) throws EOFException {
        need(length, "the " + length + " bytes of section '" + name + "'");
        SnapshotInput s = new SnapshotInput(name, bytes, pos, pos + length, 0, fileOffset());
        pos += length;
        return s;
    }

    /** A copy of the next {@code length} bytes (for a count checked before). */
    byte[] readBytes(int length) throws EOFException {
        need(length, length + " bytes");
        byte[] out = java.util.Arrays.copyOfRange(bytes, pos, pos + length);
        pos += length;
        return out;
    }

    /** The file offset of the next byte, or -1 where the section's place in the file is not known. */
    long fileOffset() {
        return fileOffset < 0 ? -1 : fileOffset + position();
    }

    private String where(int at) {
        return "snapshot section " + quote(section) + (part == null ? "" : " (" + part + ")") + ", byte " + at
                + (fileOffset < 0 ? "" : " (file offset " + (fileOffset + at) + ")");
    }

    private void need(int n, String what) throws EOFException {
        if (n > end - pos || n < 0) {
            EOFException e = new EOFException(oneLine(where(position()) + ": " + what + " needed but " + remaining()
                    + " bytes remain" + (part == null ? " in the section" : " of " + part) + CORRUPTED));
            failure = e;
            throw e;
        }
    }

    private int readIntChecked() throws EOFException {
        need(4, "an int");
        int v = (int) INT.get(bytes, pos);
        pos += 4;
        return v;
    }

    @Override
    public void readFully(byte[] b) throws IOException {
        readFully(b, 0, b.length);
    }

    @Override
    public void readFully(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        need(len, len + " bytes");
        System.arraycopy(bytes, pos, b, off, len);
        pos += len;
    }

    @Override
    public int skipBytes(int n) {
        int k = Math.max(0, Math.min(n, remaining()));
        pos += k;
        return k;
    }

    /** Reads a boolean, which must be the byte 0 or 1 (as {@code DataOutput.writeBoolean} writes it). */
    @Override
    public boolean readBoolean() throws IOException {
        int at = position();
        byte b = readByte();
        if (b != 0 && b != 1) {
            failure = new IOException(where(at) + ": a boolean is the byte 0 or 1, not " + b + CORRUPTED);
            throw failure;
        }
        return b == 1;
    }

    @Override
    public byte readByte() throws IOException {
        need(1, "a byte");
        return bytes[pos++];
    }

    @Override
    public int readUnsignedByte() throws IOException {
        return readByte() & 0xFF;
    }

    @Override
    public short readShort() throws IOException {
        need(2, "a short");
        short v = (short) SHORT.get(bytes, pos);
        pos += 2;
        return v;
    }

    @Override
    public int readUnsignedShort() throws IOException {
        return readShort() & 0xFFFF;
    }

    @Override
    public char readChar() throws IOException {
        return (char) readShort();
    }

    @Override
    public int readInt() throws IOException {
        return readIntChecked();
    }

    @Override
    public long readLong() throws IOException {
        need(8, "a long");
        long v = (long) LONG.get(bytes, pos);
        pos += 8;
        return v;
    }

    @Override
    public float readFloat() throws IOException {
        return Float.intBitsToFloat(readInt());
    }

    @Override
    public double readDouble() throws IOException {
        return Double.longBitsToDouble(readLong());
    }

    /** Reads bytes up to a line end as Latin-1 characters, as {@code DataInputStream.readLine} did; null at the end. */
    @Override
    public String readLine() {
        if (pos == end) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        while (pos < end) {
            int c = bytes[pos++] & 0xFF;
            if (c == '\n') {
                break;
            }
            if (c == '\r') {
                if (pos < end && bytes[pos] == '\n') {
                    pos++;
                }
                break;
            }
            sb.append((char) c);
        }
        return sb.toString();
    }

    /** Reads a string in the modified UTF-8 of {@code DataOutput.writeUTF}; a malformed one is refused. */
    @Override
    public String readUTF() throws IOException {
        int at = position();
        try {
            return DataInputStream.readUTF(this);
        } catch (UTFDataFormatException e) {
            failure = new IOException(where(at) + ": a string that is not modified UTF-8" + CORRUPTED, e);
            throw failure;
        }
    }
}
