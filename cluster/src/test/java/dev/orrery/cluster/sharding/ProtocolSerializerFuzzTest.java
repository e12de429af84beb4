package dev.orrery.cluster.sharding;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;

/**
 * Coverage-guided fuzzing of the world protocol's serializer with Jazzer. The first byte of
 * an input picks the manifest ({@link ProtocolFuzzing#MANIFESTS}, the protocol's five and
 * three it does not know), the rest are the message's bytes; the serializer must return a
 * message or throw its own {@link java.io.NotSerializableException}, within the allocation
 * bound ({@link ProtocolFuzzing#decode}).
 *
 * <p>In {@code mvn verify} (no {@code JAZZER_FUZZ}) this runs as a regression test over the
 * committed seed corpus in {@code src/test/resources/dev/orrery/cluster/sharding/
 * ProtocolSerializerFuzzTestInputs/decode/}: valid, truncated, bit-flipped and
 * length-inflated messages of every type ({@link ProtocolSeedCorpus} writes them). To fuzz:
 * {@code JAZZER_FUZZ=1 ./mvnw -pl cluster -am verify -Dtest=ProtocolSerializerFuzzTest
 * -Dsurefire.failIfNoSpecifiedTests=false} (5 minutes; a finding is written beside the
 * corpus, where it then stays as a regression input).
 */
class ProtocolSerializerFuzzTest {
    @FuzzTest(maxDuration = "5m")
    void decode(byte[] data) {
        if (data.length == 0) {
            return;
        }
        String manifest = ProtocolFuzzing.MANIFESTS[(data[0] & 0xff) % ProtocolFuzzing.MANIFESTS.length];
        ProtocolFuzzing.get().decode(Arrays.copyOfRange(data, 1, data.length), manifest);
    }
}
