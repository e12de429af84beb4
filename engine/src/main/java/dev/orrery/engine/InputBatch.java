package dev.orrery.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * The inputs one tick consumes, in the order the tick saw them: input {@code i} has
 * sequence {@code i} within {@link #tick()}. Stored flat (parallel {@code int} arrays and one
 * payload arena), so a batch is reused tick after tick and allocates nothing once it has
 * grown to the busiest tick's size.
 *
 * <p>Payload accessors read big-endian values at a byte offset inside one input's payload;
 * producers encode them the same way (for example with a big-endian
 * {@link java.nio.ByteBuffer} over a reusable array).
 *
 * <p><b>Threading:</b> {@link #reset} and {@link #add} are for whoever fills the batch: the
 * tick thread inside {@link InputPipeline#beginTick}, or a journal reader during replay.
 * Systems only read it, from any worker, during the tick; the contents stay valid until
 * the filler's next {@code reset}. Reading while it is being filled is a data race.
 */
public final class InputBatch {
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private long tick;
    private int size;
    private int[] clients = new int[16];
    private int[] types = new int[16];
    private int[] offsets = new int[17];
    private byte[] arena = new byte[1024];

    /** An empty batch for no tick yet ({@link #tick()} is {@link Long#MIN_VALUE}). */
    public InputBatch() {
        this.tick = Long.MIN_VALUE;
    }

    /**
     * Empties the batch and labels it with {@code tick}. For the batch's filler only.
     *
     * @param tick the tick the batch's inputs are for
     */
    public void reset(long tick) {
        this.tick = tick;
        this.size = 0;
    }

    /**
     * Appends an input with the next sequence number ({@link #size()} before the call) and
     * returns that sequence. For the batch's filler only.
     *
     * @param client the sender (connection, player), as the producer numbers them
     * @param type the command type, as the producer chose it
     * @param payload the array holding the payload; the bytes are copied, so it may be reused after
     *     the call
     * @param offset where the payload starts in {@code payload}
     * @param length the payload's length in bytes, 0 or more
     * @return the input's sequence, 0 for the first input after {@link #reset}
     * @throws IndexOutOfBoundsException when {@code [offset, offset + length)} is not inside
     *     {@code payload}
     */
    public int add(int client, int type, byte[] payload, int offset, int length) {
        Objects.checkFromIndexSize(offset, length, payload.length);
        int n = size;
        if (n == clients.length) {
            int cap = n * 2;
            clients = Arrays.copyOf(clients, cap);
            types = Arrays.copyOf(types, cap);
            offsets = Arrays.copyOf(offsets, cap + 1);
        }
        int start = offsets[n];
        int end = start + length;
        if (end > arena.length) {
            arena = Arrays.copyOf(arena, Math.max(end, arena.length * 2));
        }
        System.arraycopy(payload, offset, arena, start, length);
        clients[n] = client;
        types[n] = type;
        offsets[n + 1] = end;
        size = n + 1;
        return n;
    }

    /**
     * The tick that consumes these inputs.
     *
     * @return the tick given to the last {@link #reset}, or {@link Long#MIN_VALUE} before the first
     */
    public long tick() {
        return tick;
    }

    /**
     * How many inputs the tick consumes.
     *
     * @return the inputs added since the last {@link #reset}, 0 or more; sequences run from 0 to
     *     this minus 1
     */
    public int size() {
        return size;
    }

    /**
     * Whether the tick has no inputs.
     *
     * @return true when {@link #size()} is 0
     */
    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * The client (connection, player) that sent input {@code i}.
     *
     * @param i the input's sequence, 0 to {@code size() - 1}
     * @return the client number the producer gave
     * @throws IndexOutOfBoundsException naming the tick and the valid sequences when {@code i} is
     *     out of range
     */
    public int client(int i) {
        return clients[check(i)];
    }

    /**
     * The command type of input {@code i}, as the producer chose it.
     *
     * @param i the input's sequence, 0 to {@code size() - 1}
     * @return the command type the producer gave
     * @throws IndexOutOfBoundsException naming the tick and the valid sequences when {@code i} is
     *     out of range
     */
    public int type(int i) {
        return types[check(i)];
    }

    /**
     * The payload length of input {@code i} in bytes.
     *
     * @param i the input's sequence, 0 to {@code size() - 1}
     * @return the length, 0 or more
     * @throws IndexOutOfBoundsException naming the tick and the valid sequences when {@code i} is
     *     out of range
     */
    public int payloadLength(int i) {
        check(i);
        return offsets[i + 1] - offsets[i];
    }

    /**
     * Copies input {@code i}'s payload into {@code dst} at {@code dstOffset}; returns its length.
     *
     * @param i the input's sequence, 0 to {@code size() - 1}
     * @param dst the array to copy into, with room for {@code payloadLength(i)} bytes from
     *     {@code dstOffset}
     * @param dstOffset where the first byte goes in {@code dst}
     * @return the bytes copied, {@code payloadLength(i)}
     * @throws IndexOutOfBoundsException naming the tick and the valid sequences when {@code i} is
     *     out of range, or ({@link ArrayIndexOutOfBoundsException}) when {@code dst} has no room
     */
    public int copyPayload(int i, byte[] dst, int dstOffset) {
        int len = payloadLength(i);
        System.arraycopy(arena, offsets[i], dst, dstOffset, len);
        return len;
    }

    /**
     * The byte at {@code at} in input {@code i}'s payload.
     *
     * @param i the input's sequence, 0 to {@code size() - 1}
     * @param at the byte offset in the payload, 0 to {@code payloadLength(i) - 1}
     * @return the byte
     * @throws IndexOutOfBoundsException naming the input, its payload length and the offset when
     *     {@code i} or the 1 byte at {@code at} fall outside
     */
    public byte payloadByte(int i, int at) {
        return arena[payloadIndex(i, at, 1)];
    }

    /**
     * The big-endian {@code int} at byte {@code at} in input {@code i}'s payload.
     *
     * @param i the input's sequence, 0 to {@code size() - 1}
     * @param at the byte offset in the payload, 0 to {@code payloadLength(i) - 4}
     * @return the value of the 4 bytes from {@code at}
     * @throws IndexOutOfBoundsException naming the input, its payload length and the offset when
     *     {@code i} or the 4 bytes at {@code at} fall outside
     */
    public int payloadInt(int i, int at) {
        return (int) INT.get(arena, payloadIndex(i, at, 4));
    }

    /**
     * The big-endian {@code long} at byte {@code at} in input {@code i}'s payload.
     *
     * @param i the input's sequence, 0 to {@code size() - 1}
     * @param at the byte offset in the payload, 0 to {@code payloadLength(i) - 8}
     * @return the value of the 8 bytes from {@code at}
     * @throws IndexOutOfBoundsException naming the input, its payload length and the offset when
     *     {@code i} or the 8 bytes at {@code at} fall outside
     */
    public long payloadLong(int i, int at) {
        return (long) LONG.get(arena, payloadIndex(i, at, 8));
    }

    /**
     * The big-endian {@code float} (IEEE bits) at byte {@code at} in input {@code i}'s payload.
     *
     * @param i the input's sequence, 0 to {@code size() - 1}
     * @param at the byte offset in the payload, 0 to {@code payloadLength(i) - 4}
     * @return the value of the 4 bytes from {@code at} as IEEE bits
     * @throws IndexOutOfBoundsException naming the input, its payload length and the offset when
     *     {@code i} or the 4 bytes at {@code at} fall outside
     */
    public float payloadFloat(int i, int at) {
        return Float.intBitsToFloat(payloadInt(i, at));
    }

    /**
     * The big-endian {@code double} (IEEE bits) at byte {@code at} in input {@code i}'s payload.
     *
     * @param i the input's sequence, 0 to {@code size() - 1}
     * @param at the byte offset in the payload, 0 to {@code payloadLength(i) - 8}
     * @return the value of the 8 bytes from {@code at} as IEEE bits
     * @throws IndexOutOfBoundsException naming the input, its payload length and the offset when
     *     {@code i} or the 8 bytes at {@code at} fall outside
     */
    public double payloadDouble(int i, int at) {
        return Double.longBitsToDouble(payloadLong(i, at));
    }

    /**
     * Whether {@code other} holds the same tick and the same inputs, byte for byte.
     *
     * @param other another batch, not null
     * @return true when the ticks, sizes, and each input's client, type and payload bytes are equal
     */
    public boolean sameContentAs(InputBatch other) {
        if (other.tick != tick || other.size != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (clients[i] != other.clients[i] || types[i] != other.types[i]
                    || !Arrays.equals(arena, offsets[i], offsets[i + 1],
                            other.arena, other.offsets[i], other.offsets[i + 1])) {
                return false;
            }
        }
        return true;
    }

    /**
     * A copy that does not change when this batch is reused (for tests and diagnostics).
     *
     * @return a new batch with the same tick and inputs, its own arrays sized to them
     */
    public InputBatch copy() {
        InputBatch c = new InputBatch();
        c.reset(tick);
        for (int i = 0; i < size; i++) {
            c.add(clients[i], types[i], arena, offsets[i], offsets[i + 1] - offsets[i]);
        }
        return c;
    }

    @Override
    public String toString() {
        return "InputBatch[tick " + tick + ", " + size + " inputs]";
    }

    private int check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("input " + i + " of tick " + tick + ": the batch holds " + size
                    + " inputs (valid sequences 0.." + (size - 1) + ")");
        }
        return i;
    }

    private int payloadIndex(int i, int at, int width) {
        int len = payloadLength(i);
        if (at < 0 || at > len - width) {
            throw new IndexOutOfBoundsException("reading " + width + " bytes at offset " + at + " of input " + i
                    + " (client " + clients[i] + ", type " + types[i] + ") of tick " + tick
                    + ", whose payload is " + len + " bytes; check the command's encoding");
        }
        return offsets[i] + at;
    }
}
