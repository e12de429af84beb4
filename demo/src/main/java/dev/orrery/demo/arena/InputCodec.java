package dev.orrery.demo.arena;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.demo.net.NegativeZero;
import dev.orrery.engine.InputBatch;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The byte form of the client commands that change the world ({@code MOVE}, {@code SPAWN},
 * {@code SET}) as they travel through the engine's input pipeline and journal. Every
 * payload starts with the client id and the request number (big-endian longs), so a replay
 * knows whom the original run answered.
 *
 * <pre>
 * MOVE   clientId requestId squad:int x:float y:float
 * SPAWN  clientId requestId count:int
 * SET    clientId requestId entity:long kind:byte value:double component:str field:str
 *        (str = length byte + ASCII; kind 0 = number, 1 = true/false, 2 = unreadable;
 *        a number's -0 is encoded as 0, so the world never gets it from a SET)
 * </pre>
 *
 * <p>{@code GET} does not travel this way: it changes nothing, so it is answered between
 * ticks without being journaled.
 *
 * <p><b>Threading:</b> stateless; {@link #encode} writes only into the caller's buffer.
 */
public final class InputCodec {
    /** Input type of {@code MOVE}. */
    public static final int MOVE = 1;
    /** Input type of {@code SPAWN}. */
    public static final int SPAWN = 2;
    /** Input type of {@code SET}. */
    public static final int SET = 3;
    /** The largest payload {@link #encode} writes (names are at most 64 characters each). */
    public static final int MAX_PAYLOAD = 8 + 8 + 8 + 1 + 8 + 2 * 65;

    /** {@code SET}'s value kinds. */
    static final int NUMBER = 0;
    static final int BOOLEAN = 1;
    static final int UNREADABLE = 2;

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private InputCodec() {
    }

    /** The input type of a command, or 0 for {@code GET} (not journaled). */
    public static int typeOf(ClientCommand command) {
        switch (command.type()) {
            case MOVE:
                return MOVE;
            case SPAWN:
                return SPAWN;
            case SET:
                return SET;
            default:
                return 0;
        }
    }

    /**
     * Writes {@code command}'s payload into {@code buf} (at least {@link #MAX_PAYLOAD} bytes).
     *
     * @return the payload length
     * @throws IllegalArgumentException for a {@code GET}, or names over 64 characters
     */
    public static int encode(ClientCommand command, byte[] buf) {
        LONG.set(buf, 0, command.clientId());
        LONG.set(buf, 8, command.requestId());
        if (command instanceof ClientCommand.MoveSquad m) {
            INT.set(buf, 16, m.squad());
            INT.set(buf, 20, Float.floatToRawIntBits(m.x()));
            INT.set(buf, 24, Float.floatToRawIntBits(m.y()));
            return 28;
        }
        if (command instanceof ClientCommand.SpawnWave s) {
            INT.set(buf, 16, s.count());
            return 20;
        }
        if (command instanceof ClientCommand.SetProperty s) {
            LONG.set(buf, 16, s.entity());
            int kind;
            double value = 0;
            if (s.value().equals("true") || s.value().equals("false")) {
                kind = BOOLEAN;
                value = s.value().equals("true") ? 1 : 0;
            } else {
                try {
                    value = NegativeZero.toZero(Double.parseDouble(s.value())); // -0 is written as 0
                    kind = NUMBER;
                } catch (NumberFormatException e) {
                    kind = UNREADABLE;
                }
            }
            buf[24] = (byte) kind;
            LONG.set(buf, 25, Double.doubleToRawLongBits(value));
            int at = putString(buf, 33, s.component());
            return putString(buf, at, s.field());
        }
        throw new IllegalArgumentException(command.type() + " is answered between ticks and never journaled");
    }

    private static int putString(byte[] buf, int at, String s) {
        if (s.length() > 64) {
            throw new IllegalArgumentException("name '" + s.substring(0, 16) + "...' is over 64 characters");
        }
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        buf[at] = (byte) b.length;
        System.arraycopy(b, 0, buf, at + 1, b.length);
        return at + 1 + b.length;
    }

    /** The sending client of input {@code i}. */
    static long clientId(InputBatch in, int i) {
        return in.payloadLong(i, 0);
    }

    /** The request number of input {@code i}. */
    static long requestId(InputBatch in, int i) {
        return in.payloadLong(i, 8);
    }

    /** A {@code SET}'s component name. */
    static String setComponent(InputBatch in, int i, byte[] scratch) {
        return string(in, i, 33, scratch);
    }

    /** A {@code SET}'s field name. */
    static String setField(InputBatch in, int i, byte[] scratch) {
        int len = in.payloadByte(i, 33) & 0xFF;
        return string(in, i, 34 + len, scratch);
    }

    private static String string(InputBatch in, int i, int at, byte[] scratch) {
        in.copyPayload(i, scratch, 0);
        int len = scratch[at] & 0xFF;
        return new String(scratch, at + 1, len, StandardCharsets.US_ASCII);
    }
}
