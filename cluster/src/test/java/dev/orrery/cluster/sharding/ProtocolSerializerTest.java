package dev.orrery.cluster.sharding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import dev.orrery.cluster.protocol.WorldMessage;
import dev.orrery.cluster.protocol.WorldStatus;
import java.io.NotSerializableException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The world protocol's serializer against hostile bytes, without Jazzer: every message type
 * round-trips; every truncation and every length field inflated to a hostile value at every
 * offset of every sample is refused; and a seeded sweep of random, truncated, bit-flipped,
 * length-inflated, appended and spliced messages (each also read under every other manifest)
 * gets only {@link NotSerializableException}, never an {@code Error} or another exception,
 * with each decode's allocation within {@link ProtocolFuzzing#allocationBound}.
 * {@code -Dorrery.fuzz.inputs=N} and {@code -Dorrery.fuzz.seed=S} run a longer or another
 * sweep; {@link ProtocolSerializerFuzzTest} is the coverage-guided one.
 */
class ProtocolSerializerTest {
    private final ProtocolFuzzing fuzz = ProtocolFuzzing.get();

    @Test
    void everyMessageTypeRoundTrips() {
        for (WorldMessage m : fuzz.samples()) {
            String manifest = fuzz.serializer.manifest(m);
            Object back = fuzz.decode(fuzz.serializer.toBinary(m), manifest);
            if (m instanceof SubmitInput s) {
                SubmitInput b = (SubmitInput) back;
                assertEquals(List.of(s.clientId(), s.sequence(), s.client(), s.type()),
                        List.of(b.clientId(), b.sequence(), b.client(), b.type()));
                assertArrayEquals(s.payload(), b.payload());
                assertEquals(s.replyTo().path(), b.replyTo().path());
            } else if (m instanceof GetStatus || m instanceof Hold) {
                assertEquals(m.getClass(), back.getClass());
            } else if (m instanceof WorldStatus s && Double.isNaN(s.openMillis())) {
                assertTrue(Double.isNaN(((WorldStatus) back).openMillis()));
            } else {
                assertEquals(m, back);
            }
        }
    }

    @Test
    void aLengthOfTwoGigabytesIsRefusedBeforeAnythingIsAllocated() throws Exception {
        byte[] valid = fuzz.serializer.toBinary(fuzz.samples().get(0));
        ProtocolFuzzing.putInt(valid, 24, Integer.MAX_VALUE); // the payload length of SubmitInput
        NotSerializableException e = assertThrows(NotSerializableException.class,
                () -> fuzz.serializer.fromBinary(valid, "S"));
        assertTrue(e.getMessage().contains("payload length 2147483647 is not 0 to 16384 ("
                + ProtocolSerializer.MAX_PAYLOAD_KEY + ")"), e.getMessage());
        ProtocolFuzzing.putInt(valid, 24, -1);
        assertThrows(NotSerializableException.class, () -> fuzz.serializer.fromBinary(valid, "S"));
        NotSerializableException unknown = assertThrows(NotSerializableException.class,
                () -> fuzz.serializer.fromBinary(new byte[0], "Q"));
        assertTrue(unknown.getMessage().contains("another Orrery version"), unknown.getMessage());
    }

    @Test
    void everyTruncationAndEveryInflatedLengthOfEverySampleIsRefused() {
        for (WorldMessage m : fuzz.samples()) {
            String manifest = fuzz.serializer.manifest(m);
            byte[] valid = fuzz.serializer.toBinary(m);
            for (int cut = 0; cut < valid.length; cut++) {
                assertNull(fuzz.decode(java.util.Arrays.copyOf(valid, cut), manifest), "a message cut at " + cut);
            }
            for (int at = 0; at + 4 <= valid.length; at++) {
                if (valid.length > 4096 && at > 128 && at < valid.length - 128) {
                    continue; // inside the largest payload: no length field there
                }
                for (int length : ProtocolFuzzing.HOSTILE_LENGTHS) {
                    byte[] b = valid.clone();
                    ProtocolFuzzing.putInt(b, at, length);
                    fuzz.decode(b, manifest);
                }
            }
        }
    }

    @Test
    void aSeededSweepOfDamagedMessagesGetsOnlyTheSerializersOwnException() {
        long seed = Long.getLong("orrery.fuzz.seed", 31L);
        int inputs = Integer.getInteger("orrery.fuzz.inputs", 20_000);
        Random rnd = new Random(seed);
        List<WorldMessage> samples = fuzz.samples();
        ProtocolFuzzing.Mutation[] mutations = ProtocolFuzzing.Mutation.values();
        long refusedBefore = fuzz.refusals;
        for (int i = 0; i < inputs; i++) {
            WorldMessage m = samples.get(rnd.nextInt(samples.size()));
            byte[] bytes = ProtocolFuzzing.mutate(fuzz.serializer.toBinary(m), mutations[i % mutations.length], rnd);
            String manifest = rnd.nextInt(4) == 0 ? ProtocolFuzzing.MANIFESTS[rnd.nextInt(ProtocolFuzzing.MANIFESTS.length)]
                    : fuzz.serializer.manifest(m);
            fuzz.decode(bytes, manifest);
        }
        System.out.printf("ProtocolSerializerTest: %d damaged messages (seed %d), %d refused with "
                + "NotSerializableException, the rest decoded; most allocated by one decode: %d bytes%n", inputs, seed,
                fuzz.refusals - refusedBefore, fuzz.maxAllocated);
        assertTrue(fuzz.refusals - refusedBefore > inputs / 2, "most damaged messages are refused");
    }

    @Test
    void limitsOutOfRangeAndOversizedPayloadsAreRefusedNamingTheKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProtocolSerializer.maxPayload(
                ConfigFactory.parseString(ProtocolSerializer.MAX_PAYLOAD_KEY + " = 100000")));
        assertTrue(e.getMessage().contains(ProtocolSerializer.MAX_PAYLOAD_KEY + " = 100000 is out of range; set 0 to "
                + ProtocolSerializer.PAYLOAD_CEILING), e.getMessage());
        byte[] tooBig = new byte[fuzz.serializer.maxPayloadBytes() + 1];
        IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> fuzz.serializer.toBinary(
                new SubmitInput(1, 1, 1, 1, tooBig, fuzz.system.deadLetters())));
        assertTrue(big.getMessage().contains("over " + ProtocolSerializer.MAX_PAYLOAD_KEY), big.getMessage());
    }
}
