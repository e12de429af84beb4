package dev.orrery.cluster.sharding;

import com.typesafe.config.Config;
import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldMessage;
import dev.orrery.cluster.protocol.WorldStatus;
import java.io.NotSerializableException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * Pekko serializer for the world protocol: each message as a one-letter manifest and its
 * fields, big-endian, strings as an {@code int} byte count and UTF-8, actor references in
 * Pekko's string form. Configured by {@code ClusterNode} ({@code pekko.actor.serializers} and
 * {@code serialization-bindings} for {@link WorldMessage}); Pekko builds it reflectively
 * with the actor system.
 *
 * <p><b>Hostile bytes.</b> {@link #fromBinary} reads a message that another node (or anyone
 * who reaches the port) sent, so it trusts nothing in it: every length is checked against
 * the bytes present and against a configured maximum ({@value #MAX_PAYLOAD_KEY}, default
 * {@value #DEFAULT_MAX_PAYLOAD}; {@value #MAX_TEXT_KEY}, default {@value #DEFAULT_MAX_TEXT})
 * before anything is allocated, booleans and enums must hold a valid value, text must be
 * valid UTF-8, and the message must end where its last field does. Whatever is wrong, it
 * throws {@link NotSerializableException} naming the message and the fault (Pekko then drops
 * the message and logs it), never an {@code Error} or an unchecked exception, and it
 * allocates at most the message's own size plus a constant.
 *
 * <p><b>Threading:</b> thread-safe (its only state is the limits, fixed at construction,
 * and the actor-reference resolver, which is thread-safe and published through a volatile).
 */
public final class ProtocolSerializer extends SerializerWithStringManifest {
    /** The serializer id (Pekko reserves 0 to 40). */
    public static final int ID = 0x0e7e_0001;
    /** Configuration key: the largest input payload, in bytes, a node sends or reads. */
    public static final String MAX_PAYLOAD_KEY = "orrery.protocol.max-payload-bytes";
    /** Configuration key: the largest text field (world id, reason, node address, actor reference), in UTF-8 bytes. */
    public static final String MAX_TEXT_KEY = "orrery.protocol.max-text-bytes";
    /** The default of {@value #MAX_PAYLOAD_KEY}. */
    public static final int DEFAULT_MAX_PAYLOAD = 16 * 1024;
    /** The default of {@value #MAX_TEXT_KEY}. */
    public static final int DEFAULT_MAX_TEXT = 2048;
    /**
     * The most {@value #MAX_PAYLOAD_KEY} may be: what the engine's journal holds per input
     * (64 KiB) less the 16 bytes of client id and sequence the world journals with it.
     */
    public static final int PAYLOAD_CEILING = 65536 - 16;

    private static final int MIN_TEXT = 256;
    private static final int TEXT_CEILING = 64 * 1024;

    private final ExtendedActorSystem system;
    private final int maxPayload;
    private final int maxText;
    private volatile ActorRefResolver resolver;

    /**
     * Built by Pekko for {@code system}, with the limits in its configuration.
     *
     * @param system the actor system whose configuration holds the limits
     * @throws IllegalArgumentException if a configured limit is out of range
     */
    public ProtocolSerializer(ExtendedActorSystem system) {
        this.system = system;
        Config config = system.settings().config();
        this.maxPayload = limit(config, MAX_PAYLOAD_KEY, DEFAULT_MAX_PAYLOAD, 0, PAYLOAD_CEILING);
        this.maxText = limit(config, MAX_TEXT_KEY, DEFAULT_MAX_TEXT, MIN_TEXT, TEXT_CEILING);
    }

    /**
     * The payload limit {@code system} is configured with ({@value #DEFAULT_MAX_PAYLOAD} if
     * none), with both limits checked.
     *
     * @param system the actor system whose configuration holds the limits
     * @return the payload limit in bytes, 0 to {@value #PAYLOAD_CEILING}
     * @throws IllegalArgumentException if a configured limit is out of range, naming its key
     */
    public static int maxPayload(org.apache.pekko.actor.typed.ActorSystem<?> system) {
        return maxPayload(system.settings().config());
    }

    static int maxPayload(Config config) {
        limit(config, MAX_TEXT_KEY, DEFAULT_MAX_TEXT, MIN_TEXT, TEXT_CEILING);
        return limit(config, MAX_PAYLOAD_KEY, DEFAULT_MAX_PAYLOAD, 0, PAYLOAD_CEILING);
    }

    private static int limit(Config config, String key, int fallback, int min, int max) {
        if (!config.hasPath(key)) {
            return fallback;
        }
        int value;
        try {
            value = config.getInt(key);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + " must be a whole number of bytes, " + min + " to " + max
                    + "; got '" + config.getValue(key).unwrapped() + "'", e);
        }
        if (value < min || value > max) {
            throw new IllegalArgumentException(key + " = " + value + " is out of range; set " + min + " to " + max
                    + " bytes (default " + fallback + ")");
        }
        return value;
    }

    /**
     * The largest input payload this serializer writes or reads, in bytes.
     *
     * @return the limit, 0 to {@value #PAYLOAD_CEILING}
     */
    public int maxPayloadBytes() {
        return maxPayload;
    }

    /**
     * The largest text field this serializer writes or reads, in UTF-8 bytes.
     *
     * @return the limit, 256 to 65536
     */
    public int maxTextBytes() {
        return maxText;
    }

    @Override
    public int identifier() {
        return ID;
    }

    @Override
    public String manifest(Object o) {
        if (o instanceof SubmitInput) {
            return "S";
        } else if (o instanceof GetStatus) {
            return "G";
        } else if (o instanceof Hold) {
            return "H";
        } else if (o instanceof InputReply) {
            return "R";
        } else if (o instanceof WorldStatus) {
            return "W";
        }
        throw new IllegalArgumentException(unknown(o));
    }

    /**
     * The message's bytes.
     *
     * @throws IllegalArgumentException if it is not a world protocol message, or a field is
     *     over its limit (a payload larger than {@value #MAX_PAYLOAD_KEY}: {@code ClusterNode}
     *     refuses those before sending)
     */
    @Override
    public byte[] toBinary(Object o) {
        Writer out = new Writer();
        if (o instanceof SubmitInput m) {
            if (m.payload().length > maxPayload) {
                throw new IllegalArgumentException("input payload of " + m.payload().length + " bytes is over "
                        + MAX_PAYLOAD_KEY + " = " + maxPayload + "; send less, or raise the limit on every node");
            }
            out.writeLong(m.clientId());
            out.writeLong(m.sequence());
            out.writeInt(m.client());
            out.writeInt(m.type());
            out.writeInt(m.payload().length);
            out.write(m.payload());
            out.writeText(ref(m.replyTo()), maxText, "replyTo");
        } else if (o instanceof GetStatus m) {
            out.writeText(ref(m.replyTo()), maxText, "replyTo");
        } else if (o instanceof Hold m) {
            out.writeByte(m.hold() ? 1 : 0);
            out.writeText(ref(m.replyTo()), maxText, "replyTo");
        } else if (o instanceof InputReply m) {
            out.writeText(m.worldId(), maxText, "worldId");
            out.writeLong(m.clientId());
            out.writeLong(m.sequence());
            out.writeByte(m.outcome().ordinal());
            out.writeLong(m.tick());
            out.writeLong(m.epoch());
            out.writeText(m.reason(), maxText, "reason");
        } else if (o instanceof WorldStatus m) {
            out.writeText(m.worldId(), maxText, "worldId");
            out.writeText(m.node(), maxText, "node");
            out.writeLong(m.epoch());
            out.writeLong(m.tick());
            out.writeLong(m.stateHash());
            out.writeByte(m.held() ? 1 : 0);
            out.writeLong(m.snapshotTick());
            out.writeLong(m.ticksReplayed());
            out.writeDouble(m.openMillis());
            out.writeLong(m.resumedAtMillis());
        } else {
            throw new IllegalArgumentException(unknown(o));
        }
        return out.toByteArray();
    }

    /**
     * The message in {@code bytes}.
     *
     * @throws NotSerializableException if the manifest is unknown, or the bytes are not a
     *     well-formed message of that manifest within the configured limits
     */
    @Override
    public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
        if (bytes == null) {
            throw new NotSerializableException("world protocol message '" + manifest + "' has no bytes");
        }
        Reader in = new Reader(bytes, manifest);
        Object message;
        try {
            switch (manifest == null ? "" : manifest) {
                case "S": {
                    long clientId = in.readLong();
                    long sequence = in.readLong();
                    int client = in.readInt();
                    int type = in.readInt();
                    byte[] payload = in.readBytes(maxPayload, "payload", MAX_PAYLOAD_KEY);
                    message = new SubmitInput(clientId, sequence, client, type, payload, resolve(in, "replyTo"));
                    break;
                }
                case "G":
                    message = new GetStatus(resolve(in, "replyTo"));
                    break;
                case "H":
                    message = new Hold(in.readBoolean("hold"), resolve(in, "replyTo"));
                    break;
                case "R": {
                    String worldId = in.readText(maxText, "worldId");
                    long clientId = in.readLong();
                    long sequence = in.readLong();
                    int outcome = in.readByte();
                    InputReply.Outcome[] outcomes = InputReply.Outcome.values();
                    if (outcome < 0 || outcome >= outcomes.length) {
                        throw in.damaged("outcome " + outcome + " is not 0 to " + (outcomes.length - 1));
                    }
                    message = new InputReply(worldId, clientId, sequence, outcomes[outcome], in.readLong(),
                            in.readLong(), in.readText(maxText, "reason"));
                    break;
                }
                case "W":
                    message = new WorldStatus(in.readText(maxText, "worldId"), in.readText(maxText, "node"),
                            in.readLong(), in.readLong(), in.readLong(), in.readBoolean("held"), in.readLong(),
                            in.readLong(), in.readDouble(), in.readLong());
                    break;
                default:
                    throw new NotSerializableException("world protocol message with manifest '" + in.manifest
                            + "' is unknown; the sending node runs another Orrery version (run one version per "
                            + "cluster)");
            }
        } catch (NotSerializableException e) {
            throw e;
        } catch (RuntimeException e) {
            // a record refusing a field (a sequence below 1), or the resolver refusing a reference
            throw in.damaged(e.toString());
        }
        in.end();
        return message;
    }

    private String ref(ActorRef<?> ref) {
        return resolver().toSerializationFormat(ref);
    }

    private <T> ActorRef<T> resolve(Reader in, String field) throws NotSerializableException {
        String text = in.readText(maxText, field);
        if (text.isEmpty()) {
            throw in.damaged(field + " is empty, not an actor reference");
        }
        return resolver().resolveActorRef(text);
    }

    private ActorRefResolver resolver() {
        ActorRefResolver r = resolver;
        if (r == null) {
            r = ActorRefResolver.get(Adapter.toTyped(system));
            resolver = r;
        }
        return r;
    }

    private static String unknown(Object o) {
        return "ProtocolSerializer writes world protocol messages only, not "
                + (o == null ? "null" : o.getClass().getName()) + "; bind that class to another serializer";
    }

    // Big-endian views of a byte array: the wire order of every int and long field.
    private static final VarHandle BIG_ENDIAN_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BIG_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /** A growing big-endian buffer. */
    private static final class Writer {
        private byte[] buf = new byte[64];
        private int size;

        private void ensure(int more) {
            if (size + more > buf.length) {
                buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
            }
        }

        void writeByte(int v) {
            ensure(1);
            buf[size++] = (byte) v;
        }

        void writeInt(int v) {
            ensure(4);
            BIG_ENDIAN_INT.set(buf, size, v);
            size += 4;
        }

        void writeLong(long v) {
            ensure(8);
            BIG_ENDIAN_LONG.set(buf, size, v);
            size += 8;
        }

        void writeDouble(double v) {
            writeLong(Double.doubleToRawLongBits(v));
        }

        void write(byte[] bytes) {
            ensure(bytes.length);
            System.arraycopy(bytes, 0, buf, size, bytes.length);
            size += bytes.length;
        }

        void writeText(String s, int max, String field) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            if (utf8.length > max) {
                throw new IllegalArgumentException("world protocol field " + field + " of " + utf8.length
                        + " bytes is over " + MAX_TEXT_KEY + " = " + max + "; raise the limit on every node");
            }
            writeInt(utf8.length);
            write(utf8);
        }

        byte[] toByteArray() {
            return java.util.Arrays.copyOf(buf, size);
        }
    }

    /** Reads fields from a message's bytes, checking each against what is left before it allocates. */
    private static final class Reader {
        private final byte[] bytes;
        private final String manifest;
        private int pos;

        Reader(byte[] bytes, String manifest) {
            this.bytes = bytes;
            // the manifest came over the wire too: quote at most a few printable characters of it
            String m = String.valueOf(manifest).replaceAll("[^\\x20-\\x7e]", "?");
            this.manifest = m.length() > 8 ? m.substring(0, 8) + "..." : m;
        }

        NotSerializableException damaged(String fault) {
            return new NotSerializableException("world protocol message '" + manifest + "' of " + bytes.length
                    + " bytes is damaged at byte " + pos + ": " + fault + "; dropped (a node of another Orrery "
                    + "version, or something that is not an Orrery node, is sending to this port)");
        }

        private void need(int n, String what) throws NotSerializableException {
            if (n > bytes.length - pos) {
                throw damaged(what + " needs " + n + " bytes but " + (bytes.length - pos) + " are left (truncated)");
            }
        }

        int readByte() throws NotSerializableException {
            need(1, "a byte");
            return bytes[pos++];
        }

        boolean readBoolean(String field) throws NotSerializableException {
            int b = readByte();
            if (b != 0 && b != 1) {
                throw damaged(field + " is " + b + ", not 0 or 1");
            }
            return b == 1;
        }

        int readInt() throws NotSerializableException {
            need(4, "an int");
            int v = (int) BIG_ENDIAN_INT.get(bytes, pos);
            pos += 4;
            return v;
        }

        long readLong() throws NotSerializableException {
            need(8, "a long");
            long v = (long) BIG_ENDIAN_LONG.get(bytes, pos);
            pos += 8;
            return v;
        }

        double readDouble() throws NotSerializableException {
            return Double.longBitsToDouble(readLong());
        }

        /** A length-prefixed byte field: the length is checked before the array exists. */
        byte[] readBytes(int max, String field, String key) throws NotSerializableException {
            int n = readInt();
            if (n < 0 || n > max) {
                throw damaged(field + " length " + n + " is not 0 to " + max + " (" + key + ")");
            }
            need(n, field);
            byte[] out = java.util.Arrays.copyOfRange(bytes, pos, pos + n);
            pos += n;
            return out;
        }

        /** A length-prefixed UTF-8 field, decoded strictly (malformed UTF-8 is refused, not replaced). */
        String readText(int max, String field) throws NotSerializableException {
            int n = readInt();
            if (n < 0 || n > max) {
                throw damaged(field + " length " + n + " is not 0 to " + max + " (" + MAX_TEXT_KEY + ")");
            }
            need(n, field);
            try {
                String s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, pos, n))
                        .toString();
                pos += n;
                return s;
            } catch (CharacterCodingException e) {
                throw damaged(field + " is not valid UTF-8 (" + e + ")");
            }
        }

        void end() throws NotSerializableException {
            if (pos != bytes.length) {
                throw damaged((bytes.length - pos) + " bytes follow the last field");
            }
        }
    }
}
