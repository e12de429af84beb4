package dev.orrery.cluster.protocol;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.UncheckedIOException;
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
 * <p><b>Threading:</b> thread-safe (no state but the actor-reference resolver, which is).
 */
public final class ProtocolSerializer extends SerializerWithStringManifest {
    /** The serializer id (Pekko reserves 0 to 40). */
    public static final int ID = 0x0e7e_0001;

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
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            switch (manifest) {
                case "S": {
                    int client = in.readInt();
                    int type = in.readInt();
                    byte[] payload = new byte[in.readInt()];
                    in.readFully(payload);
                    return new SubmitInput(client, type, payload, resolve(in.readUTF()));
                }
                case "G":
                    return new GetStatus(resolve(in.readUTF()));
                case "H":
                    return new Hold(in.readBoolean(), resolve(in.readUTF()));
                case "R":
                    return new InputReply(in.readUTF(), in.readBoolean(), in.readLong(), in.readInt(), in.readLong(),
                            in.readUTF());
                case "W":
                    return new WorldStatus(in.readUTF(), in.readUTF(), in.readLong(), in.readLong(), in.readLong(),
                            in.readBoolean(), in.readLong(), in.readLong(), in.readDouble(), in.readLong());
                default:
                    throw new NotSerializableException("world protocol message with manifest '" + manifest
                            + "' is unknown; the sending node runs another Orrery version (run one version per cluster)");
            }
        } catch (NotSerializableException e) {
            throw e;
        } catch (IOException e) {
            throw new NotSerializableException("world protocol message '" + manifest + "' of " + bytes.length
                    + " bytes is truncated or damaged: " + e.getMessage());
        }
    }

    private String ref(ActorRef<?> ref) {
        return resolver().toSerializationFormat(ref);
    }

    private <T> ActorRef<T> resolve(String ref) {
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
