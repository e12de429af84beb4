package dev.orrery.cluster.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.NotSerializableException;
import java.util.Arrays;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import com.typesafe.config.ConfigFactory;

/**
 * Coverage-guided fuzzing of the world protocol's reader ({@link ProtocolSerializer#fromBinary}),
 * the bytes another node sends: whatever they are, the only outcome is one world protocol
 * message (which, written again, reads back equal) or one {@link NotSerializableException} in
 * one line; never another exception, and never an allocation the bytes do not back (the fuzz
 * tests run in a small heap).
 *
 * <p>An input's first byte picks the manifest: its value modulo 6 picks one of {@code S G H
 * R W} or, for 5, an unknown one; the rest is the message. Actor references resolve in a local
 * actor system named {@code fuzz} ({@code pekko://fuzz/...}). {@code mvn verify} runs the
 * committed corpus ({@code ProtocolSerializerFuzzTestInputs/readMessage}); a longer run is
 * described in docs/design/engine-and-cluster.md.
 */
class ProtocolSerializerFuzzTest {
    private static final String[] MANIFESTS = {"S", "G", "H", "R", "W", "X"};
    private static final ActorSystem<Void> SYSTEM = ActorSystem.create(Behaviors.empty(), "fuzz",
            ConfigFactory.parseString("pekko.actor.provider = local\npekko.loglevel = ERROR\n"
                    + "pekko.stdout-loglevel = ERROR").withFallback(ConfigFactory.load()));
    private static final ProtocolSerializer SERIALIZER =
            new ProtocolSerializer((ExtendedActorSystem) Adapter.toClassic(SYSTEM));

    @FuzzTest(maxDuration = "10m")
    void readMessage(byte[] data) throws NotSerializableException {
        if (data.length == 0) {
            return;
        }
        String manifest = MANIFESTS[(data[0] & 0xFF) % MANIFESTS.length];
        byte[] bytes = Arrays.copyOfRange(data, 1, data.length);
        Object m;
        try {
            m = SERIALIZER.fromBinary(bytes, manifest);
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
        Object again = SERIALIZER.fromBinary(SERIALIZER.toBinary(m), manifest);
        if (m instanceof InputReply || m instanceof WorldStatus) { // records of values: equal when read back
            assertEquals(m, again);
        }
    }
}
