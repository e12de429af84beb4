package dev.orrery.cluster.protocol;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.UncheckedIOException;
import java.util.function.Function;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.SerializerWithStringManifest;

/**
 * Pekko serializer for the world protocol: each message as a one-letter manifest and its
 * fields in {@code DataOutput} form, actor references in Pekko's string form. Configured by
 * {@code ClusterNode} ({@code pekko.actor.serializers} and {@code serialization-bindings} for
 * {@link WorldMessage}); Pekko builds it reflectively with the actor system.
 *
 * <p>Reading trusts no byte from the wire: a payload length is checked against the bytes
 * present and {@link #MAX_PAYLOAD} before anything is allocated, a boolean must be the byte 0
 * or 1, bytes left over after the message are refused, and an actor reference that does not
 * resolve is refused; every refusal is one {@link NotSerializableException} naming the
 * message, the byte offset and what was wrong, which Pekko logs and drops.
 *
 * <p><b>Threading:</b> thread-safe (no state but the actor-reference resolver, which is).
 */
public final class ProtocolSerializer extends SerializerWithStringManifest {
    /** The serializer id (Pekko reserves 0 to 40). */
    public static final int ID = 0x0e7e_0001;
    /** The largest input payload a {@link SubmitInput} carries: the most a world's journal records, 64 KiB. */
    public static final int MAX_PAYLOAD = 65536;

    private final ExtendedActorSystem system;
    private volatile ActorRefResolver resolver;

    /** Built by Pekko for {@code system}. */
    public ProtocolSerializer(ExtendedActorSystem system) {
        this.system = system;
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

    @Override
    public byte[] toBinary(Object o) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            if (o instanceof SubmitInput m) {
                out.writeInt(m.client());
                out.writeInt(m.type());
                out.writeInt(m.payload().length);
                out.write(m.payload());
                out.writeUTF(ref(m.replyTo()));
            } else if (o instanceof GetStatus m) {
                out.writeUTF(ref(m.replyTo()));
            } else if (o instanceof Hold m) {
                out.writeBoolean(m.hold());
                out.writeUTF(ref(m.replyTo()));
            } else if (o instanceof InputReply m) {
                out.writeUTF(m.worldId());
                out.writeBoolean(m.accepted());
                out.writeLong(m.tick());
                out.writeInt(m.sequence());
                out.writeLong(m.epoch());
                out.writeUTF(m.refusal());
            } else if (o instanceof WorldStatus m) {
                out.writeUTF(m.worldId());
                out.writeUTF(m.node());
                out.writeLong(m.epoch());
                out.writeLong(m.tick());
                out.writeLong(m.stateHash());
                out.writeBoolean(m.held());
                out.writeLong(m.snapshotTick());
                out.writeLong(m.ticksReplayed());
                out.writeDouble(m.openMillis());
                out.writeLong(m.resumedAtMillis());
            } else {
                throw new IllegalArgumentException(unknown(o));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        return bytes.toByteArray();
    }

    @Override
    public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
        return read(bytes, manifest, this::resolve);
    }

    /**
     * Reads the message {@code bytes} of {@code manifest}, resolving actor references with
     * {@code resolve} (a refusal of its own, any {@link RuntimeException}, is the reference's
     * fault); what {@link #fromBinary} does, apart from the actor system.
     *
     * @throws NotSerializableException in one line naming the message, the byte offset and
     *     what was wrong, for an unknown manifest and for any bytes that are not exactly one
     *     message of it
     */
    static Object read(byte[] bytes, String manifest, Function<String, ActorRef<?>> resolve)
            throws NotSerializableException {
        Wire in = new Wire(bytes, manifest, resolve);
        try {
            Object message = switch (String.valueOf(manifest)) {
                case "S" -> {
                    int client = in.readInt();
                    int type = in.readInt();
                    int at = in.position();
                    int length = in.readInt();
                    if (length < 0 || length > MAX_PAYLOAD || length > in.available()) {
                        throw in.refuse(at, "payload length " + length + " is outside 0.." + Math.min(MAX_PAYLOAD,
                                Math.max(0, in.available())) + " (at most " + MAX_PAYLOAD + ", and the bytes left)");
                    }
                    byte[] payload = new byte[length];
                    in.readFully(payload);
                    yield new SubmitInput(client, type, payload, in.ref());
                }
                case "G" -> new GetStatus(in.ref());
                case "H" -> new Hold(in.bool(), in.ref());
                case "R" -> new InputReply(in.readUTF(), in.bool(), in.readLong(), in.readInt(), in.readLong(),
                        in.readUTF());
                case "W" -> new WorldStatus(in.readUTF(), in.readUTF(), in.readLong(), in.readLong(), in.readLong(),
                        in.bool(), in.readLong(), in.readLong(), in.readDouble(), in.readLong());
                default -> throw new NotSerializableException("world protocol message with manifest '"
                        + printable(String.valueOf(manifest)) + "' is unknown; the sending node runs another Orrery "
                        + "version (run one version per cluster)");
            };
            if (in.available() != 0) {
                throw in.refuse(in.position(), in.available() + " bytes follow the end of the message");
            }
            return message;
        } catch (NotSerializableException e) {
            throw e;
        } catch (IOException e) {
            throw in.refuse(in.position(), "it ends early (" + e.getClass().getSimpleName() + ")");
        } catch (RuntimeException e) { // a field the message's constructor refuses
            throw in.refuse(in.position(), "a field is refused (" + printable(String.valueOf(e.getMessage())) + ")");
        }
    }

    /** The bytes of one message as they are read, with where a refusal happened. */
    private static final class Wire extends DataInputStream {
        private final byte[] bytes;
        private final String manifest;
        private final Function<String, ActorRef<?>> resolve;

        Wire(byte[] bytes, String manifest, Function<String, ActorRef<?>> resolve) {
            super(new ByteArrayInputStream(bytes));
            this.bytes = bytes;
            this.manifest = manifest;
            this.resolve = resolve;
        }

        int position() {
            try {
                return bytes.length - available();
            } catch (IOException e) {
                return -1; // a ByteArrayInputStream does not fail
            }
        }

        boolean bool() throws IOException {
            int at = position();
            byte b = readByte();
            if (b != 0 && b != 1) {
                throw refuse(at, "a boolean is the byte 0 or 1, not " + b);
            }
            return b == 1;
        }

        <T> ActorRef<T> ref() throws IOException {
            int at = position();
            String text = readUTF();
            ActorRef<?> ref;
            try {
                ref = resolve.apply(text);
            } catch (RuntimeException e) {
                throw refuse(at, "actor reference '" + printable(text) + "' does not resolve ("
                        + printable(String.valueOf(e.getMessage())) + ")");
            }
            if (ref == null) {
                throw refuse(at, "actor reference '" + printable(text) + "' does not resolve");
            }
            @SuppressWarnings("unchecked") // the protocol says what the reference takes; Pekko cannot check it
            ActorRef<T> typed = (ActorRef<T>) ref;
            return typed;
        }

        NotSerializableException refuse(int at, String why) {
            return new NotSerializableException("world protocol message '" + printable(String.valueOf(manifest))
                    + "' of " + bytes.length + " bytes, byte " + at + ": " + why + "; it is damaged, or the sending "
                    + "node runs another Orrery version (run one version per cluster)");
        }
    }

    /** {@code text} cut to 80 characters, with control characters shown as {@code ?}, for a one-line message. */
    private static String printable(String text) {
        String t = text.length() > 80 ? text.substring(0, 80) + "..." : text;
        StringBuilder sb = new StringBuilder(t.length());
        t.codePoints().forEach(c -> sb.appendCodePoint(Character.isISOControl(c) || c == 0x2028 || c == 0x2029
                ? '?' : c));
        return sb.toString();
    }

    private String ref(ActorRef<?> ref) {
        return resolver().toSerializationFormat(ref);
    }

    private ActorRef<?> resolve(String ref) {
        return resolver().resolveActorRef(ref);
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
        return "ProtocolSerializer writes world protocol messages only, not " + (o == null ? "null" : o.getClass().getName())
                + "; bind that class to another serializer";
    }
}
