package dev.orrery.cluster.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.NotSerializableException;
import java.util.Arrays;
import org.apache.pekko.actor.ActorPath;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Coverage-guided fuzzing of the world protocol's reader ({@link ProtocolSerializer#read}, all
 * of {@link ProtocolSerializer#fromBinary} but Pekko's own reference resolver), the bytes
 * another node sends: whatever they are, the only outcome is one world protocol message
 * (which, written again, reads back equal) or one {@link NotSerializableException} in one
 * line; never another exception, and never an allocation the bytes do not back (the fuzz tests
 * run in a small heap).
 *
 * <p>An input's first byte picks the manifest: its value modulo 6 picks one of {@code S G H
 * R W} or, for 5, an unknown one; the rest is the message. An actor reference resolves where
 * it starts with {@code pekko://fuzz/} and is refused otherwise, as a resolver refuses one it
 * cannot parse; no actor system is started, so a regression run takes well under a second.
 * {@code mvn verify} runs the committed corpus ({@code ProtocolSerializerFuzzTestInputs/readMessage});
 * a longer run is described in docs/design/engine-and-cluster.md.
 */
class ProtocolSerializerFuzzTest {
    private static final String[] MANIFESTS = {"S", "G", "H", "R", "W", "X"};
    /** Writes and names messages without references, which need no actor system. */
    private static final ProtocolSerializer SERIALIZER = new ProtocolSerializer(null);

    @FuzzTest(maxDuration = "10m")
    void readMessage(byte[] data) throws NotSerializableException {
        if (data.length == 0) {
            return;
        }
        String manifest = MANIFESTS[(data[0] & 0xFF) % MANIFESTS.length];
        byte[] bytes = Arrays.copyOfRange(data, 1, data.length);
        Object m;
        try {
            m = ProtocolSerializer.read(bytes, manifest, ProtocolSerializerFuzzTest::resolve);
        } catch (NotSerializableException e) {
            String text = e.getMessage();
            assertTrue(text != null && text.contains("world protocol message") && !text.contains("\n")
                    && !text.contains("\r") && text.length() < 600, String.valueOf(text));
            return;
        }
        assertInstanceOf(WorldMessage.class, m);
        assertEquals(manifest, SERIALIZER.manifest(m));
        if (m instanceof SubmitInput s) {
            assertTrue(s.payload().length <= ProtocolSerializer.MAX_PAYLOAD);
        }
        if (m instanceof InputReply || m instanceof WorldStatus) { // records of values: equal when read back
            assertEquals(m, ProtocolSerializer.read(SERIALIZER.toBinary(m), manifest, ProtocolSerializerFuzzTest::resolve));
        }
    }

    private static ActorRef<?> resolve(String text) {
        if (!text.startsWith("pekko://fuzz/")) {
            throw new IllegalArgumentException("not a reference of this system: " + text);
        }
        return new Stub(ActorPath.fromString(text));
    }

    /** An actor reference that only has a path: the reader keeps references, it does not send to them. */
    private record Stub(ActorPath path) implements ActorRef<Object> {
        @Override
        public void tell(Object message) {
            throw new UnsupportedOperationException("a fuzz test's reference");
        }

        @Override
        @SuppressWarnings("unchecked")
        public <U> ActorRef<U> narrow() {
            return (ActorRef<U>) this;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <U> ActorRef<U> unsafeUpcast() {
            return (ActorRef<U>) this;
        }

        @Override
        public int compareTo(ActorRef<?> other) {
            return path.compareTo(other.path());
        }
    }
}
